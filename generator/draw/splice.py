"""Picture data put into the PDF reportlab wrote, after it wrote it.

A document made with ``spliced`` has its pictures' image streams written with a
short marker in place of their data (``canvas._LazyImage``); ``splice`` then puts
each picture's data where its marker is and moves the offsets of the
cross-reference table to match.  The result is the file in pieces
(``model.atomic.Pieces``), a JPEG's data as a range of its own file: the megabytes
of a photograph are copied once, by the kernel, as the PDF is written, instead of
once per layer of reportlab's formatting.  Why this is not done with a PDF
library, and how it is checked: docs/architecture.md, "Pictures".
"""

from __future__ import annotations


#: the attribute of a reportlab document that holds the (marker, data) of its pictures, for ``splice``
SPLICED = "_pnp_spliced_pictures"


def spliced(canvas) -> None:
    """Write ``canvas``'s pictures as markers, for ``splice`` to replace in its PDF's bytes."""
    setattr(canvas._doc, SPLICED, [])


def splice(pdf: bytes, canvas):
    """The PDF ``canvas`` wrote (``pdf``, with markers where its pictures go) with every picture's
    data in place of its marker, the cross-reference table's offsets moved to match: ``pdf``
    itself when it holds no picture, else ``Pieces`` (the file in pieces, each picture's data
    one of them, a JPEG's as a range of its file: nothing is joined in memory)."""
    parts = getattr(canvas._doc, SPLICED, None) or []
    if not parts:
        return pdf
    from model.atomic import Pieces

    chunks, moves, at = [], [], 0  # moves: (position in pdf, bytes added from there on)
    for marker, content in parts:
        found = pdf.find(marker, at)
        if found < 0:
            raise RuntimeError("a picture's place was not found in the PDF")
        chunks += [pdf[at:found], content]
        at = found + len(marker)
        moves.append((found, len(content) - len(marker)))
    tail = pdf.rindex(b"startxref\n")
    xref = int(pdf[tail + 10:pdf.index(b"\n", tail + 10)])
    if pdf[xref:xref + 7] != b"xref\n0 " or at > xref:
        raise RuntimeError("the PDF's cross-reference table is not where its trailer says")

    def moved(offset: int) -> int:
        return offset + sum(delta for where, delta in moves if where < offset)

    head_end = pdf.index(b"\n", xref + 5) + 1
    count = int(pdf[xref + 7:head_end - 1])
    entries = []
    for i in range(count):  # each entry: 10-digit offset, space, 5-digit generation, " n " or " f ", "\n"
        entry = pdf[head_end + 20 * i:head_end + 20 * i + 20]
        if entry[17:18] == b"n":
            entry = b"%010d" % moved(int(entry[:10])) + entry[10:]
        entries.append(entry)
    end = head_end + 20 * count
    chunks += [pdf[at:head_end], b"".join(entries), pdf[end:tail + 10], b"%d" % moved(xref),
               pdf[pdf.index(b"\n", tail + 10):]]
    return Pieces(chunks)
