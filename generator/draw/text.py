"""Text that fits its box, with a light markup: bold, italic, colour, icons.

SVG has no wrapping, so we measure with the embedded fonts' own metrics,
break into lines and shrink the size in small steps until the lines fit; text
that fits at no size down to ``min_size`` is cut with an ellipsis and reported.

The markup (docs/format.md, "Text markup"), typed into any cell:

``**bold**``, ``*italic*``, ``***both***``; ``[gold]...[/]`` a palette colour (or
``[#c00]``); ``:coin:`` an icon (``icon_sets``); ``|`` or a new line a forced
break; ``~`` a non-breaking space; a backslash before any of ``* [ ] : | ~ \\``
prints it as it is.  Markup left open prints as typed, with a warning.

``parse`` turns a cell into words (runs of text in one face and colour, and
icons); ``Fitter`` lays them out at a size, measuring each run in its own face
(every face's widths are proportional to the size, so each run is measured
once) and each icon as a glyph of its width; characters the run's face lacks
are set in a fallback face that has them (``fonts.FALLBACK_FAMILIES``), and a
character no font has is drawn as an empty box, the same on paper and on
screen.  A long word in a narrow box is hyphenated (pyphen) when it would
not fit the box at all, or, when the text fits no other way at a size, where
it would leave a wide gap at the end of its line.
``svg_lines`` writes each line as ``<text>`` elements placed by our own
measure (one per run), so that every reader draws the same glyphs at the
same places.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable
from xml.sax.saxutils import escape

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..art.fonts import FAMILIES, NO_GLYPH, cmap, covers, ensure_faces, face, face_label, fallback_face

#: Shrink steps, mm.
STEP = 0.2
#: Hyphenate a word that would leave more than this share of its line empty.
HYPHEN_GAP = 0.3
#: Words shorter than this are never hyphenated.
HYPHEN_MIN = 6
#: The empty box drawn for a character no font has: width and height in font sizes, line width in mm.
BOX_W, BOX_H = 0.55, 0.7
ESCAPABLE = frozenset("*[]:|~\\")
_ICON = re.compile(r":([A-Za-z][A-Za-z0-9_-]*):")
_COLOUR = re.compile(r"\[(/?)(#[0-9A-Fa-f]{3}(?:[0-9A-Fa-f]{3})?|[A-Za-z][A-Za-z0-9_-]*)?\]")
_HEX = re.compile(r"#[0-9A-Fa-f]{3}(?:[0-9A-Fa-f]{3})?")
_SPECIAL = re.compile(r"[*\[\]:~\\\u00a0\r]")  # what only the full reading handles (breaks split below)
_BREAKS = re.compile(r"[|\n]")


# ---------------------------------------------------------------- the markup
@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    color: str | None = None  # None: the box's colour


@dataclass(frozen=True)
class Run:
    """A run of characters in one style, or an icon (``icon`` set, ``text`` the code)."""

    text: str
    style: Style
    icon: object = None  # an icon_sets.IconArt


#: A word: runs with no breakable space between them.  A paragraph: words.  A text: paragraphs.
Word = tuple
Paragraph = list


@dataclass
class Parsed:
    paragraphs: list[list[Word]]
    warnings: list[str] = field(default_factory=list)
    plain: bool = True  # no markup at all: one style, no icons


def _lex(text: str, colours: Callable[[str], str | None], markup: bool = True) -> list[tuple]:
    """Tokens: ('c', char) literal, ('sp',), ('br',), ('*', n, can_open, can_close), ('col', name, value, raw),
    ('end', name, raw), ('icon', name, raw).  Without ``markup`` only spaces and breaks count."""
    out: list[tuple] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if not markup:
            out.append(("br",) if ch in "|\n" else ("sp",) if ch.isspace() and ch != "\u00a0" else ("c", ch))
            i += 1
            continue
        if ch == "\\" and i + 1 < n and text[i + 1] in ESCAPABLE:
            out.append(("c", text[i + 1]))
            i += 2
            continue
        if ch == "\r":
            i += 1
            continue
        if ch in "|\n":
            out.append(("br",))
            i += 1
            continue
        if ch == "~":
            out.append(("c", "\u00a0"))
            i += 1
            continue
        if ch.isspace() and ch != "\u00a0":
            out.append(("sp",))
            i += 1
            continue
        if ch == "*":
            j = i
            while j < n and text[j] == "*":
                j += 1
            before = text[i - 1] if i > 0 else " "
            after = text[j] if j < n else " "
            out.append(("*", j - i, not after.isspace(), not before.isspace()))
            i = j
            continue
        if ch == ":":
            m = _ICON.match(text, i)
            if m is not None:
                out.append(("icon", m.group(1), m.group(0)))
                i = m.end()
                continue
        if ch == "[":
            m = _COLOUR.match(text, i)
            if m is not None:
                name = m.group(2)
                if m.group(1):
                    out.append(("end", name, m.group(0)))
                    i = m.end()
                    continue
                value = colours(name) if name else None
                if value is not None:
                    out.append(("col", name, value, m.group(0)))
                    i = m.end()
                    continue
        out.append(("c", ch))
        i += 1
    return out


_STARS = {1: ("italic",), 2: ("bold",), 3: ("bold", "italic")}


def parse(text: str, colours: Callable[[str], str | None] = lambda name: None,
          icon: Callable[[str], object | None] = lambda name: None, markup: bool = True) -> Parsed:
    """A cell's text as paragraphs of words.  ``colours(name)`` gives the colour a
    ``[name]`` stands for (None: not a colour, printed as typed); ``icon(name)``
    the icon of ``:name:`` (None: unknown, printed as typed; it reports that itself).
    Without ``markup`` the text is taken as it is, but for its breaks."""
    if not _SPECIAL.search(text):  # plain words (most cells): no markup to read
        plain = Style()
        return Parsed([[(Run(w, plain),) for w in para.split()] for para in _BREAKS.split(text)], [], True)
    tokens = _lex(text, colours, markup)
    # pair the markers: a marker left open (or closing nothing) prints as typed
    literal: set[int] = set()
    role: dict[int, tuple] = {}  # token index -> ("open"|"close", kinds)
    open_at: dict[str, int] = {}
    colour_stack: list[int] = []
    warnings: list[str] = []
    for k, tok in enumerate(tokens):
        kind = tok[0]
        if kind == "*":
            count, can_open, can_close = tok[1:]
            kinds = _STARS.get(count)
            if kinds is None:
                literal.add(k)
                continue
            closing = [x for x in kinds if x in open_at] if can_close else []
            if closing and (len(closing) == len(kinds) or count == 3):
                for x in closing:
                    role[open_at.pop(x)] = ("open", (x,)) if role.get(open_at.get(x, -1)) is None else role[open_at[x]]
                role[k] = ("close", tuple(closing))
                if len(closing) < len(kinds):  # "***" closing one of two: the other star(s) stay as typed
                    role[k] = ("close", tuple(closing), "*" * (count - (2 if closing == ["bold"] else 1)))
            elif can_open and not any(x in open_at for x in kinds):
                for x in kinds:
                    open_at[x] = k
                role[k] = ("open", kinds)
            else:
                literal.add(k)
        elif kind == "col":
            colour_stack.append(k)
            role[k] = ("open", ("colour",))
        elif kind == "end":
            name = tok[1]
            match = next((j for j in reversed(colour_stack) if name is None or tokens[j][1].lower() == name.lower()),
                         None)
            if match is None:
                literal.add(k)
                warnings.append(f"'{tok[2]}' closes no colour; write \\{tok[2]} for the characters themselves")
                continue
            colour_stack.remove(match)
            role[k] = ("close", ("colour",), match)
    for x, k in open_at.items():
        literal.add(k)
        role.pop(k, None)
        mark = "*" * tokens[k][1]
        warnings.append(f"'{mark}' ({x}) is never closed, so it prints as typed; close it with "
                        f"'{mark}' or write \\{mark[0]} for a star")
    for k in colour_stack:
        literal.add(k)
        role.pop(k, None)
        warnings.append(f"'{tokens[k][3]}' is never closed, so it prints as typed; end the colour with [/]")
    # the styled runs
    paragraphs: list[list[Word]] = [[]]
    word: list[Run] = []
    chars: list[str] = []
    bold = italic = False
    colours_open: list[tuple[int, str]] = []
    plain = True

    def style() -> Style:
        return Style(bold, italic, colours_open[-1][1] if colours_open else None)

    def flush_chars():
        if chars:
            word.append(Run("".join(chars), style()))
            chars.clear()

    def flush_word():
        flush_chars()
        if word:
            paragraphs[-1].append(tuple(word))
            word.clear()

    for k, tok in enumerate(tokens):
        kind = tok[0]
        if k in literal:
            flush_chars() if kind == "*" else None
            text_of = {"*": lambda t: "*" * t[1], "col": lambda t: t[3], "end": lambda t: t[2]}[kind]
            chars.append(text_of(tok))
            continue
        if kind == "c":
            chars.append(tok[1])
        elif kind == "sp":
            flush_word()
        elif kind == "br":
            flush_word()
            paragraphs.append([])
        elif kind == "icon":
            art = icon(tok[1])
            if art is None:
                chars.append(tok[2])
            else:
                flush_chars()
                word.append(Run(tok[2], style(), art))
                plain = False
        elif kind == "*":
            flush_chars()
            plain = False
            r = role[k]
            on = r[0] == "open"
            for x in r[1]:
                if x == "bold":
                    bold = on
                else:
                    italic = on
            if len(r) > 2:
                chars.append(r[2])
        elif kind == "col":
            flush_chars()
            plain = False
            colours_open.append((k, tok[2]))
        elif kind == "end":
            flush_chars()
            opener = role[k][2]
            colours_open = [c for c in colours_open if c[0] != opener]
    flush_word()
    # merge runs of one style inside a word (a marker between them may have split them)
    out = []
    for para in paragraphs:
        merged_para = []
        for w in para:
            merged: list[Run] = []
            for run in w:
                if merged and run.icon is None and merged[-1].icon is None and merged[-1].style == run.style:
                    merged[-1] = Run(merged[-1].text + run.text, run.style)
                else:
                    merged.append(run)
            merged_para.append(tuple(merged))
        out.append(merged_para)
    return Parsed(out, warnings, plain)


# ---------------------------------------------------------------- measuring
@dataclass(frozen=True)
class Seg:
    """A measured piece of a word: text in one face (``kind`` "t"), an icon ("i")
    or the box of a character no font has ("x"); ``unit`` is its width at size 1."""

    kind: str
    text: str
    face: str
    color: str | None
    unit: float
    icon: object = None


@lru_cache(maxsize=65536)
def _unit(text: str, font: str) -> float:
    return stringWidth(text, font, 1.0)


@dataclass
class Prepared:
    """A parsed text, measured: every word as segments, the space of each word's style."""

    words: list[list[tuple[tuple[Seg, ...], float, str]]]  # paragraphs of (segments, unit space before, its face)
    missing: list[tuple[str, str, str | None]]  # (character, face, fallback face or None), each once


