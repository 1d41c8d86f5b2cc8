"""Templates to drawings: Jinja2 template -> SVG string -> reportlab Drawing.

The tools of the render stage (``designs.py`` runs it for a whole game).
Templates live in ``templates/<game>/``; the generator's own base templates are
reachable as ``pnp/...``.  Values are XML-escaped by Jinja's autoescaping; the
helpers below return markup that is already safe.  Identical SVG (e.g. a shared
card back) is parsed once per build, and not at all when a drawing store
already holds it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup

from model.errors import Problems
from model.manifest import Deck, Manifest
from model.sheets import Card

from . import icons, nets
from .cache import NO_CACHE, DrawingStore
from .fonts import face, register_fonts
from .keys import BUILTIN_TEMPLATES, design_key
from .text import fit, svg_lines


class TemplateProblem(Exception):
    pass


def make_env(folder: Path) -> jinja2.Environment:
    loader = jinja2.FileSystemLoader([str(folder), str(BUILTIN_TEMPLATES)])
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False)
    env.filters["fmt"] = lambda v, digits=2: f"{v:.{digits}f}"
    return env


@dataclass
class Kit:
    """The helpers a template calls; one per rendered design (it knows the card)."""

    manifest: Manifest
    card: Card | None
    problems: Problems
    side: str = "front"

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
        extra = f' fill-opacity="{opacity}"' if opacity is not None else ""
        return Markup(svg_lines(fitted, x, y, w, h, family=family, bold=bold, anchor=anchor, valign=valign,
                                fill=fill, line_height=line_height, extra=extra))

    def icon(self, name, cx, cy, size, fill="#000000", stroke="#ffffff"):
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

    def __init__(self, manifest: Manifest, problems: Problems):
        self.manifest = manifest
        self.problems = problems
        self.env = make_env(manifest.folder)

    def svg(self, template: str, deck: Deck | None, card: Card | None, side: str = "front", **more) -> str | None:
        kit = Kit(self.manifest, card, self.problems, side)
        where = f"templates/{self.manifest.slug}/{template}"
        try:
            return self.env.get_template(template).render(context(self.manifest, deck, card, kit, **more))
        except jinja2.TemplateSyntaxError as exc:
            # the error may sit in a template this one imports or extends
            where = f"templates/{self.manifest.slug}/{exc.name or template}"
            self.problems.error(where, exc.lineno, None, f"template syntax error: {exc.message}")
        except jinja2.UndefinedError as exc:
            who = f" rendering '{card.id}'" if card else ""
            self.problems.error(where, None, None, f"{exc.message}{who}")
        except jinja2.TemplateNotFound as exc:
            self.problems.error(where, None, None, f"template '{exc.name}' not found")
        except jinja2.TemplateError as exc:
            self.problems.error(where, None, None, f"template error: {exc}")
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            who = f" rendering '{card.id}' ({card.where})" if card else ""
            self.problems.error(where, None, None, f"{exc}{who}")
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


def svg_to_drawing(svg: str, where: str, problems: Problems):
    register_fonts()
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
