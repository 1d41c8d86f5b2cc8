"""What a template calls: ``text`` (fitted, with markup and icons), ``picture``, ``icon``,
``rich``, ``pal``, ``describe`` and ``nets``, one ``Kit`` per rendered design (it knows the
card and collects the problems), and ``context``, the names a template sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from markupsafe import Markup

from model.errors import Problems
from model.manifest import Deck, Manifest
from model.sheets import Card

from ..art.fonts import FAMILIES
from ..draw.text import fit, svg_lines


class TemplateProblem(ValueError):
    pass


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
        who = ", ".join(w for w in (f"'{card.id}' ({self.side})" if card is not None else "", field) if w)
        return where, None, None, who

    def _warn(self, where: tuple, message: str) -> None:
        """A warning at ``where`` (``_locate``'s): at a cell, naming the card first; at a template's line, met
        for each card, with the card last, ``(card 'ID', side)``, so that the build says it once for all the
        cards it met (``build.fold_repeats``)."""
        file, row, column, who = where
        if row is None and self.card is not None:
            self.problems.warn(file, row, column, f"{message} (card '{self.card.id}', {self.side})")
        else:
            self.problems.warn(file, row, column, f"{who}: {message}")

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
            from ..art import icon_sets

            try:
                found = icon_sets.find(name, self.manifest.folder, self.icons.get("\0own"))
            except icon_sets.UnknownIcon as exc:
                found = exc
            self.icons[name] = found
        return found

    def _icon(self, name: str, where: tuple):
        from ..art import icon_sets

        try:
            found = self._found_icon(name)
        except icon_sets.BadIcon as exc:
            raise TemplateProblem(f"icon ':{name}:': {exc.where} {exc.message}") from None
        if isinstance(found, Exception):
            close = f"; close matches: {', '.join(':' + c + ':' for c in found.close)}" if found.close else ""
            self._warn(where, f"unknown icon ':{name}:', printed as typed{close} "
                       f"(icons: templates/{self.manifest.slug}/icons/NAME.svg and the built-in set)")
            return None
        return found

    def text(self, value, x, y, w, h, size=3.5, min_size=None, bold=False, anchor="middle", valign="top",
             fill="#000000", field="text", family=None, line_height=1.2, opacity=None, italic=False, markup=True):
        from ..draw.text import missing_glyphs, parse, prepare

        family = family or self.manifest.font
        if family not in FAMILIES or family not in self.manifest.families:
            raise TemplateProblem(f"unknown font family '{family}'; families: {', '.join(self.manifest.families)}")
        value = "" if value is None else str(value)
        if not value:
            return Markup("")
        min_size = min_size if min_size is not None else size * 0.6
        where = self._locate(value, field)
        parsed = parse(value, self._colour, lambda name: self._icon(name, where), markup=markup)
        for message in parsed.warnings:
            self._warn(where, message)
        if italic:
            parsed = _all_italic(parsed)
        prepared = prepare(parsed, family, bold)
        for message in missing_glyphs(prepared.missing):
            self._warn(where, message)
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
            self._warn(where, f"text {how}, below the game's {floor:g} pt floor (text_floor in game.toml); give it a "
                       "larger box or fewer words")
        extra = f' fill-opacity="{opacity}"' if opacity is not None else ""
        return Markup(svg_lines(fitted, x, y, w, h, anchor=anchor, valign=valign,
                                fill=fill, line_height=line_height, extra=extra))

    def picture(self, name, x, y, w, h, fit="cover", anchor="center", field=None):
        """A picture file (PNG, JPEG or SVG) in the box (x, y, w, h): ``fit`` cover (fill
        the box, cropping), contain (all of it inside the box) or stretch; ``anchor``
        the part that stays in view (center, top, bottom, left, right, top-left ...).
        ``name`` is relative to the data folder; nothing is drawn for an empty name."""
        from ..art import pictures, placement

        if fit not in placement.FITS:
            raise TemplateProblem(f"picture fit '{fit}' is not one of {', '.join(placement.FITS)}")
        if anchor not in placement.ANCHORS:
            raise TemplateProblem(f"picture anchor '{anchor}' is not one of {', '.join(placement.ANCHORS)}")
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
            if picture.kind == "svg":  # read now, once per build: what its reader cannot take is said here
                from ..draw.svgpicture import drawn

                drawn(picture.rel, picture.digest, path)
        except pictures.PictureError as exc:
            if row is None:  # a name the template wrote: its mistake, at its line, once for every card it spoils
                raise TemplateProblem(str(exc)) from None
            self.problems.error(file, row, column, str(exc))
            return Markup("")
        self.pictures[picture.rel] = picture.digest
        if picture.kind != "svg":
            _, _, dw, dh = placement.placement(fit, anchor, (x, y, w, h), (picture.width, picture.height))
            dpi = min(picture.width / (dw / 25.4), picture.height / (dh / 25.4))
            if dpi < pictures.MIN_DPI - 0.5:
                need = (round(dw / 25.4 * pictures.MIN_DPI), round(dh / 25.4 * pictures.MIN_DPI))
                self._warn((file, row, column, who),
                           f"{picture.rel} prints at {dpi:.0f} dpi ({picture.width:g} x {picture.height:g} px over "
                           f"{dw:.1f} x {dh:.1f} mm); {pictures.MIN_DPI} dpi prints sharp: use one of at least "
                           f"{need[0]} x {need[1]} px")
        return Markup(placement.image_svg(picture, x, y, w, h, fit, anchor))

    def icon(self, name, cx, cy, size, fill="#000000", stroke="#ffffff"):
        try:
            return Markup(_icon(name, cx, cy, size, fill, stroke))
        except TypeError:  # an argument that cannot be a cache key
            from ..art import icons

            return Markup(icons.icon(name, cx, cy, size, fill, stroke))

    def rich(self, value):
        """A cell's text with its markup as reference sheets set it: ``<b>``, ``<i>``,
        ``<font color>`` and ``<br/>`` (an icon is named in words: a paragraph holds no drawing)."""
        from xml.sax.saxutils import escape

        from ..draw.text import parse

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
        from ..art import icon_sets

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
    from ..art import icons  # svgwrite is imported only when an icon is drawn

    return icons.icon(name, cx, cy, size, fill, stroke)


def context(manifest: Manifest, deck: Deck | None, card: Card | None, kit: Kit, **more) -> dict:
    from .guards import helpers

    ctx = {
        "game": manifest,
        "palette": manifest.palette,
        "card": card,
        "deck": deck,
        **helpers(kit),  # text, icon, picture, pal, describe, rich, nets: their arguments checked
    }
    if deck is not None:
        s = deck.size
        ctx.update(size=s, W=s.full_width, H=s.full_height, B=s.bleed, TW=s.width, TH=s.height,
                   CX=s.full_width / 2, CY=s.full_height / 2)
    ctx.update(more)
    return ctx