def prepare(parsed: Parsed, family: str, bold: bool) -> Prepared:
    """Measure a parsed text set in ``family`` (``bold``: the whole box bold)."""
    missing: dict[tuple[str, str], str | None] = {}
    paragraphs = []
    for para in parsed.paragraphs:
        words = []
        for word in para:
            segs: list[Seg] = []
            space_face = None
            for run in word:
                st = run.style
                name = face(family, bold or st.bold, st.italic)
                space_face = space_face or name
                if run.icon is not None:
                    segs.append(Seg("i", run.text, name, st.color, run.icon.advance(1.0), run.icon))
                    continue
                ensure_faces(name)
                if _chars(name).issuperset(run.text):  # every character in the face (most runs)
                    segs.append(_seg(name, run.text, st.color))
                    continue
                current, buf = name, []
                for ch in run.text:
                    use = name
                    if ch not in NO_GLYPH and not covers(name, ch):
                        key = (ch, name)
                        if key not in missing:
                            missing[key] = fallback_face(name, ch)
                        use = missing[key] or "\0box"
                    if use != current:
                        if buf:
                            segs.append(_seg(current, "".join(buf), st.color))
                        current, buf = use, []
                    buf.append(ch)
                if buf:
                    segs.append(_seg(current, "".join(buf), st.color))
            space_face = space_face or face(family, bold)
            words.append((tuple(segs), _unit(" ", space_face), space_face))
        paragraphs.append(words)
    for fb in {f for f in missing.values() if f}:
        ensure_faces(fb)
    return Prepared(paragraphs, [(ch, f, fb) for (ch, f), fb in missing.items()])


