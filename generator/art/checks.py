"""Picture files checked before anything reads them, and their damage told in words.

An SVG picture's bounds (``limits.Limits``): its size in bytes, read from the file's
size before it is read (``svg_bytes``); its elements and how deeply they nest, found
by streaming through it, and the numbers of its attributes (``svg_file``); a viewBox
that can be scaled onto a card (``view_box_size``).  Each says what is wrong, in the
designer's words, or None.  ``damage`` says why a PNG or JPEG could not be read: no
Python object, no bytes written as code, the same words in every process (so that a
problem met twice is said once).
"""

from __future__ import annotations

import re

from .limits import in_force, svg_number_problem, svg_shape


def svg_bytes(size: int, what: str = "an SVG picture",
              advice: str | None = "simplify it, or save it as a PNG") -> str | None:
    """What is wrong with an SVG file of ``size`` bytes (too large to read), if anything: ``what``
    names the file (a picture, an icon), ``advice`` what to do, in brackets (None: nothing)."""
    limit = in_force().picture_bytes
    if size > limit:
        return (f"is {size / 2**20:.1f} MB; {what} may be at most {limit / 2**20:g} MB"
                + (f" ({advice})" if advice else ""))
    return None


def svg_file(data: bytes) -> str | None:
    """What makes an SVG picture file too large or impossible to draw, if anything: its elements
    and their nesting (before anything builds its tree), a number no PDF holds.  (Its size is
    checked before it is read: ``svg_bytes``.)"""
    wrong = svg_shape(data, in_force())
    if wrong:
        return wrong
    numbers = svg_number_problem(data.decode("utf-8", errors="replace"))
    return f"cannot be drawn: {numbers}" if numbers else None


def view_box_size(width: float, height: float) -> str | None:
    """What is wrong with a viewBox too small or too large to be scaled onto a card, if anything."""
    largest = in_force().number
    if all(1e-6 <= value <= largest for value in (width, height)):
        return None
    return f"has a viewBox of {width:g} x {height:g}; give it a size between 0.000001 and {largest:,.0f}"


#: A PNG file's first bytes; what other files start with, to say what a misnamed file is.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_STARTS = ((b"\xff\xd8\xff", "a JPEG file"), (PNG_SIGNATURE, "a PNG file"), (b"GIF8", "a GIF file"),
           (b"RIFF", "a WebP file"), (b"%PDF", "a PDF file"), (b"<?xml", "an XML or SVG file"),
           (b"<svg", "an SVG file"), (b"BM", "a BMP file"), (b"II*\x00", "a TIFF file"), (b"MM\x00*", "a TIFF file"))


def damage(exc: BaseException, data: bytes, what: str) -> str:
    """Why a PNG or JPEG file (``what``) could not be read, in words."""
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
