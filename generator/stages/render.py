"""Templates to pictures: Jinja2 template -> SVG string -> display list (or reportlab Drawing).

The tools of the render stage (``designs.py`` runs it for a whole game).
Templates live in ``templates/<game>/``; the generator's own base templates are
reachable as ``pnp/...``.  Values are XML-escaped by Jinja's autoescaping; the
helpers a template calls (``kit.py``) return markup that is already safe.  A game's template
environment (its compiled templates) is kept in the process while the game's
files stay the same (``shared_env``).  An SVG becomes a display list
(``draw/displaylist.py``; ``draw/svgread.py``), read by ``svgfast`` when it can and by svglib when not;
identical SVG (e.g. a shared card back) is read once per build, and not at all
when the store already holds its display list.  A ``RenderCache`` store keeps
compiled templates and display lists, which the PDF writers replay.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from model.errors import Problems
from model.manifest import Deck, Manifest
from model.sheets import Card

from ..draw import svgread
from .cache import NO_CACHE, DrawingStore, is_render_cache
from .keys import BUILTIN_TEMPLATES, design_key
from ..art.limits import svg_number_problem
from .guards import ERRORS, FolderLoader, problem_text, written_at
from .kit import Kit, context
from .sandbox import OWNER_NAMES, Sandbox


#: How an undefined name's owner is called in messages, by type name.
_OWNERS = {**OWNER_NAMES, "Term": "term"}


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
    env = Sandbox(loader=FolderLoader([folder, BUILTIN_TEMPLATES]), autoescape=True, undefined=Undefined,
                  trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                  bytecode_cache=bytecode_cache, auto_reload=False, optimized=False)
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
        from ..art.icon_sets import game_icons

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
        except ERRORS as exc:  # past a bound, or reaching for what templates may not touch
            who = f" (card '{card.id}')" if card else ""
            self.problems.error(*self._where(exc, template), None, f"{problem_text(exc)}{who}")
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
        wrong = svg_number_problem(svg, quick=True)
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
            self.lines[key] = written_at(self.manifest.folder, template, needle) if needle else None
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

    from ..art.fonts import FAMILIES, GameFamily, use_game_fonts

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
                drawing = svgread.svg_to_drawing(svg, where, problems)
                self.parsed += 1
                if drawing is not None:
                    self.store.put(key, drawing)
            self.drawings[key] = drawing
        return key, self.drawings[key]

    def _read(self, key: str, svg: str, where: str, problems: Problems, keep: bool):
        """Read an SVG: its display list (kept in the store, and in memory with ``keep``), or its drawing."""
        found, drawing = svgread.svg_to_display_list(svg, where, problems)
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

