"""What the targets that write a picture per card share: file names, a design's sides and
``manifest.csv``, the list an upload is checked against (``png``, ``tts``, ``shop``; ``pdfx``
lists its pages in one too)."""

from __future__ import annotations

import csv
import io
import re

from model import csvsafe

from ..stages.designs import RenderedDesign


def safe_name(text: str) -> str:
    """A file-name part: letters, digits, '-', '_' and '.'; anything else becomes '-'."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"


def picture_name(slug: str, design: RenderedDesign, side: str, ext: str = "png") -> str:
    return f"{safe_name(slug)}-{safe_name(design.deck)}-{safe_name(design.card.id)}-{side}.{ext}"


def sides(design: RenderedDesign) -> list[tuple[str, str]]:
    """(side, drawing key) of each side the design has."""
    out = [("front", design.front_key)]
    if design.back_key is not None:
        out.append(("back", design.back_key))
    return out


#: The columns of a picture export's ``manifest.csv``.
PICTURE_FIELDS = ("file", "component", "copies", "deck", "id", "side", "width_px", "height_px")


def manifest_csv(rows: list[dict], fields: tuple[str, ...] = PICTURE_FIELDS) -> bytes:
    """``manifest.csv``: one row per picture (or page), with the columns ``fields``, to check an upload against."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: csvsafe.cell(v) for k, v in r.items()} for r in rows)  # (a card named "=cmd|...")
    return buffer.getvalue().encode("utf-8")
