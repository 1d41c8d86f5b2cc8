"""Templates to pictures: Jinja2 template -> SVG string -> display list (or reportlab Drawing).

The tools of the render stage (``designs.py`` runs it for a whole game).
Templates live in ``templates/<game>/``; the generator's own base templates are
reachable as ``pnp/...``.  Values are XML-escaped by Jinja's autoescaping; the
helpers below return markup that is already safe.  A game's template
environment (its compiled templates) is kept in the process while the game's
files stay the same (``shared_env``).  An SVG becomes a display list
(``displaylist.py``), read by ``svgfast`` when it can and by svglib when not;
identical SVG (e.g. a shared card back) is read once per build, and not at all
when the store already holds its display list.  A ``RenderCache`` store keeps
compiled templates and display lists, which the PDF writers replay.
"""

from __future__ import annotations

import io
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from model.errors import Problems
from model.manifest import Deck, Manifest
from model.sheets import Card

from . import sandbox
from .cache import NO_CACHE, DrawingStore, is_render_cache
from .fonts import DEFAULT_FONT, FAMILIES, ensure_for_svg, ensure_for_svglib, graphics_default_font
from .keys import BUILTIN_TEMPLATES, design_key
from .text import fit, svg_lines

#: The font state of a new page or form in the PDF writers, which display lists are recorded against.
RECORD_FONT = (DEFAULT_FONT, 6.0)


class TemplateProblem(ValueError):
    pass


#: How an undefined name's owner is called in messages, by type name.
_OWNERS = {"Card": "card", "Manifest": "game", "Deck": "deck", "Size": "size", "Term": "term", "Confined": "nets"}


