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
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from model.errors import Problems
from model.manifest import Deck, Manifest
from model.sheets import Card

from .cache import NO_CACHE, DrawingStore, is_render_cache
from .fonts import DEFAULT_FONT, ensure_for_svg, ensure_for_svglib, face, graphics_default_font
from .keys import BUILTIN_TEMPLATES, design_key
from .text import fit, svg_lines

#: The font state of a new page or form in the PDF writers, which display lists are recorded against.
RECORD_FONT = (DEFAULT_FONT, 6.0)


class TemplateProblem(Exception):
    pass


#: How an undefined name's owner is called in messages, by type name.
_OWNERS = {"Card": "card", "Manifest": "game", "Deck": "deck", "Size": "size", "Term": "term"}


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
        return what + (f"; did you mean '{close[0]}'?" if close else "")


def make_env(folder: Path, bytecode_cache=None) -> jinja2.Environment:
    loader = jinja2.FileSystemLoader([str(folder), str(BUILTIN_TEMPLATES)])
    # optimized=False: Jinja2's constant folding changes no output and costs a sixth of compiling
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=Undefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                             bytecode_cache=bytecode_cache, auto_reload=False, optimized=False)
    env.filters["fmt"] = lambda v, digits=2: f"{v:.{digits}f}"
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


@dataclass
class Kit:
    """The helpers a template calls; one per rendered design (it knows the card)."""

    manifest: Manifest
    card: Card | None
    problems: Problems
    side: str = "front"
    notes: list[str] = field(default_factory=list)  # text shrunk to fit, for the preview

    def text(self, value, x, y, w, h, size=3.5, min_size=None, bold=False, anchor="middle", valign="top",
             fill="#000000", field="text", family=None, line_height=1.2, opacity=None):
        family = family or self.manifest.font
        value = "" if value is None else str(value)
        if not value:
            return Markup("")
        min_size = min_size if min_size is not None else size * 0.6
        fitted = fit(value, w, h, size, min_size, face(family, bold), line_height)
        if fitted.overflow and self.card is not None:
            self.problems.warn(self.card.sheet, self.card.row, field,
                               f"'{self.card.id}' ({self.side}): {field} does not fit its box even at {min_size:g} mm "
                               f"(needs {fitted.needed:.1f} mm of {h:g} mm); it is cut short, shorten it")
        elif fitted.size < size - 1e-9 and self.card is not None:
            self.notes.append(f"{self.side}: {field} shrunk from {size:g} to {fitted.size:g} mm to fit")
        extra = f' fill-opacity="{opacity}"' if opacity is not None else ""
        return Markup(svg_lines(fitted, x, y, w, h, family=family, bold=bold, anchor=anchor, valign=valign,
                                fill=fill, line_height=line_height, extra=extra))

    def icon(self, name, cx, cy, size, fill="#000000", stroke="#ffffff"):
        try:
            return Markup(_icon(name, cx, cy, size, fill, stroke))
        except TypeError:  # an argument that cannot be a cache key
            from . import icons

            return Markup(icons.icon(name, cx, cy, size, fill, stroke))

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


class _Nets:
    """``generator.nets`` for the templates, imported the first time a template uses it."""

    def __getattr__(self, name):
        from . import nets

        return getattr(nets, name)


_NETS = _Nets()


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
        "text": kit.text,
        "icon": kit.icon,
        "pal": kit.pal,
        "describe": kit.describe,
        "nets": _NETS,
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

    def svg(self, template: str, deck: Deck | None, card: Card | None, side: str = "front", **more) -> str | None:
        kit = Kit(self.manifest, card, self.problems, side, self.notes)
        where = f"templates/{self.manifest.slug}/{template}"
        try:
            return self.env.get_template(template).render(context(self.manifest, deck, card, kit, **more))
        except jinja2.TemplateSyntaxError as exc:
            # the error may sit in a template this one imports or extends
            where = f"templates/{self.manifest.slug}/{exc.name or template}"
            self.problems.error(where, exc.lineno, None, f"template syntax error: {exc.message}")
        except jinja2.UndefinedError as exc:
            who = f" (card '{card.id}')" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{exc.message}{who}")
        except jinja2.TemplateNotFound as exc:
            self.problems.error(*self._where(exc, template), None, f"template '{exc.name}' not found")
        except jinja2.TemplateError as exc:
            self.problems.error(*self._where(exc, template), None, f"template error: {exc}")
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, ZeroDivisionError) as exc:
            who = f" (card '{card.id}', {card.where})" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{exc}{who}")
        return None


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
    if found is not None:
        return found, None
    drawing = svg_to_drawing(svg, where, problems)
    if drawing is None:
        return None, None
    found = record_display_list(drawing)
    return found, (drawing if found is None or found.font_state is not None else None)


def svg_to_drawing(svg: str, where: str, problems: Problems):
    """The reportlab Drawing svglib reads from an SVG text (None, with a problem, when it cannot be read)."""
    ensure_for_svglib(svg)
    graphics_default_font()
    from lxml import etree
    from svglib.svglib import svg2rlg

    try:
        drawing = svg2rlg(io.BytesIO(svg.encode("utf-8")))
    except etree.XMLSyntaxError as exc:
        problems.error(where, None, None, f"the template gave invalid SVG: {exc}")
        return None
    if drawing is None:
        problems.error(where, None, None, "the template gave SVG that could not be read")
    return drawing
