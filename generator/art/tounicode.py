"""Text copied out of a PDF reads as it was written, emoji included.

reportlab writes each embedded font subset's ToUnicode map with four hex
digits per character, so a character beyond the Basic Multilingual Plane
(U+1F600, an emoji; U+1D538, a mathematical letter) is written ``<1F600>``,
which readers take as U+1F60 and a stray digit.  The map's targets are UTF-16:
such a character is its surrogate pair, ``<D83DDE00>``.  ``install`` puts that
map in place of reportlab's (the same text for every other character, so
PDFs without such characters are byte for byte what they were).
"""

from __future__ import annotations


def utf16(code: int) -> str:
    """A character's code as a ToUnicode target: UTF-16BE in hex digits."""
    if code < 0x10000:
        return "%04X" % code
    code -= 0x10000
    return "%04X%04X" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))


def to_unicode_cmap(fontname: str, subset) -> str:
    """reportlab's ``makeToUnicodeCMap``, with every character's target in UTF-16."""
    cmap = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        "<< /Registry (%s)" % fontname,
        "/Ordering (%s)" % fontname,
        "/Supplement 0",
        ">> def",
        "/CMapName /%s def" % fontname,
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<00> <%02X>" % (len(subset) - 1),
        "endcodespacerange",
        "%d beginbfchar" % len(subset),
    ] + ["<%02X> <%s>" % (i, utf16(v)) for i, v in enumerate(subset)] + [
        "endbfchar",
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ]
    return "\n".join(cmap)


def install() -> None:
    """Make reportlab write ToUnicode maps with ``to_unicode_cmap``."""
    from reportlab.pdfbase import ttfonts

    ttfonts.makeToUnicodeCMap = to_unicode_cmap