@lru_cache(maxsize=None)
def _chars(name: str) -> frozenset:
    """The characters a face draws, as strings (and those that need no glyph)."""
    return frozenset(chr(c) for c in cmap(name)) | NO_GLYPH


def _seg(font: str, text: str, color) -> Seg:
    if font == "\0box":
        return Seg("x", text, font, color, BOX_W * len(text))
    return Seg("t", text, font, color, _unit(text, font))


# ---------------------------------------------------------------- line breaking
@dataclass
class Line:
    items: list[tuple[tuple[Seg, ...], float, str]]  # (segments of a word or part of one, unit space before, its face)

    @property
    def unit(self) -> float:
        return sum(space + sum(s.unit for s in segs) for segs, space, _ in self.items)

    @property
    def text(self) -> str:
        return " ".join("".join(s.text for s in segs) for segs, _, _ in self.items)


@dataclass
class Fitted:
    lines: list[str]
    size: float
    overflow: bool
    needed: float  # height the text needed at min_size, mm
    layout: list[Line] = field(default_factory=list)
    hyphenated: int = 0


@lru_cache(maxsize=8)
def _hyphenator(language: str):
    import pyphen

    return pyphen.Pyphen(lang=language, left=3, right=3)


def _splits(text: str, language: str) -> list[int]:
    """Where a word may be hyphenated (character offsets), longest first part last."""
    core = text.rstrip(".,;:!?)»\"'")
    if len(core) < HYPHEN_MIN or not core[:1].isalpha():
        return []
    return _hyphenator(language).positions(core)


