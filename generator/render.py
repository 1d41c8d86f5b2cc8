"""Templates to drawings: Jinja2 template -> SVG string -> reportlab Drawing.

The tools of the render stage (``designs.py`` runs it for a whole game).
Templates live in ``templates/<game>/``; the generator's own base templates are
reachable as ``pnp/...``.  Values are XML-escaped by Jinja's autoescaping; the
helpers below return markup that is already safe.  Identical SVG (e.g. a shared
card back) is parsed once per build, and not at all when a drawing store
already holds it.  A ``RenderCache`` store may also keep compiled templates
and display lists (``displaylist.py``), which the PDF writers replay.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from model.errors import Problems
from model.manifest import Deck, Manifest
from model.sheets import Card

from . import nets
from .cache import NO_CACHE, DrawingStore, is_render_cache
from .fonts import DEFAULT_FONT, ensure_for_svg, face
from .keys import BUILTIN_TEMPLATES, design_key
from .text import fit, svg_lines

#: The font state of a new page or form in the PDF writers, which display lists are recorded against.
RECORD_FONT = (DEFAULT_FONT, 6.0)


class TemplateProblem(Exception):
    pass


def make_env(folder: Path, bytecode_cache=None) -> jinja2.Environment:
    loader = jinja2.FileSystemLoader([str(folder), str(BUILTIN_TEMPLATES)])
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                             bytecode_cache=bytecode_cache, auto_reload=False)
    env.filters["fmt"] = lambda v, digits=2: f"{v:.{digits}f}"
    return env


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
        "nets": nets,
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

    def __init__(self, manifest: Manifest, problems: Problems, store: DrawingStore = NO_CACHE):
        self.manifest = manifest
        self.problems = problems
        bytecode = store.bytecode_cache() if hasattr(store, "bytecode_cache") else None
        self.env = make_env(manifest.folder, bytecode)
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
            who = f" rendering '{card.id}'" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{exc.message}{who}")
        except jinja2.TemplateNotFound as exc:
            self.problems.error(*self._where(exc, template), None, f"template '{exc.name}' not found")
        except jinja2.TemplateError as exc:
            self.problems.error(*self._where(exc, template), None, f"template error: {exc}")
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, ZeroDivisionError) as exc:
            who = f" rendering '{card.id}' ({card.where})" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{exc}{who}")
        return None


@dataclass
class DrawingCache:
    """SVG text -> reportlab Drawing, by design key: parsed once per distinct SVG
    in a build, and only when ``store`` (kept across builds) does not have it."""

    drawings: dict[str, object] = field(default_factory=dict)
    store: DrawingStore = NO_CACHE
    parsed: int = 0

    key = staticmethod(design_key)

    def get(self, svg: str, where: str, problems: Problems):
        """(key, drawing) of an SVG; the drawing is None when the SVG could not be read."""
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

    def prepare(self, svg: str, where: str, problems: Problems, keep: bool = True) -> str:
        """Make sure the SVG can be drawn: with a ``RenderCache`` store, that its
        display list is kept (parsing and recording it if not); otherwise that its
        drawing is in ``drawings``.  Returns the key; parse errors go to ``problems``.
        ``keep=False`` does not keep the parsed drawing in memory when the store
        has its display list."""
        key = design_key(svg)
        if not is_render_cache(self.store):
            self.get(svg, where, problems)
            return key
        if key in self.drawings or self.store.has_list(key):
            return key
        drawing = svg_to_drawing(svg, where, problems)
        self.parsed += 1
        if drawing is None:
            self.drawings[key] = None
            return key
        recorded = record_display_list(drawing)
        if recorded is not None:
            self.store.put_list(key, recorded)
        if keep or recorded is None:
            self.drawings[key] = drawing
        return key

    def picture(self, svg: str, where: str, problems: Problems):
        """(key, what to draw) of an SVG: its kept display list when there is one
        that does not depend on the canvas's font, else its drawing (None when the
        SVG could not be read).  A display list that is missing or damaged is
        made again and kept."""
        key = design_key(svg)
        if is_render_cache(self.store) and key not in self.drawings:
            found = self.store.get_list(key)
            if found is None:
                drawing = svg_to_drawing(svg, where, problems)
                self.parsed += 1
                if drawing is None:
                    self.drawings[key] = None
                    return key, None
                found = record_display_list(drawing)
                if found is not None:
                    self.store.put_list(key, found)
                if found is None or found.font_state is not None:
                    self.drawings[key] = drawing
                    return key, drawing
            if found.font_state is None:
                return key, found
        return self.get(svg, where, problems)


def record_display_list(drawing):
    from .displaylist import record

    return record(drawing, *RECORD_FONT)


def svg_to_drawing(svg: str, where: str, problems: Problems):
    ensure_for_svg(svg)
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
