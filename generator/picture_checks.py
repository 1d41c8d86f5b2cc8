"""Picture files checked: an SVG read once per build, a damaged PNG or JPEG told in words.

An SVG picture a design places (``pictures.py``) stays vector in the PDF: its
display list becomes a form, drawn once per document.  Reading it is the work of
a large file, so it is done once per build, wherever the file is first met (the
read-ahead helper, a render worker, this process): the file is checked
(``check``: its size, its elements and how deeply they nest, found by
streaming through it, before anything builds its tree; the numbers of its
attributes), read into a display list, and the list kept in this process and
in the build's store under the SVG's design key, where every other process
that draws it finds it.  Whatever its reader cannot take is a ``PictureError``
at the cell (or template) that named the file, never a crash while the PDF is
written.
"""

from __future__ import annotations

import re

from model.errors import Problems

from .pictures import STORE, PictureError
from .sandbox import LIMITS, svg_number_problem, svg_shape

#: digest -> (display list or None, drawing or None) of the SVG pictures read in this process
_READ: dict = {}


def check_bytes(rel: str, size: int) -> None:
    """PictureError for an SVG file larger than ``Limits.picture_bytes``."""
    if size > LIMITS.picture_bytes:
        raise PictureError(f"'{rel}' is {size / 2**20:.1f} MB; an SVG picture may be at most "
                           f"{LIMITS.picture_bytes / 2**20:g} MB (simplify it, or save it as a PNG)")


def check(rel: str, data: bytes) -> None:
    """PictureError when an SVG file is larger, has more elements or nests them more
    deeply than ``sandbox.Limits`` allows, or holds a number no PDF can."""
    check_bytes(rel, len(data))
    shape = svg_shape(data, LIMITS)
    if shape:
        raise PictureError(f"'{rel}' {shape}")
    wrong = svg_number_problem(data.decode("utf-8", errors="replace"))
    if wrong:
        raise PictureError(f"'{rel}': {wrong}")


def check_size(rel: str, width: float, height: float) -> None:
    """PictureError for a viewBox too small or too large to be scaled onto a card."""
    for value in (width, height):
        if not 1e-6 <= value <= LIMITS.number:
            raise PictureError(f"'{rel}': its viewBox is {width:g} x {height:g}; give it a size between 0.000001 "
                               f"and {LIMITS.number:,.0f}")


def drawn(rel: str, digest: str, text: str):
    """(display list or None, drawing or None) of an SVG picture: kept in this process, else
    in the build's store, else read (and kept in both); PictureError when it cannot be read."""
    found = _READ.get(digest)
    if found is not None:
        return found
    from .keys import design_key

    store = STORE[0]
    key = design_key(text)
    kept = store.get_list(key) if store is not None and hasattr(store, "get_list") else None
    if kept is not None and kept.font_state is None:
        found = _READ[digest] = (kept, None)
        return found
    from .render import svg_to_display_list

    problems = Problems()
    display_list, drawing = svg_to_display_list(text, rel, problems)
    if display_list is None and drawing is None:
        why = next((p.message for p in problems.errors), ": it cannot be read")
        raise PictureError(f"'{rel}' cannot be drawn: {why.split(': ', 1)[-1]}")
    if display_list is not None and store is not None and hasattr(store, "put_list"):
        store.put_list(key, display_list)
    found = _READ[digest] = (display_list, drawing)
    return found


#: A PNG file's first bytes; what other files start with, to say what a misnamed file is.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_STARTS = ((b"\xff\xd8\xff", "a JPEG file"), (PNG_SIGNATURE, "a PNG file"), (b"GIF8", "a GIF file"),
           (b"RIFF", "a WebP file"), (b"%PDF", "a PDF file"), (b"<?xml", "an XML or SVG file"),
           (b"<svg", "an SVG file"), (b"BM", "a BMP file"), (b"II*\x00", "a TIFF file"), (b"MM\x00*", "a TIFF file"))


def damage(exc: BaseException, data: bytes, what: str) -> str:
    """Why a PNG or JPEG file (``what``) could not be read, in words: no Python object, no
    bytes written as code, the same words in every process (a problem met twice is said once)."""
    if not data:
        return "is empty (0 bytes); save it again"
    from PIL import UnidentifiedImageError

    if isinstance(exc, UnidentifiedImageError):
        head = data[:16].lstrip()
        found = next((name for start, name in _STARTS if head.startswith(start)), None)
        if found and not found.startswith(f"a {what} "):
            return f"is {found}, not a {what} file; save it as a {what} (or name it by its kind)"
        return f"is not a whole {what} file (its header cannot be read); save it again"
    reason = str(exc) or type(exc).__name__
    reason = re.sub(r"b'([^']*)'", r"\1", reason)  # a chunk named as bytes (b'IDAT'): by its name
    reason = re.sub(r"<[^<>]* at 0x[0-9a-f]+>", "the file", reason)
    return f"is not a whole {what} file ({reason}); save it again"