def _split_word(segs: tuple[Seg, ...], at: int) -> tuple[tuple[Seg, ...], tuple[Seg, ...]]:
    """A one-run word cut at character ``at``: (first part with a hyphen, the rest)."""
    (seg,) = segs
    head, tail = seg.text[:at] + "-", seg.text[at:]
    return (_seg(seg.face, head, seg.color),), (_seg(seg.face, tail, seg.color),)


def break_lines(prepared: Prepared, size: float, width: float, language: str | None,
                fill_gaps: bool = False) -> tuple[list[Line], int]:
    """Greedy line breaking at ``size``; (lines, words hyphenated).  With a ``language``
    a word wider than the box is hyphenated; with ``fill_gaps`` too, a word that would
    leave a wide gap at the end of its line."""
    limit = width / size + 1e-9  # in units of the size
    lines: list[Line] = []
    hyphens = 0
    for para in prepared.words:
        line = Line([])
        used = 0.0
        for segs, space, space_face in para:
            w = sum(s.unit for s in segs)
            while True:
                gap = limit - used - (space if line.items else 0.0)
                if w <= gap:
                    line.items.append((segs, space if line.items else 0.0, space_face))
                    used += w + (space if len(line.items) > 1 else 0.0)
                    break
                # the word does not fit what is left of the line
                cut = None
                if language and len(segs) == 1 and segs[0].kind == "t" and (
                        w > limit or fill_gaps and gap > HYPHEN_GAP * limit):
                    for at in reversed(_splits(segs[0].text, language)):
                        head, tail = _split_word(segs, at)
                        if head[0].unit <= gap:
                            cut = (head, tail)
                            break
                if cut is not None:
                    line.items.append((cut[0], space if line.items else 0.0, space_face))
                    lines.append(line)
                    hyphens += 1
                    line, used = Line([]), 0.0
                    segs = cut[1]
                    w = segs[0].unit
                    continue
                if not line.items:  # too wide even alone: it overflows
                    line.items.append((segs, 0.0, space_face))
                    used = w
                    break
                lines.append(line)
                line, used = Line([]), 0.0
        lines.append(line)
    return lines, hyphens


