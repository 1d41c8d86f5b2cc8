"""The structure of PNG and JPEG files, read without decoding their pictures: a PNG's
chunks (``png_info``: its header, palette, transparency and compressed rows; ``png_head``: the
chunks before its rows), the size a PNG or a JPEG claims (``claimed_size``), and zlib streams
made and read quickly (``inflate``, ``deflate``).

Pillow reads these files too (it checks them, ``pictures.inspect``, and reads a JPEG's header
for the PDF, ``pdfimages``); what is read here by hand is what Pillow does not give: a PNG's
rows exactly as they are compressed, so a PDF can take them as they are or split into colours
and transparency without decoding them, and the size a file claims before Pillow refuses an
enormous one in words of its own.  Why, with the figures: docs/architecture.md, "Pictures".
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


#: zlib's level for a PNG's colours and transparency compressed again (run lengths of the rows'
#: differences): about the size of the PNG file (its own encoder tries harder), at a tenth of the
#: time of level 6.
FLATE_LEVEL = 1


def inflate(data: bytes) -> bytes:
    """zlib data decompressed: with Intel's ISA-L (the ``isal`` package) when it is there, two
    to three times as fast as zlib's own, else zlib's.  Data that is not a zlib stream raises
    ``zlib.error`` either way."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib.decompress(data)
    try:
        return isal_zlib.decompress(data)
    except isal_zlib.error as exc:
        raise zlib.error(str(exc)) from None


def deflate(data: bytes) -> bytes:
    """Data compressed as a zlib stream (PDF's FlateDecode): ISA-L's level 1 when ``isal`` is
    there (five times as fast as zlib's run-length level 1, the result about a tenth larger), else
    zlib's.  Either gives the same bytes for the same data every time."""
    try:
        from isal import isal_zlib
    except ImportError:
        deflate = zlib.compressobj(FLATE_LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_RLE)
        return deflate.compress(data) + deflate.flush()
    return isal_zlib.compress(data, 1)


def claimed_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """The size a PNG's or JPEG's header claims, read without decoding anything."""
    if kind == "png":
        info = png_info(data[:4096], rows=False)
        return (info["width"], info["height"]) if info and "width" in info else None
    for marker, pos, _ in _jpeg_segments(data):
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and pos + 9 <= len(data):  # a frame
            h, w = struct.unpack(">HH", data[pos + 5:pos + 9])
            return w, h
    return None


def _jpeg_segments(data: bytes):
    """A JPEG's marker segments from its start: (marker, where it starts, where it ends), up to
    its start of scan or as far as ``data`` goes."""
    pos = 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            pos += 2
            continue
        end = pos + 2 + struct.unpack(">H", data[pos + 2:pos + 4])[0]
        yield marker, pos, end
        if marker == 0xDA:
            return
        pos = end


def png_info(data: bytes, rows: bool = True) -> dict | None:
    """IHDR of a PNG and whether its compressed rows can go into a PDF as they are; with
    ``rows=False`` the chunks before the rows alone (every header fact: PNG puts them first)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    pos = 8
    info: dict = {"idat": [], "plte": None, "trns": False}
    while pos + 8 <= len(data):
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        if tag == b"IDAT" and not rows:
            break
        body = data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            info.update(width=w, height=h, depth=depth, colour=colour, interlace=interlace)
        elif tag == b"IDAT":
            info["idat"].append(body)
        elif tag == b"PLTE":
            info["plte"] = body
        elif tag == b"tRNS":
            info["trns"] = True
        elif tag in (b"iCCP", b"gAMA", b"cHRM", b"sRGB"):
            info.setdefault("colour_chunks", []).append(tag)
        elif tag == b"IEND":
            break
        pos += 12 + length
    return info


def png_as_is(info: dict) -> bool:
    return (info.get("interlace") == 0 and info.get("depth") == 8 and not info.get("trns")
            and info.get("colour") in (0, 2, 3))


def png_head(path: Path) -> bytes:
    """The chunks of a PNG up to its first IDAT (enough for ``png_info``'s header facts)."""
    out = bytearray()
    with open(path, "rb") as fh:
        out += fh.read(8)
        while True:
            head = fh.read(8)
            if len(head) < 8:
                break
            length, tag = struct.unpack(">I4s", head)
            if tag == b"IDAT" or tag == b"IEND":
                out += head
                break
            out += head + fh.read(length + 4)
    return bytes(out)