class Undefined(jinja2.StrictUndefined):
    """StrictUndefined whose message speaks the designer's words and suggests a
    close name: ``card has no column 'nmae'; did you mean 'name'?``."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint or obj is jinja2.utils.missing or not isinstance(name, str):
            return super()._undefined_message
        import difflib

        kind = type(obj).__name__
        if isinstance(obj, Card):
            known = [f for f in obj.__dataclass_fields__ if f not in ("extra", "sheet", "row")]
            known += [k for k, _ in obj.extra]
            what = f"card has no column '{name}'"
        elif isinstance(obj, dict):
            known = [str(k) for k in obj]
            what = f"no key '{name}' here (keys: {', '.join(known) or 'none'})"
        else:
            fields = getattr(obj, "__dataclass_fields__", None)
            known = list(fields) if fields else [n for n in dir(obj) if not n.startswith("_")]
            what = f"{_OWNERS.get(kind, kind)} has no attribute '{name}'"
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
        if close:
            return what + f"; did you mean '{close[0]}'?"
        if isinstance(obj, Card):  # a column of the designer's own, not declared yet
            return what + (f"; declare it in templates/{obj.game}/game.toml under [decks.{obj.deck}.columns] "
                           f"({name} = {{}}), with a column of that name in the sheet")
        return what


def make_env(folder: Path, bytecode_cache=None) -> jinja2.Environment:
    """A game's template environment: Jinja2's sandbox, bounded (``sandbox.py``), reading
    templates only inside the game's folder and the generator's own."""
    # optimized=False: Jinja2's constant folding changes no output and costs a sixth of compiling
    env = sandbox.Sandbox(loader=sandbox.FolderLoader([folder, BUILTIN_TEMPLATES]), autoescape=True,
                          undefined=Undefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                          bytecode_cache=bytecode_cache, auto_reload=False, optimized=False)
    env.filters["fmt"] = lambda v, digits=2: f"{v:.{digits}f}"
    env.guard_filters()
    return env


#: Template environments kept in this process (compiled templates and all), by
#: game folder, the digest of everything under it and the store: a second
#: build of an unchanged game (``pnp watch``, the reference after the cards)
#: compiles nothing.
_ENVS: OrderedDict = OrderedDict()
ENVS_KEPT = 8


def shared_env(manifest: Manifest, store: DrawingStore = NO_CACHE, fingerprint: str | None = None):
    """The template environment of a game, shared while its files stay the same.

    ``fingerprint`` (``keys.game_fingerprint``, which covers every file of the
    game's template folder and the generator's own templates) is computed when
    not given."""
    from .keys import game_fingerprint

    fingerprint = fingerprint or game_fingerprint(manifest)
    key = (str(manifest.folder), fingerprint, getattr(store, "identity", None) or id(store))
    found = _ENVS.get(key)
    if found is None:
        bytecode = store.bytecode_cache() if hasattr(store, "bytecode_cache") else None
        found = _ENVS[key] = (make_env(manifest.folder, bytecode), store)  # the store kept: its id stays its own
        while len(_ENVS) > ENVS_KEPT:
            _ENVS.popitem(last=False)
    _ENVS.move_to_end(key)
    return found[0]


PT_PER_MM = 72 / 25.4


@dataclass
class Kit:
    """The helpers a template calls; one per rendered design (it knows the card)."""

    manifest: Manifest
    card: Card | None
    problems: Problems
    side: str = "front"
    notes: list[str] = field(default_factory=list)  # text shrunk to fit, for the preview
    template: str | None = None  # the template being rendered, for messages
    pictures: dict = field(default_factory=dict)  # pictures used: relative path -> digest
    boxes: list = field(default_factory=list)  # text boxes whose text did not fit (x, y, w, h), for proofs
    icons: dict = field(default_factory=dict)  # icon name -> IconArt or None (unknown), shared by a game's designs
    found: dict = field(default_factory=dict)  # picture name -> (relative name, file) or why not, shared likewise

    def _locate(self, value: str, field: str) -> tuple[str, int | None, str | None, str]:
        """(file, row, column, who) for a message about a text: its cell when it is the
        cell's own value, else the template that wrote it."""
        card = self.card
        if card is not None:
            cell = card.get(field)
            if cell is not None and str(cell) == value:
                return card.sheet, card.row, field, f"'{card.id}' ({self.side})"
        where = f"templates/{self.manifest.slug}/{self.template}" if self.template else f"templates/{self.manifest.slug}"
        who = f"'{card.id}' ({self.side}), {field}" if card is not None else field
        return where, None, None, who

    def _colour(self, name: str) -> str | None:
        if name.startswith("#"):
            return name
        entry = self.manifest.palette.get(name.lower())
        return str(entry.get("fill")) if isinstance(entry, dict) and entry.get("fill") else None

    def _found_icon(self, name: str):
        """The icon ``name`` (``icon_sets.IconArt``), or the ``UnknownIcon`` that says it is not
        known: looked for once for all the game's designs.  An icon file that is not a plain,
        safe SVG raises ``icon_sets.BadIcon``."""
        found = self.icons.get(name, False)
        if found is False:
            from . import icon_sets

            try:
                found = icon_sets.find(name, self.manifest.folder, self.icons.get("\0own"))
            except icon_sets.UnknownIcon as exc:
                found = exc
            self.icons[name] = found
        return found

    def _icon(self, name: str, where: tuple):
        from . import icon_sets

        try:
            found = self._found_icon(name)
        except icon_sets.BadIcon as exc:
            raise TemplateProblem(f"icon ':{name}:': {exc.where} {exc.message}") from None
        if isinstance(found, Exception):
            file, row, column, who = where
            close = f"; close matches: {', '.join(':' + c + ':' for c in found.close)}" if found.close else ""
            self.problems.warn(file, row, column, f"{who}: unknown icon ':{name}:', printed as typed{close} "
                               f"(icons: templates/{self.manifest.slug}/icons/NAME.svg and the built-in set)")
            return None
        return found

    def text(self, value, x, y, w, h, size=3.5, min_size=None, bold=False, anchor="middle", valign="top",
             fill="#000000", field="text", family=None, line_height=1.2, opacity=None, italic=False, markup=True):
        from .text import face_label, parse, prepare

        family = family or self.manifest.font
        if family not in FAMILIES or family not in self.manifest.families:
            raise TemplateProblem(f"unknown font family '{family}'; families: {', '.join(self.manifest.families)}")
        value = "" if value is None else str(value)
        if not value:
            return Markup("")
        min_size = min_size if min_size is not None else size * 0.6
        where = self._locate(value, field)
        file, row, column, who = where
        parsed = parse(value, self._colour, lambda name: self._icon(name, where), markup=markup)
        for message in parsed.warnings:
            self.problems.warn(file, row, column, f"{who}: {message}")
        if italic:
            parsed = _all_italic(parsed)
        prepared = prepare(parsed, family, bold)
        for char, face_name, fallback in prepared.missing:
            shown = char if char.isprintable() else f"U+{ord(char):04X}"
            if fallback:
                self.problems.warn(file, row, column, f"{who}: '{shown}' is not in {face_label(face_name)}; "
                                   f"printed in {face_label(fallback)}")
            else:
                self.problems.warn(file, row, column, f"{who}: '{shown}' is not in {face_label(face_name)} nor in "
                                   "any fallback font; it prints as an empty box")
        fitted = fit(None, w, h, size, min_size, prepared=prepared, language=self.manifest.language)
        if fitted.overflow:
            self.boxes.append((float(x), float(y), float(w), float(h)))
            if self.card is not None:
                self.problems.warn(self.card.sheet, self.card.row, field,
                                   f"'{self.card.id}' ({self.side}): {field} does not fit its box even at "
                                   f"{min_size:g} mm (needs {fitted.needed:.1f} mm of {h:g} mm); it is cut short, "
                                   "shorten it")
        elif fitted.size < size - 1e-9 and self.card is not None:
            self.notes.append(f"{self.side}: {field} shrunk from {size:g} to {fitted.size:g} mm to fit")
        floor = self.manifest.text_floor
        points = fitted.size * PT_PER_MM
        if points < floor - 0.005:
            how = (f"is set at {_pt(size * PT_PER_MM)} pt" if size * PT_PER_MM < floor - 0.005 else
                   f"shrinks to {_pt(points)} pt to fit")
            self.problems.warn(file, row, column, f"{who}: text {how}, below the game's {floor:g} pt floor "
                               "(text_floor in game.toml); give it a larger box or fewer words")
        extra = f' fill-opacity="{opacity}"' if opacity is not None else ""
        return Markup(svg_lines(fitted, x, y, w, h, anchor=anchor, valign=valign,
                                fill=fill, line_height=line_height, extra=extra))

    def picture(self, name, x, y, w, h, fit="cover", anchor="center", field=None):
        """A picture file (PNG, JPEG or SVG) in the box (x, y, w, h): ``fit`` cover (fill
        the box, cropping), contain (all of it inside the box) or stretch; ``anchor``
        the part that stays in view (center, top, bottom, left, right, top-left ...).
        ``name`` is relative to the data folder; nothing is drawn for an empty name."""
        from . import pictures

        if fit not in pictures.FITS:
            raise TemplateProblem(f"picture fit '{fit}' is not one of {', '.join(pictures.FITS)}")
        if anchor not in pictures.ANCHORS:
            raise TemplateProblem(f"picture anchor '{anchor}' is not one of {', '.join(pictures.ANCHORS)}")
        if not all(isinstance(v, (int, float)) for v in (x, y, w, h)) or w <= 0 or h <= 0:
            raise TemplateProblem(f"picture box ({x}, {y}, {w}, {h}) needs numbers and a positive width and height")
        value = "" if name is None else str(name).strip()
        if not value:
            return Markup("")
        card = self.card
        if field is None and card is not None:  # the column it came from, if it did
            field = next((c for c in ("art", "picture", "image", *(k for k, _ in card.extra))
                          if str(card.get(c) or "").strip() == value), None)
        file, row, column, who = self._locate(value, field or "")
        try:
            located = self.found.get(value)
            if located is None:  # a name is resolved once per build of the game (many cards share a picture)
                try:
                    located = self.found[value] = pictures.resolve(self.manifest.data_folder, value)
                except pictures.PictureError as exc:
                    located = self.found[value] = exc
            if isinstance(located, pictures.PictureError):
                raise located
            rel, path = located
            picture = pictures.inspect(rel, path)
        except pictures.PictureError as exc:
            self.problems.error(file, row, column, f"{who}: {exc}" if row is None else str(exc))
            return Markup("")
        self.pictures[picture.rel] = picture.digest
        if picture.kind != "svg":
            _, _, dw, dh = pictures.placement(fit, anchor, (x, y, w, h), (picture.width, picture.height))
            dpi = min(picture.width / (dw / 25.4), picture.height / (dh / 25.4))
            if dpi < pictures.MIN_DPI - 0.5:
                need = (round(dw / 25.4 * pictures.MIN_DPI), round(dh / 25.4 * pictures.MIN_DPI))
                self.problems.warn(file, row, column,
                                   f"{who}: {picture.rel} prints at {dpi:.0f} dpi ({picture.width:g} x "
                                   f"{picture.height:g} px over {dw:.1f} x {dh:.1f} mm); {pictures.MIN_DPI} dpi "
                                   f"prints sharp: use one of at least {need[0]} x {need[1]} px")
        return Markup(pictures.image_svg(picture, x, y, w, h, fit, anchor))

    def icon(self, name, cx, cy, size, fill="#000000", stroke="#ffffff"):
        try:
            return Markup(_icon(name, cx, cy, size, fill, stroke))
        except TypeError:  # an argument that cannot be a cache key
            from . import icons

            return Markup(icons.icon(name, cx, cy, size, fill, stroke))

    def rich(self, value):
        """A cell's text with its markup as reference sheets set it: ``<b>``, ``<i>``,
        ``<font color>`` and ``<br/>`` (an icon is named in words: a paragraph holds no drawing)."""
        from xml.sax.saxutils import escape

        from .text import parse

        value = "" if value is None else str(value)
        parsed = parse(value, self._colour, lambda name: _Named(name) if self._icon_known(name) else None)
        lines = []
        for para in parsed.paragraphs:
            words = []
            for word in para:
                out = []
                for run in word:
                    text = escape(run.icon.name.replace("-", " ") if run.icon is not None else run.text)
                    st = run.style
                    if st.bold:
                        text = f"<b>{text}</b>"
                    if st.italic:
                        text = f"<i>{text}</i>"
                    if st.color:
                        text = f'<font color="{escape(st.color)}">{text}</font>'
                    out.append(text)
                words.append("".join(out))
            lines.append(" ".join(words))
        return Markup("<br/>".join(lines))

    def _icon_known(self, name: str) -> bool:
        from . import icon_sets

        try:
            return not isinstance(self._found_icon(name), Exception)
        except icon_sets.BadIcon:
            return False

    def pal(self, color):
        """The palette entry of a colour, or a neutral grey entry for no colour."""
        neutral = {"fill": "#6c757d", "light": "#e9ecef", "dark": "#343a40", "mark": "", "letter": ""}
        return {**neutral, **self.manifest.palette.get(color or "", {})}

    def describe(self, language, term):
        """Label, icon and help of a term of one of the game's languages, arguments filled in."""
        spec = self.manifest.languages[language].words[term.word]
        args = [str(a) for a in term.args]
        return {
            "word": term.word,
            "count": term.count,
            "label": (spec.label or term.word).format(*args),
            "icon": spec.icon,
            "help": spec.help.format(*args),
        }