def fit(text, width: float, height: float, size: float, min_size: float, font: str | None = None,
        line_height: float = 1.2, step: float = STEP, *, prepared: Prepared | None = None,
        language: str | None = None) -> Fitted:
    """Lines and size of a text in a box: the largest size from ``size`` down to
    ``min_size`` (in ``step`` steps, ``min_size`` itself tried last) at which every
    line fits the width and all lines the height; else cut at ``min_size``, the last
    line ending with an ellipsis.  ``text`` is plain text set in the face ``font``,
    or None with ``prepared`` (``prepare``)."""
    if prepared is None:
        ensure_faces(font)
        family, bold, _ = _weight(font)
        prepared = prepare(parse(str(text), markup=False), family, bold)
    s = size
    while True:
        # hyphenation fills the gaps a long word leaves only when the text fits no other way at this size
        for fill_gaps in ((False, True) if language else (False,)):
            lines, hyphens = break_lines(prepared, s, width, language, fill_gaps)
            too_wide = any(line.unit * s > width + 1e-9 for line in lines)
            needed = len(lines) * s * line_height
            if needed <= height + 1e-6 and not too_wide:
                return Fitted([ln.text for ln in lines], s, False, needed, lines, hyphens)
        if s <= min_size + 1e-9:
            break
        s = max(round(s - step, 4), min_size)  # the last try is min_size itself
    # Overflow at min_size: keep what fits, end with an ellipsis.
    s = min_size
    lines, hyphens = break_lines(prepared, s, width, language, True)
    max_lines = max(1, int((height + 1e-6) // (s * line_height)))
    kept = lines[:max_lines]
    for i, line in enumerate(kept[:-1]):  # a word wider than the box, on any line, is cut too
        if line.unit * s > width + 1e-9:
            kept[i] = _ellipsis(line, width / s)
    if len(lines) > max_lines or too_wide:
        kept[-1] = _ellipsis(kept[-1], width / s)
    return Fitted([ln.text for ln in kept], s, True, len(lines) * s * line_height, kept, hyphens)


def _ellipsis(line: Line, limit: float) -> Line:
    """A line cut so that it ends with '…' within ``limit`` (in size units)."""
    items = [(list(segs), space, sf) for segs, space, sf in line.items]

    def total(extra):
        return sum(sp + sum(s.unit for s in segs) for segs, sp, _ in items) + extra

    while items:
        segs, space, _ = items[-1]
        last = next((s for s in reversed(segs) if s.kind == "t"), None)
        mark_face = last.face if last is not None else segs[-1].face if segs else "DejaVuSans"
        if mark_face == "\0box":
            mark_face = "DejaVuSans"
        mark = _unit("…", mark_face)
        if total(mark) <= limit + 1e-9:
            seg = segs[-1] if segs else None
            if seg is not None and seg.kind == "t":
                segs[-1] = _seg(seg.face, seg.text.rstrip() + "…", seg.color)
            else:
                segs.append(_seg(mark_face, "…", seg.color if seg else None))
            break
        # take away a character (or a whole icon, box or word)
        seg = segs[-1] if segs else None
        if seg is None:
            items.pop()
            continue
        if seg.kind == "t" and len(seg.text) > 1:
            segs[-1] = _seg(seg.face, seg.text[:-1], seg.color)
        else:
            segs.pop()
            if not segs:
                items.pop()
    return Line([(tuple(segs), space, sf) for segs, space, sf in items])


# ---------------------------------------------------------------- SVG
def _weight(font: str) -> tuple[str, bool, bool]:
    """(family, bold, italic) of a face."""
    for family, faces in FAMILIES.items():
        if font in faces:
            i = faces.index(font)
            return family, bool(i & 1), bool(i & 2)
    return "DejaVu Sans", False, False


def svg_lines(fitted: Fitted, x: float, y: float, width: float, height: float, *, anchor: str, valign: str,
              fill: str, line_height: float, extra: str = "") -> str:
    """The lines as SVG, baseline-positioned.  A line of one run is one ``<text>``
    anchored as asked; a line of several runs (styles, fonts, icons) is written
    run by run from the left, placed by the fonts' metrics."""
    s = fitted.size
    block = len(fitted.layout) * s * line_height
    if valign == "middle":
        top = y + (height - block) / 2
    elif valign == "bottom":
        top = y + height - block
    else:
        top = y
    tx = {"start": x, "middle": x + width / 2, "end": x + width}[anchor]
    out = []
    for i, line in enumerate(fitted.layout):
        baseline = top + i * s * line_height + s * 0.8 + (line_height - 1) * s / 2
        segs = [seg for segs, _, _ in line.items for seg in segs]
        if not segs:
            continue
        if all(seg.kind == "t" and seg.face == segs[0].face and seg.color == segs[0].color for seg in segs) and all(
                sf == segs[0].face for _, sp, sf in line.items[1:]):
            out.append(_text(tx, baseline, segs[0].face, s, anchor, segs[0].color or fill, extra, line.text))
            continue
        at = {"start": tx, "middle": tx - line.unit * s / 2, "end": tx - line.unit * s}[anchor]
        run: list[str] = []  # text of the <text> being gathered
        run_at, run_key = at, None

        def flush():
            if run:
                out.append(_text(run_at, baseline, run_key[0], s, "start", run_key[1] or fill, extra, "".join(run)))
                run.clear()

        for word, space, space_face in line.items:
            for k, seg in enumerate(word):
                key = (seg.face, seg.color) if seg.kind == "t" else None
                spaced = k == 0 and space
                # a run goes on across a space measured in its own face
                if run and (key != run_key or spaced and space_face != seg.face):
                    flush()
                if spaced:
                    if run:
                        run.append(" ")
                    at += space * s
                if seg.kind == "t":
                    if not run:
                        run_at, run_key = at, key
                    run.append(seg.text)
                elif seg.kind == "i":
                    out.append(seg.icon.svg(at, baseline, s, seg.color or fill))
                else:  # characters no font has: an empty box each
                    for n in range(len(seg.text)):
                        bx = at + (n * BOX_W + 0.08) * s
                        out.append(f'<rect x="{bx:.3f}" y="{baseline - BOX_H * s:.3f}" width="{(BOX_W - 0.16) * s:.3f}"'
                                   f' height="{BOX_H * s:.3f}" fill="none" stroke="{seg.color or fill}"'
                                   f' stroke-width="{0.06 * s:.3f}"/>')
                at += seg.unit * s
        flush()
    return "".join(out)


def _text(x: float, baseline: float, font: str, size: float, anchor: str, fill: str, extra: str, text: str) -> str:
    family, bold, italic = _weight(font)
    weight = ' font-weight="bold"' if bold else ""
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{x:.3f}" y="{baseline:.3f}" font-family="{family}" font-size="{size:.3f}"{weight}{style} '
            f'text-anchor="{anchor}" fill="{fill}"{extra}>{escape(text)}</text>')


def measure(text: str, family: str, size: float, bold: bool = False) -> float:
    name = face(family, bold)
    ensure_faces(name)
    return stringWidth(text, name, size)


__all__ = ["Fitted", "Parsed", "Prepared", "Run", "Style", "break_lines", "face_label", "fit", "measure", "parse",
           "prepare", "svg_lines"]