@dataclass(frozen=True)
class _Named:
    """An icon known by its name only (``Kit.rich``)."""

    name: str


def _pt(points: float) -> str:
    return f"{points:.2f}".rstrip("0").rstrip(".")


def _all_italic(parsed):
    """A parsed text with every run italic (``text(..., italic=True)``)."""
    from dataclasses import replace as _replace

    parsed.paragraphs = [[tuple(_replace(run, style=_replace(run.style, italic=True)) for run in word)
                          for word in para] for para in parsed.paragraphs]
    return parsed


@lru_cache(maxsize=4096)
def _icon(name, cx, cy, size, fill, stroke) -> str:
    from . import icons  # svgwrite is imported only when an icon is drawn

    return icons.icon(name, cx, cy, size, fill, stroke)


def context(manifest: Manifest, deck: Deck | None, card: Card | None, kit: Kit, **more) -> dict:
    ctx = {
        "game": manifest,
        "palette": manifest.palette,
        "card": card,
        "deck": deck,
        **sandbox.helpers(kit),  # text, icon, picture, pal, describe, rich, nets: their arguments checked
    }
    if deck is not None:
        s = deck.size
        ctx.update(size=s, W=s.full_width, H=s.full_height, B=s.bleed, TW=s.width, TH=s.height,
                   CX=s.full_width / 2, CY=s.full_height / 2)
    ctx.update(more)
    return ctx


class Renderer:
    """Renders the designs of one game, collecting problems instead of raising."""

    def _where(self, exc: BaseException, template: str) -> tuple[str, int | None]:
        """The template file and line an error was raised at (Jinja2 puts the
        templates' own lines into the traceback), else the template rendered."""
        import traceback

        folders = [(self.manifest.folder.resolve(), f"templates/{self.manifest.slug}/"),
                   (BUILTIN_TEMPLATES.resolve(), "generator/templates/")]
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if not frame.filename.endswith(".j2"):
                continue
            path = Path(frame.filename).resolve()
            for folder, label in folders:
                if folder in path.parents:
                    return label + path.relative_to(folder).as_posix(), frame.lineno
        return f"templates/{self.manifest.slug}/{template}", None

    def __init__(self, manifest: Manifest, problems: Problems, store: DrawingStore = NO_CACHE,
                 fingerprint: str | None = None):
        self.manifest = manifest
        self.problems = problems
        self.env = shared_env(manifest, store, fingerprint)
        self.notes: list[str] = []  # text shrunk to fit, in the order rendered
        self.pictures: dict[str, str] = {}  # pictures used since the last ``take_pictures``: name -> digest
        from .icon_sets import game_icons

        self.icons: dict = {"\0own": game_icons(manifest.folder)}  # icons found so far, for every design
        self.found: dict = {}  # picture names resolved so far, for every design
        self.lines: dict = {}  # (template, text) -> (template, line) where the text is written, for mistakes
        self.fonts = use_fonts(manifest)

    def take_pictures(self) -> tuple:
        """The pictures used since the last call: ((name, digest), ...), sorted."""
        found = tuple(sorted(self.pictures.items()))
        self.pictures = {}
        return found

    def svg(self, template: str, deck: Deck | None, card: Card | None, side: str = "front", **more) -> str | None:
        kit = Kit(self.manifest, card, self.problems, side, self.notes, template, self.pictures, icons=self.icons,
                  found=self.found)
        try:
            svg = self.env.get_template(template).render(context(self.manifest, deck, card, kit, **more))
            return self._finish(svg, template, card)
        except jinja2.TemplateSyntaxError as exc:
            # the error may sit in a template this one imports or extends
            where = f"templates/{self.manifest.slug}/{exc.name or template}"
            self.problems.error(where, exc.lineno, None, f"template syntax error: {exc.message}")
        except jinja2.UndefinedError as exc:
            who = f" (card '{card.id}')" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{exc.message}{who}")
        except jinja2.TemplateNotFound as exc:
            self.problems.error(*self._where(exc, template), None, f"template '{exc.name}' not found")
        except sandbox.ERRORS as exc:  # past a bound, or reaching for what templates may not touch
            who = f" (card '{card.id}')" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{sandbox.problem_text(exc)}{who}")
        except jinja2.TemplateError as exc:
            self.problems.error(*self._where(exc, template), None, f"template error: {exc}")
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, ArithmeticError) as exc:
            who = f" (card '{card.id}', {card.where})" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{exc}{who}")
        return None

    def _finish(self, svg: str, template: str, card: Card | None) -> str | None:
        """Check what only the finished SVG shows (an ``<image>`` written by hand, an
        unknown font family, a number no PDF can hold) and mark the game's own fonts in it."""
        for m in _RAW_IMAGE.finditer(svg):
            if "data-pnp-picture=" not in m.group(0):
                href = _HREF.search(m.group(0))
                shown = href.group(1)[:50] if href else ""
                self._mistake(template, "<image", f"<image href=\"{shown}\">: place pictures with picture(name, x, "
                              "y, w, h) (docs/format.md, Pictures); it finds the file in the data folder, fits, clips "
                              "and checks it", card)
                return None
        known = self.manifest.families
        for family in dict.fromkeys(_FAMILY.findall(svg)):
            if family not in known:
                self._mistake(template, f'font-family="{family}"', f"font-family \"{family}\" is not a family of "
                              f"this game; families: {', '.join(known)}", card)
                return None
        wrong = sandbox.svg_number_problem(svg)
        if wrong:
            self._mistake(template, None, f"in the SVG it gave, {wrong}", card)
            return None
        if self.fonts:
            svg = _ROOT.sub(lambda m: f'{m.group(0)} data-pnp-fonts="{self.fonts}"', svg, count=1)
        return svg

    def _mistake(self, template: str, needle: str | None, message: str, card: Card | None) -> None:
        """A mistake the finished SVG shows: at the template line that writes ``needle`` when
        one line does, naming the card (so the designs it meets are one line)."""
        key = (template, needle)
        if key not in self.lines:
            self.lines[key] = sandbox.written_at(self.manifest.folder, template, needle) if needle else None
        file, line = self.lines[key] or (template, None)
        who = f" (card '{card.id}')" if card is not None else ""
        self.problems.error(f"templates/{self.manifest.slug}/{file}", line, None, message + who)


_RAW_IMAGE = re.compile(r"<image\b[^>]*>")
_HREF = re.compile(r'href\s*=\s*["\']([^"\']*)')
_FAMILY = re.compile(r'font-family\s*=\s*"([^"]*)"')
_ROOT = re.compile(r"<svg(?=[\s>])")


def use_fonts(manifest: Manifest) -> str:
    """Make the game's own families known (``fonts.use_game_fonts``); a digest of their
    faces, '' for a game without its own fonts (a face's name holds its file's digest:
    another file under the same name is another digest)."""
    if not manifest.fonts:
        return ""
    import hashlib

    from .fonts import FAMILIES, GameFamily, use_game_fonts

    use_game_fonts([GameFamily(name, files) for name, files in manifest.fonts.items()])
    faces = repr(tuple((name, FAMILIES[name]) for name in sorted(manifest.fonts)))
    return hashlib.blake2b(faces.encode(), digest_size=8).hexdigest()


@dataclass
class DrawingCache:
    """SVG text -> what to draw it with, by design key: a display list when it
    can be one (``displaylist.py``; most SVG is read straight into one by
    ``svgfast``), else a reportlab Drawing.  Each distinct SVG is read once per
    build, and not at all when the store (kept across builds) has its display
    list."""

    drawings: dict[str, object] = field(default_factory=dict)  # key -> Drawing (None: unreadable)
    lists: dict[str, object] = field(default_factory=dict)  # key -> DisplayList, kept in memory
    store: DrawingStore = NO_CACHE
    parsed: int = 0

    key = staticmethod(design_key)

    def get(self, svg: str, where: str, problems: Problems):
        """(key, drawing) of an SVG, a reportlab Drawing read by svglib; None when the SVG could not be read."""
        key = design_key(svg)
        if key not in self.drawings:
            drawing = self.store.get(key)
            if drawing is None:
                drawing = svg_to_drawing(svg, where, problems)
                self.parsed += 1
                if drawing is not None:
                    self.store.put(key, drawing)
            self.drawings[key] = drawing
        return key, self.drawings[key]

    def _read(self, key: str, svg: str, where: str, problems: Problems, keep: bool):
        """Read an SVG: its display list (kept in the store, and in memory with ``keep``), or its drawing."""
        found, drawing = svg_to_display_list(svg, where, problems)
        self.parsed += 1
        if found is None:
            self.drawings[key] = drawing
            return None
        if is_render_cache(self.store):
            self.store.put_list(key, found)
        if keep or not is_render_cache(self.store):
            self.lists[key] = found
        if drawing is not None:  # the list needs the canvas font it was recorded with
            self.drawings[key] = drawing
        return found

    def prepare(self, svg: str, where: str, problems: Problems, keep: bool = True) -> str:
        """Make sure the SVG can be drawn: read it unless its display list is at
        hand (in memory or in a ``RenderCache`` store).  Returns the key; read
        errors go to ``problems``.  ``keep=False`` leaves a display list the store
        keeps out of memory."""
        key = design_key(svg)
        if key in self.lists or key in self.drawings:
            return key
        if is_render_cache(self.store) and self.store.has_list(key):
            return key
        self._read(key, svg, where, problems, keep)
        return key

    def picture(self, svg: str, where: str, problems: Problems):
        """(key, what to draw) of an SVG: its display list when there is one that
        does not depend on the canvas's font, else its drawing (None when the SVG
        could not be read).  A display list that is missing or damaged is made
        again and kept."""
        key = design_key(svg)
        found = self.lists.get(key)
        if found is None and key not in self.drawings:
            if is_render_cache(self.store):
                found = self.store.get_list(key)
            if found is None:
                found = self._read(key, svg, where, problems, True)
        if found is not None and found.font_state is None:
            return key, found
        return self.get(svg, where, problems)


def record_display_list(drawing):
    from .displaylist import record

    return record(drawing, *RECORD_FONT)


def svg_to_display_list(svg: str, where: str, problems: Problems):
    """(display list, drawing) of an SVG text.  The SVG the templates write is
    read straight into a display list by ``svgfast`` (drawing None); anything
    else is read by svglib and its drawing recorded (the drawing is returned
    too when the list depends on the canvas font, or when there is no list).
    (None, None), with a problem, when it cannot be read."""
    ensure_for_svg(svg)
    from .svgfast import to_display_list

    found = to_display_list(svg)
    drawing = None
    if found is None:
        drawing = svg_to_drawing(svg, where, problems)
        if drawing is None:
            return None, None
        found = record_display_list(drawing)
    wrong = sandbox.display_list_problem(found) if found is not None and found.program is None else None
    if wrong:  # a number its drawing comes to that no PDF holds (the program would not compile)
        _read_problem(problems, where, f"the SVG cannot be drawn: {wrong}")
        return None, None
    return found, (drawing if drawing is not None and (found is None or found.font_state is not None) else None)


def svg_to_drawing(svg: str, where: str, problems: Problems):
    """The reportlab Drawing svglib reads from an SVG text (None, with a problem, when it cannot be read)."""
    ensure_for_svglib(svg)
    graphics_default_font()
    from lxml import etree
    from svglib.svglib import svg2rlg

    try:
        drawing = _svg2rlg(io.BytesIO(svg.encode("utf-8"))) if "data-pnp-picture" in svg else \
            svg2rlg(io.BytesIO(svg.encode("utf-8")))
    except etree.XMLSyntaxError as exc:
        _read_problem(problems, where, f"the template gave invalid SVG: {exc}")
        return None
    except Exception as exc:  # noqa: BLE001 - svglib on SVG a designer wrote: what it cannot read is their mistake
        _read_problem(problems, where, f"the template gave SVG that cannot be drawn: {exc}")
        return None
    if drawing is None:
        _read_problem(problems, where, "the template gave SVG that could not be read")
    return drawing


def _read_problem(problems: Problems, where: str, message: str) -> None:
    """A problem reading a design's SVG, at its template (``where``: "templates/GAME/FILE (ID)"),
    naming the card, so that the designs a template mistake meets are one line."""
    file, _, design = where.partition(" (")
    problems.error(file, None, None, f"{message} (card '{design[:-1]}')" if design.endswith(")") else message)


def _svg2rlg(source):
    """svglib's ``svg2rlg``, with the pictures a design places (``pictures.image_svg``)
    read into nodes that draw them by their own calls (``pictures.calls``), the
    calls ``svgfast`` writes for them."""
    from reportlab.graphics.shapes import Image
    from svglib.svglib import SvgRenderer, load_svg_file

    from .pictures import calls
    from .svgfast import _length

    root = load_svg_file(source, resolve_entities=False)
    if root is None:
        return None
    renderer = SvgRenderer(source)
    href_target = renderer.xlink_href_target

    def target(node, group=None):
        if node.attrib.get("data-pnp-picture"):
            return "pnp-picture"  # drawn by its own calls, never read by svglib
        return href_target(node, group)

    def convert_image(node):
        get = node.attrib.get
        x, y, w, h = (_length(get(a, "")) for a in ("x", "y", "width", "height"))
        image = Image(x, y, w, h, None)
        image.pnp_calls = calls(get("data-pnp-picture"), x, y, w, h, get("preserveAspectRatio", ""))
        return image

    renderer.xlink_href_target = target
    renderer.shape_converter.convertImage = convert_image
    return renderer.render(root)
