"""Pictures on cards: PNG (with transparency), JPEG and SVG files from the data folder.

A template places a picture with ``picture(name, x, y, w, h, fit=, anchor=)``
(``render.Kit``); the name comes from a column or the template itself and is
resolved inside the data folder, never outside it (``resolve``).  The file is
read once per content (``inspect``: its size, kind, and a check that it is
whole), and the SVG the template gives holds a standard ``<image>`` element
with the file's digest and size in ``data-pnp-picture``: the preview page
shows it as any browser would, and both SVG readers (``svgfast`` and svglib,
``render.svg_to_drawing``) turn it into the same display-list call
(``calls``): clip to the box when the picture is cropped, and draw the
picture at its place.

In a PDF each picture file becomes one XObject, however many designs use it
(``xobject``): a JPEG is embedded as it is (its DCT data), a PNG without
transparency by its own compressed rows when PDF can read them as they are,
an 8-bit RGBA or grey+alpha PNG by its own filtered rows split into colours
and transparency (a soft mask) and compressed again, any other PNG decoded
once and compressed again with PNG predictors; an SVG picture stays vector, a form
drawn from its own display list.  A PNG is read when the document is made, and
a JPEG not even then: the PDF holds a range of its file, which the kernel
copies into the PDF when it is written (``splice``, ``model.atomic.Pieces``),
so a build holds no photograph in memory.  ``SOURCES`` maps a digest to the
file in this process (``register``); the render stage fills it, or the
read-ahead helper (``read_ahead``) before it.

Placement follows SVG's ``preserveAspectRatio``: ``cover`` fills the box and
crops (``slice``), ``contain`` fits inside it (``meet``), ``stretch`` fills it
exactly (``none``); ``anchor`` says which part stays in view.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import struct
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

KINDS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg"}


def kind_of(name) -> str:
    """A picture's kind by its file's suffix (``resolve`` takes no other suffix)."""
    return KINDS[Path(name).suffix.lower()]


#: A picture may have at most this many pixels (a 300 dpi picture of a 47 x 67 cm poster has 44 million).
MAX_PIXELS = 50_000_000
#: A picture file may be at most this large.
MAX_BYTES = 100 * 1024 * 1024
#: Below this resolution at its printed size a picture prints soft: a warning.
MIN_DPI = 300
FITS = {"cover": "slice", "contain": "meet", "stretch": "none"}
ANCHORS = {
    "center": "xMidYMid", "centre": "xMidYMid", "middle": "xMidYMid",
    "top": "xMidYMin", "bottom": "xMidYMax", "left": "xMinYMid", "right": "xMaxYMid",
    "top-left": "xMinYMin", "top-right": "xMaxYMin", "bottom-left": "xMinYMax", "bottom-right": "xMaxYMax",
}
#: Bump when the way pictures are encoded into PDFs changes (kept encodings are keyed by it).
ENCODING = 5
#: zlib's level for a PNG's colours and transparency compressed again (run lengths of the rows'
#: differences): about the size of the PNG file (its own encoder tries harder), at a tenth of the
#: time of level 6.
FLATE_LEVEL = 1


def _inflate(data: bytes) -> bytes:
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


def _deflate(data: bytes) -> bytes:
    """Data compressed as a zlib stream (PDF's FlateDecode): ISA-L's level 1 when ``isal`` is
    there (five times as fast as zlib's run-length level 1, the result about a tenth larger), else
    zlib's.  Either gives the same bytes for the same data every time."""
    try:
        from isal import isal_zlib
    except ImportError:
        deflate = zlib.compressobj(FLATE_LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_RLE)
        return deflate.compress(data) + deflate.flush()
    return isal_zlib.compress(data, 1)


class PictureError(ValueError):
    """A picture that cannot be used: the message says why, for the user."""


@dataclass(frozen=True)
class Picture:
    """A picture file as a design uses it."""

    rel: str  # the name relative to the data folder, with '/'
    digest: str  # of the file's bytes
    kind: str  # png, jpeg or svg
    width: float  # pixels as shown (after a JPEG's orientation), or the SVG's viewBox size
    height: float
    orientation: int = 1  # EXIF orientation of a JPEG (1: as stored)

    @property
    def spec(self) -> str:
        """What ``data-pnp-picture`` holds: kind, digest, size and orientation."""
        return f"{self.kind} {self.digest} {self.width:g} {self.height:g} {self.orientation}"


# ---------------------------------------------------------------- finding and reading
def resolve(data_folder: Path, name: str) -> tuple[str, Path]:
    """(relative name, file) of a picture named in a cell or a template; PictureError
    for a name outside the data folder, a missing file or an unknown kind."""
    name = str(name).strip()
    if not name:
        raise PictureError("no picture named")
    if "://" in name or name.startswith("data:"):
        raise PictureError(f"'{name[:60]}' is an address, not a file; put the picture in the data folder "
                           "and name it by its path, e.g. art/scarab.png")
    posix = PurePosixPath(name.replace("\\", "/"))
    if posix.is_absolute() or re.match(r"^[A-Za-z]:", name):
        raise PictureError(f"'{name}' is an absolute path; name pictures relative to the data folder, "
                           "e.g. art/scarab.png")
    root = Path(data_folder).resolve()
    path = (root / Path(*posix.parts)).resolve()
    if not path.is_relative_to(root) or ".." in posix.parts:
        raise PictureError(f"'{name}' leads outside the data folder; pictures must be inside it")
    suffix = path.suffix.lower()
    if suffix not in KINDS:
        raise PictureError(f"'{name}' is not a PNG, JPEG or SVG file (.png, .jpg, .jpeg, .svg)")
    if not path.is_file():
        raise PictureError(f"picture '{name}' not found in the data folder")
    return path.relative_to(root).as_posix(), path


_SEEN: dict[tuple, Picture] = {}  # (path, size, mtime, inode) -> what was read
_CHECKED: dict[str, Picture] = {}  # digest -> what was read
SOURCES: dict[str, Path] = {}  # digest -> a file with that content, in this process
_DIGESTS: dict[tuple, str] = {}  # (path, size, mtime, inode) -> digest
_lock = threading.Lock()


def register(digest: str, path: Path) -> None:
    SOURCES[digest] = Path(path)


def _stat_key(path: Path) -> tuple:
    """What says a file is unchanged since it was read: its name, size, time and inode."""
    st = os.stat(path)
    return str(path), st.st_size, st.st_mtime_ns, st.st_ino


def content_digest(data: bytes) -> str:
    """A picture's digest: SHA-256 (computed by the processor's own instructions on most
    machines, a third faster than BLAKE2 over megabytes of photographs), 32 hex digits."""
    return hashlib.sha256(data).hexdigest()[:32]



def digest_of(path: Path, key: tuple | None = None) -> str:
    """The digest of a file's bytes, read again only when the file changed (size, time, inode;
    ``key``: those, already looked at)."""
    key = key or _stat_key(path)
    found = _SEEN.get(key)
    if found is not None:
        return found.digest
    digest = _DIGESTS.get(key)
    if digest is None:
        with open(path, "rb") as fh:
            digest = _DIGESTS[key] = content_digest(fh.read())
    return digest


def inspect(rel: str, path: Path) -> Picture:
    """Read a picture file (once per content): its kind, size and digest; PictureError
    for a file that is not a whole PNG, JPEG or safe SVG, or is too large."""
    key = _stat_key(path)
    found = _SEEN.get(key)
    if found is not None and found.rel == rel:
        register(found.digest, path)
        return found
    size = key[1]
    if size > MAX_BYTES:
        raise PictureError(f"'{rel}' is {size / 1e6:.0f} MB; a picture may be at most {MAX_BYTES // 2**20} MB")
    if kind_of(path) == "svg":  # an SVG's bound is lower: refused by its size before it is read
        from .picture_checks import check_bytes

        check_bytes(rel, size)
    data = path.read_bytes()
    digest = content_digest(data)
    checked = _CHECKED.get(digest)
    if checked is None:
        kind = kind_of(path)
        checked = _read_svg(rel, data, digest) if kind == "svg" else _read_raster(rel, data, digest, kind)
        _CHECKED[digest] = checked
    picture = Picture(rel, digest, checked.kind, checked.width, checked.height, checked.orientation)
    with _lock:
        _SEEN[key] = picture
    register(digest, path)
    return picture


def _read_svg(rel: str, data: bytes, digest: str) -> Picture:
    from . import picture_checks
    from .svgsafe import UnsafeSvg, parse, view_box

    picture_checks.check(rel, data)  # its size and shape, before anything builds its tree
    try:
        root = parse(data)
        _, _, w, h = view_box(root)
    except UnsafeSvg as exc:
        raise PictureError(f"'{rel}' {exc}") from None
    del root
    picture_checks.check_size(rel, w, h)
    picture_checks.drawn(rel, digest, data.decode("utf-8", errors="replace"))  # read once, here, for every PDF
    return Picture(rel, digest, "svg", w, h)


def _claimed_size(data: bytes, kind: str) -> tuple[int, int] | None:
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


def _too_large(rel: str, size: tuple[int, int] | None) -> None:
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        w, h = size
        raise PictureError(f"'{rel}' is {w} x {h} px ({w * h / 1e6:.0f} million pixels); a picture may have "
                           f"at most {MAX_PIXELS // 1_000_000} million: scale it down (a poker card at "
                           "300 dpi needs 750 x 1050 px)")


def _read_raster(rel: str, data: bytes, digest: str, kind: str) -> Picture:
    from PIL import Image, UnidentifiedImageError

    what = {"png": "PNG", "jpeg": "JPEG"}[kind]
    _too_large(rel, _claimed_size(data, kind))  # before anything is decoded
    try:
        with Image.open(io.BytesIO(data), formats=[what]) as im:
            w, h = im.size
            _too_large(rel, (w, h))
            orientation = 1
            if kind == "jpeg":
                orientation = int(im.getexif().get(0x0112, 1) or 1)
                if orientation not in range(1, 9):
                    orientation = 1
                sos = data.find(b"\xff\xda")
                if sos < 0 or data.rfind(b"\xff\xd9", sos) < 0:  # its end marker: a truncated file has none
                    raise OSError("it ends before its picture does")
            else:
                im.verify()  # every chunk is there, whole (its checksum): the rows are decoded when embedded
                _check_as_is_rows(data)
    except PictureError:
        raise
    except Image.DecompressionBombError:
        raise PictureError(f"'{rel}' claims to be an enormous picture (a decompression bomb?); it is not read") \
            from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, struct.error, EOFError, zlib.error) as exc:
        from .picture_checks import damage

        raise PictureError(f"'{rel}' {damage(exc, data, what)}") from None
    if orientation in (5, 6, 7, 8):
        w, h = h, w
    return Picture(rel, digest, kind, float(w), float(h), orientation)


def _check_as_is_rows(data: bytes) -> None:
    """A PNG the PDF takes as it is (its compressed rows copied, never decoded here) must hold
    a whole zlib stream of all its rows: else OSError, as for a truncated file."""
    info = png_info(data, rows=False)
    if info is None or not _png_as_is(info):
        return  # decoded and split when embedded, which finds any fault there
    info = png_info(data)
    channels = 3 if info["colour"] == 2 else 1
    try:
        rows = _inflate(b"".join(info["idat"]))
    except zlib.error as exc:
        raise OSError(f"its rows are not a whole compressed stream: {exc}") from None
    if len(rows) != info["height"] * (1 + info["width"] * channels):
        raise OSError("it holds fewer or more rows than its header says")


def current(pictures, data_folder: Path) -> bool:
    """Whether every (relative name, digest) of a design still names a file with that content."""
    root = Path(data_folder)
    for rel, digest in pictures:
        path = root / rel
        try:
            if digest_of(path) != digest:
                return False
        except OSError:
            return False
        register(digest, path)
    return True


# ---------------------------------------------------------------- placing
def placement(fit: str, anchor: str, box: tuple[float, float, float, float], size: tuple[float, float]):
    """(x, y, w, h) of the whole picture for a box (x, y, w, h), SVG's preserveAspectRatio rules."""
    x, y, w, h = box
    pw, ph = size
    if fit == "stretch" or pw <= 0 or ph <= 0:
        return x, y, w, h
    scale = (max if fit == "cover" else min)(w / pw, h / ph)
    dw, dh = pw * scale, ph * scale
    align = ANCHORS[anchor]
    fx = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0}[align[:4]]
    fy = {"YMin": 0.0, "YMid": 0.5, "YMax": 1.0}[align[4:]]
    return x + (w - dw) * fx, y + (h - dh) * fy, dw, dh


def aspect_attr(fit: str, anchor: str) -> str:
    return "none" if fit == "stretch" else f"{ANCHORS[anchor]} {FITS[fit]}"


def parse_aspect(text: str) -> tuple[str, str]:
    """(fit, anchor) of a preserveAspectRatio value."""
    parts = (text or "xMidYMid meet").split()
    if parts[0] == "none":
        return "stretch", "center"
    align = parts[0]
    anchor = next((k for k, v in ANCHORS.items() if v == align), "center")
    return ("cover" if len(parts) > 1 and parts[1] == "slice" else "contain"), anchor


def image_svg(picture: Picture, x: float, y: float, w: float, h: float, fit: str, anchor: str) -> str:
    """The ``<image>`` element of a placed picture."""
    from xml.sax.saxutils import quoteattr

    return (f'<image x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}" href={quoteattr(picture.rel)} '
            f'preserveAspectRatio="{aspect_attr(fit, anchor)}" data-pnp-picture="{picture.spec}"/>')


def parse_spec(text: str) -> tuple:
    """(kind, digest, width, height, orientation) of a ``data-pnp-picture`` value; ValueError when malformed."""
    kind, digest, w, h, orientation = text.split()
    if kind not in ("png", "jpeg", "svg") or not re.fullmatch(r"[0-9a-f]{32}", digest):
        raise ValueError(text)
    return kind, digest, float(w), float(h), int(orientation)


def calls(spec: str, x: float, y: float, w: float, h: float, aspect: str) -> tuple:
    """The display-list calls that draw a picture element (in the SVG's y-down user space):
    a clip to its box when it is cropped, then the picture over its whole place."""
    kind, digest, pw, ph, orientation = parse_spec(spec)
    fit, anchor = parse_aspect(aspect)
    px, py, dw, dh = placement(fit, anchor, (x, y, w, h), (pw, ph))
    ops = [("saveState", (), {})]
    if fit == "cover" and (dw > w + 1e-9 or dh > h + 1e-9):
        ops.append(("*clipPath", (("moveTo", (x, y), {}), ("lineTo", (x + w, y), {}), ("lineTo", (x + w, y + h), {}),
                                  ("lineTo", (x, y + h), {}), ("close", (), {})), {"stroke": 0, "fill": 0}))
    ops.append(("+picture", (kind, digest, orientation, px, py, dw, dh), {}))
    ops.append(("restoreState", (), {}))
    return tuple(ops)


# ---------------------------------------------------------------- drawing into a PDF
#: EXIF orientation -> how the stored picture's unit square maps onto the shown one (a, b, c, d, e, f).
_ORIENT = {
    1: (1, 0, 0, 1, 0, 0), 2: (-1, 0, 0, 1, 1, 0), 3: (-1, 0, 0, -1, 1, 1), 4: (1, 0, 0, -1, 0, 1),
    5: (0, -1, -1, 0, 1, 1), 6: (0, -1, 1, 0, 0, 1), 7: (0, 1, 1, 0, 0, 0), 8: (0, 1, -1, 0, 1, 0),
}


def matrix(orientation: int, x: float, y: float, w: float, h: float) -> tuple:
    """The transform from an image's unit square to its place (x, y, w, h) in a y-down
    user space, the stored picture turned by its EXIF orientation."""
    from reportlab.graphics.transform import mmult

    base = (w, 0.0, 0.0, -h, x, y + h)  # the unit square, turned upright
    return tuple(float(v) for v in mmult(base, _ORIENT.get(orientation, _ORIENT[1])))


def draw(canvas, kind: str, digest: str, orientation: int, x: float, y: float, w: float, h: float) -> None:
    """Draw a picture at its place on a canvas (in the current, y-down, user space)."""
    from reportlab.lib.rl_accel import fp_str

    name = xobject(canvas, kind, digest)
    if kind == "svg":
        fw, fh = _SVG_SIZES[digest]
        m = (w / fw, 0.0, 0.0, -h / fh, x, y + h)
    else:
        m = matrix(orientation, x, y, w, h)
    canvas._code.append("q %s cm /%s Do Q" % (fp_str(*m), canvas._doc.getXObjectName(name)))
    canvas._formsinuse.append(name)
    canvas._currentPageHasImages = 1


def _source(digest: str) -> Path:
    path = SOURCES.get(digest)
    if path is None:
        raise PictureError(f"picture {digest[:8]} is not known in this process")
    return path


def xobject_name(digest: str) -> str:
    return f"pic{digest[:20]}"


def xobject(canvas, kind: str, digest: str) -> str:
    """The form name of a picture in the canvas's document, added the first time."""
    name = xobject_name(digest)
    doc = canvas._doc
    reg = doc.getXObjectName(name)
    if reg in doc.idToObject:
        return name
    path = _source(digest)
    if kind == "svg":
        _svg_form(canvas, name, digest, path)
    else:
        image = _LazyImage(kind, digest, path)
        doc.Reference(image, reg)
        if image.needs_mask:
            mask = _LazyImage(kind, digest, path, mask=True)
            image.smask = doc.Reference(mask, doc.getXObjectName(name + "m"))
    return name


def _svg_form(canvas, name: str, digest: str, path: Path) -> None:
    """An SVG picture as a form: its own display list (or drawing), drawn once per document."""
    from .displaylist import draw_picture
    from model.errors import Problems

    from . import picture_checks
    from .render import svg_to_drawing

    text = path.read_bytes().decode("utf-8", errors="replace")
    problems = Problems()
    found, drawing = picture_checks.drawn(path.name, digest, text)  # read once per build, kept in the store
    picture = found if found is not None else drawing
    _SVG_SIZES[digest] = (float(picture.width), float(picture.height))
    canvas.beginForm(name, 0, 0, picture.width, picture.height)
    draw_picture(canvas, picture, lambda: drawing or svg_to_drawing(text, path.name, problems))
    from .pdf import end_form

    end_form(canvas, name)


_SVG_SIZES: dict = {}


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


def _png_as_is(info: dict) -> bool:
    return (info.get("interlace") == 0 and info.get("depth") == 8 and not info.get("trns")
            and info.get("colour") in (0, 2, 3))


def _pdf_object():
    from reportlab.pdfbase.pdfdoc import PDFObject

    return PDFObject


class _LazyImage(_pdf_object()):
    """An image XObject whose data is read from its file when the document is written."""

    def __init__(self, kind: str, digest: str, path: Path, mask: bool = False):
        self.kind, self.digest, self.path, self.mask = kind, digest, path, mask
        self.smask = None
        self.needs_mask = False
        if kind == "png" and not mask:
            head = path.read_bytes() if path.stat().st_size < 64 * 1024 else _png_head(path)
            info = png_info(head) or {}
            self.needs_mask = info.get("colour") in (4, 6) or bool(info.get("trns"))

    def format(self, document):
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFName, PDFStream

        entries, content = encoded(self.kind, self.digest, self.path, self.mask)
        parts = getattr(document, SPLICED, None)
        if parts is None and not isinstance(content, (bytes, bytearray)):
            content = content.read()  # a range of the picture's file: its bytes, here
        stream = PDFStream(content=content)
        d = stream.dictionary
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        for key, value in entries:
            if key in ("ColorSpace", "Filter"):
                d[key] = PDFName(value) if isinstance(value, str) else value
            elif key == "Decode":
                d[key] = PDFArray(value)
            elif key == "DecodeParms":
                from reportlab.pdfbase.pdfdoc import PDFDictionary

                d[key] = PDFDictionary(dict(value))
            else:
                d[key] = value
        d["Length"] = len(content)
        if self.smask is not None:
            d["SMask"] = self.smask
        if parts is None:
            return stream.format(document)
        # the document is written with a marker in place of the data, put in by ``splice``: the
        # megabytes of a picture are copied once into the file instead of once per layer of
        # reportlab's formatting (the stream, the object, the file, the buffer)
        from reportlab.pdfbase.pdfdoc import PDFDictionary, format as pdf_format

        marker = b"\x00\x01pnp-picture-%08d\x01\x00" % len(parts)
        parts.append((marker, content))
        return pdf_format(PDFDictionary(d.dict.copy()), document) + b"\nstream\n" + marker + b"endstream\n"


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


def _png_head(path: Path) -> bytes:
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


#: Encodings of PNGs made in this process: (digest, mask) -> (entries, content); the store keeps them across builds.
_ENCODED: dict = {}
ENCODED_KEPT = 64
_JPEG: dict = {}  # digest -> a JPEG's image dictionary entries
STORE = [None]  # a store with get_blob/put_blob (the build cache), set by the build


def encoded(kind: str, digest: str, path: Path, mask: bool = False) -> tuple[tuple, object]:
    """(dictionary entries, stream content) of a picture's image XObject (or of its soft mask).
    A JPEG's content is its file as it is (``FileRange``: copied from the file when the PDF is
    written, and only if the file is still the one checked here)."""
    key = _stat_key(path)
    if digest_of(path, key) != digest:  # read again only when the file changed since it was checked
        raise PictureError(f"'{path.name}' changed while the PDF was being written; build again")
    pending = _PENDING.pop(digest, None)
    if pending is not None and not pending.cancel():  # being encoded in the background: wait for it
        failure = _take(pending.result())  # (one not started yet is encoded here, now)
        if failure is not None:
            raise PictureError(f"'{path.name}' {failure[1]}")
    if kind == "png":  # encoded already (here or by an earlier build): its file is not read again
        found = _ENCODED.get((digest, mask)) or _stored(digest, mask)
        if found is not None:
            return found
    if kind == "jpeg":
        entries = _JPEG.get(digest)
        if entries is None:
            entries = _JPEG[digest] = _jpeg(_jpeg_head(path))
        from model.atomic import FileRange

        return entries, FileRange(key[0], 0, key[1], key[1:])
    data = path.read_bytes()
    info = png_info(data)
    if info is not None and not mask and _png_as_is(info):
        return _png_passthrough(info)
    try:
        found = _png_encode(data)
    except (OSError, SyntaxError, ValueError, zlib.error) as exc:
        raise PictureError(f"'{path.name}' {_undecoded(digest, exc)}") from None
    _keep_encoding(digest, found)
    return _ENCODED[(digest, mask)]


def _stored(digest: str, mask: bool) -> tuple | None:
    """A PNG's encoding the build's store keeps (only PNGs a PDF cannot take as they are have
    one), or None."""
    store = STORE[0]
    blob = store.get_blob(_blob_key(digest, mask)) if store is not None else None
    if blob is None:
        return None
    import marshal

    try:
        return marshal.loads(blob)
    except (EOFError, ValueError, TypeError):
        return None


def _jpeg_head(path: Path) -> bytes:
    """A JPEG file's markers up to its picture data (all of the file when they run past 64 KB)."""
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
        if not any(marker == 0xDA and end <= len(head) for marker, _, end in _jpeg_segments(head)):
            head += fh.read()
    return head


def _jpeg(data: bytes) -> tuple:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        w, h = im.size
        mode = im.mode
        adobe = "adobe" in im.info
    space = {"L": "DeviceGray", "CMYK": "DeviceCMYK"}.get(mode, "DeviceRGB")
    entries = [("Width", w), ("Height", h), ("BitsPerComponent", 8), ("ColorSpace", space), ("Filter", "DCTDecode")]
    if mode == "CMYK" and adobe:
        entries.append(("Decode", [1, 0, 1, 0, 1, 0, 1, 0]))
    return tuple(entries)


def _png_passthrough(info: dict) -> tuple[tuple, bytes]:
    colours = {0: 1, 2: 3, 3: 1}[info["colour"]]
    if info["colour"] == 3:
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFName, PDFString

        palette = info["plte"]
        space = PDFArray([PDFName("Indexed"), PDFName("DeviceRGB"), len(palette) // 3 - 1,
                          PDFString(palette.decode("latin-1"))])
    else:
        space = "DeviceGray" if colours == 1 else "DeviceRGB"
    parms = (("Predictor", 15), ("Colors", colours), ("BitsPerComponent", 8), ("Columns", info["width"]))
    entries = (("Width", info["width"]), ("Height", info["height"]), ("BitsPerComponent", 8), ("ColorSpace", space),
               ("Filter", "FlateDecode"), ("DecodeParms", parms))
    return entries, b"".join(info["idat"])


def _encode_one(digest: str):
    """(digest, the encoding, None for a PNG a PDF takes as it is, or the exception that stopped it)."""
    data = SOURCES[digest].read_bytes()
    info = png_info(data)
    if info is not None and _png_as_is(info):
        return digest, None
    try:
        found = _png_encode(data)
    except (OSError, SyntaxError, ValueError, zlib.error) as exc:
        return digest, exc
    _store_encoding(digest, found)  # here: the file writes of one thread overlap the others' encoding
    return digest, found


def prepare(pictures, workers: int = 1) -> None:
    """Start encoding, once each, the PNGs of ``pictures`` ((kind, digest), ...) that a PDF
    cannot take as they are and that no store keeps yet, ``workers`` at a time in background
    threads (the decoding and compressing run outside Python's lock), while the caller lays
    out its pages: ``encoded`` waits for the one it needs, ``finish`` for them all."""
    todo = []
    store = STORE[0]
    for kind, digest in dict.fromkeys(pictures):
        if kind != "png" or (digest, False) in _ENCODED or digest not in SOURCES or digest in _PENDING:
            continue
        if digest in _AHEAD_PARTS:  # being encoded by the read-ahead's helper
            _PENDING[digest] = _AHEAD_PARTS.pop(digest)
            continue
        if store is not None and (store.has_blob(_blob_key(digest, False)) if hasattr(store, "has_blob")
                                  else store.get_blob(_blob_key(digest, False)) is not None):
            continue
        todo.append(digest)
    if not todo:
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="png")
    for digest in todo:
        _PENDING[digest] = pool.submit(_encode_one, digest)
    pool.shutdown(wait=False)  # its threads end when the queue is done


#: digest -> the future of a PNG's encoding started by ``prepare``
_PENDING: dict = {}
_UNDECODED: dict = {}  # digest -> why a PNG encoded in the background did not decode, until ``finish``


def finish() -> list[tuple[str, str]]:
    """Wait for the encodings ``prepare`` started: (digest, message) of the files that did
    not decode (those ``encoded`` found so included)."""
    for digest in list(_PENDING):
        _take(_PENDING.pop(digest).result())
    failed = list(_UNDECODED.items())
    _UNDECODED.clear()
    return failed


def _take(result) -> tuple[str, str] | None:
    """Keep an encoding made by ``_encode_one``; (digest, message) when the file did not decode."""
    digest, found = result
    if isinstance(found, Exception):
        return digest, _undecoded(digest, found)
    if found is not None:
        _keep_encoding(digest, found, store=False)
    return None


def _undecoded(digest: str, exc: Exception) -> str:
    """What to say of a PNG that did not decode (kept for ``finish``, which says it at its rows)."""
    from .picture_checks import damage

    message = _UNDECODED[digest] = damage(exc, b"-", "PNG")
    return message


def _png_encode(data: bytes) -> tuple:
    """A PNG decoded and its colours and transparency compressed again, for PDF:
    ((entries, content) of the colours, (entries, content) of the soft mask or None)."""
    split = _png_split(data)
    if split is not None:
        return split
    from PIL import Image, ImageChops

    with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
        im.load()
        has_alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
        if has_alpha:
            im = im.convert("LA" if im.mode == "LA" or im.mode == "L" else "RGBA")
        elif im.mode not in ("RGB", "L"):
            im = im.convert("RGB")
    planes = [im.convert("L" if im.mode == "LA" else "RGB"), im.getchannel("A")] if has_alpha else [im]
    found = []
    for plane in planes:  # each row predicted from the one above (PNG's "Up" filter)
        above = Image.new(plane.mode, plane.size)
        if plane.height > 1:
            above.paste(plane.crop((0, 0, plane.width, plane.height - 1)), (0, 1))
        found.append(_deflated(_filtered_rows(ImageChops.subtract_modulo(plane, above), b"\x02" * plane.height),
                               plane.width, len(plane.mode)))
    return found[0], (found[1] if has_alpha else None)


def _png_split(data: bytes) -> tuple | None:
    """The colours and the transparency of an 8-bit, non-interlaced grey+alpha or RGBA PNG,
    without decoding it: PNG's row filters predict each byte from the same channel's bytes
    (left, above, above-left), so the filtered rows, split by channel with each row's filter
    byte kept, are the filtered rows of the colour plane and of the alpha plane, which PDF
    reads with the same predictor.  None for any other PNG (decoded by Pillow instead).
    The rows are split by Pillow's own loops (no array library to import on the way)."""
    from PIL import Image

    info = png_info(data)
    if info is None or info.get("interlace") != 0 or info.get("depth") != 8 or info.get("colour") not in (4, 6):
        return None
    mode = "RGBA" if info["colour"] == 6 else "LA"
    n = len(mode)
    w, h = info["width"], info["height"]
    try:
        raw = _inflate(b"".join(info["idat"]))
    except (zlib.error, ValueError):
        return None
    stride = 1 + w * n
    if len(raw) != h * stride or not w or not h:
        return None
    filters = raw[::stride]
    if max(filters) > 4:  # not a filter type: let the decoder say what is wrong
        return None
    # the filtered bytes read as pixels, each row after its filter byte (the last row padded
    # to the stride the reader steps by)
    pixels = Image.frombytes(mode, (w, h), raw[1:] + b"\0", "raw", mode, stride, 1)
    del raw
    colour = pixels.convert("RGB") if mode == "RGBA" else pixels.getchannel("L")
    return (_deflated(_filtered_rows(colour, filters), w, n - 1),
            _deflated(_filtered_rows(pixels.getchannel("A"), filters), w, 1))


def _filtered_rows(plane, filters: bytes) -> bytearray:
    """An image plane's bytes (grey or RGB), each row after its filter byte (``filters``, one
    per row), as a PNG and PDF's predictor 15 read them."""
    stride = 1 + plane.width * len(plane.mode)
    # written with a stride one longer than a row: each row ends where the next row's
    # filter byte goes, and the byte in front takes the first row's
    rows = bytearray(1)
    rows += plane.tobytes("raw", plane.mode, stride, 1)
    del rows[plane.height * stride:]
    rows[::stride] = filters
    return rows


def _deflated(rows, width: int, colours: int) -> tuple[tuple, bytes]:
    """(entries, content) of an image plane whose rows are PNG-filtered, each with its filter byte first."""
    content = _deflate(rows)
    space = "DeviceGray" if colours == 1 else "DeviceRGB"
    parms = (("Predictor", 15), ("Colors", colours), ("BitsPerComponent", 8), ("Columns", width))
    return (("Width", width), ("Height", len(rows) // (1 + width * colours)), ("BitsPerComponent", 8),
            ("ColorSpace", space), ("Filter", "FlateDecode"), ("DecodeParms", parms)), content


def _keep_encoding(digest: str, found: tuple, store: bool = True) -> None:
    """Keep a PNG's encoding in this process and (with ``store``) in the build's store, for the
    next build and for a process that writes the PDF."""
    colour, mask = found
    for is_mask, value in ((False, colour), (True, mask)):
        if value is None:
            continue
        if len(_ENCODED) >= ENCODED_KEPT:
            _ENCODED.pop(next(iter(_ENCODED)))
        _ENCODED[(digest, is_mask)] = value
    if store:
        _store_encoding(digest, found)


def _store_encoding(digest: str, found: tuple) -> None:
    store = STORE[0]
    if store is None:
        return
    import marshal

    for is_mask, value in zip((False, True), found, strict=True):
        if value is not None:
            store.put_blob(_blob_key(digest, is_mask), marshal.dumps(value))


def _blob_key(digest: str, mask: bool) -> str:
    return f"png{ENCODING}:{digest}:{int(mask)}"


# ---------------------------------------------------------------- reading ahead
# A build spends its first few tenths of a second importing its libraries and checking the
# sheets, on one core.  The picture files the sheets name are read and checked meanwhile by a
# helper process on the other core (``read_ahead``); the render stage takes what it found before it starts
# (``take_ahead``) and leaves it the PNGs with transparency to encode for the PDF, one task
# each, into the store.  A PNG the PDF needs before the helper has started on it is encoded
# where it is needed instead (``encoded``).  A name the helper could not use is left to the
# render stage, which says why at its row.

#: The read-ahead of this build: [helper pool, its future of what it read, taken yet, its processes].
_AHEAD: list = []
#: digest -> the helper's encoding of that PNG (``prepare`` waits for it instead of encoding it)
_AHEAD_PARTS: dict = {}


def named_pictures(cards) -> list[str]:
    """The distinct cell values of ``cards`` that name a picture file (by its suffix)."""
    names: dict[str, None] = {}
    for card in cards:
        for _, value in card.extra:
            if isinstance(value, str):
                name = value.strip()
                if PurePosixPath(name.replace("\\", "/")).suffix.lower() in KINDS:
                    names[name] = None
    return list(names)


def read_ahead(games, store) -> bool:
    """Start reading the pictures the sheets of ``games`` name, in a helper process that keeps
    the PNGs it encodes in ``store`` (the build's disk cache): nothing is started without a
    store that can be written, without a second core, or when no cell names a picture."""
    if (store is None or not hasattr(store, "put_blob") or getattr(store, "read_only", False)
            or getattr(store, "disabled", False) or (os.cpu_count() or 1) < 2):
        return False
    jobs = [(g.manifest.data_folder, names) for g in games if (names := named_pictures(g.cards))]
    if not jobs:
        return False
    from model.workers import process_pool

    pool = process_pool(1)
    looked = pool.submit(_look_ahead, jobs, store)
    # its process, kept to be stopped: the pool forgets it once it is shut down
    _AHEAD.append([pool, looked, False, list((getattr(pool, "_processes", None) or {}).values())])
    return True


def take_ahead() -> None:
    """Take what the helper read (the files' digests, sizes and checks, as if read here) and
    leave it the PNGs to encode (``prepare`` waits for those a PDF places)."""
    for entry in _AHEAD:
        pool, looked, taken, _ = entry
        if taken:
            continue
        entry[2] = True
        try:
            seen, todo = looked.result()
        except Exception:  # noqa: BLE001 - the helper is only a head start: the render stage reads the files
            pool.shutdown(wait=False)
            continue
        with _lock:
            for key, picture in seen:
                path = Path(key[0])
                if _stat_key(path) == key:  # unchanged since the helper read it
                    _SEEN.setdefault(key, picture)
                    _DIGESTS.setdefault(key, picture.digest)
                    SOURCES.setdefault(picture.digest, path)
        for digest, path in todo:
            if digest not in _AHEAD_PARTS:
                _AHEAD_PARTS[digest] = _AheadPart(pool.submit(_encode_ahead, digest, path), digest)
        pool.shutdown(wait=False)  # its process ends when its tasks are done


#: Seconds the end of a build waits for the picture the helper is encoding (then it is stopped).
AHEAD_GRACE = 1.0


def end_ahead() -> None:
    """The build is over: the helper's tasks not started are dropped, the one it is at is
    finished (its encoding is kept whole) or, after ``AHEAD_GRACE``, stopped: a build that
    ended early does not wait for encodings it will not use."""
    for part in _AHEAD_PARTS.values():
        part.cancel()
    _AHEAD_PARTS.clear()
    while _AHEAD:
        pool, _, _, processes = _AHEAD.pop()
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(AHEAD_GRACE)
            if process.is_alive():
                process.terminate()


class _AheadPart:
    """One PNG the helper encodes, waited for as ``prepare``'s encodings are."""

    def __init__(self, future, digest: str):
        self.future, self.digest = future, digest

    def cancel(self) -> bool:
        return self.future.cancel()

    def result(self):
        try:
            outcome = self.future.result()
        except Exception:  # noqa: BLE001 - the helper stopped: ``encoded`` encodes the file itself
            return self.digest, None
        return self.digest, (ValueError(outcome) if isinstance(outcome, str) else None)


def _look_ahead(jobs, store) -> tuple[list, list]:
    """In the helper: every named picture file read and checked (what ``inspect`` finds, by
    the file's name, size, time and inode), and the PNGs to encode that the store lacks,
    ((digest, file), ...)."""
    STORE[0] = store
    seen, todo = [], {}
    for folder, names in jobs:
        for name in names:
            try:
                rel, path = resolve(folder, name)
                picture = inspect(rel, path)
            except (PictureError, OSError):
                continue
            seen.append((_stat_key(path), picture))
            if (picture.kind == "png" and picture.digest not in todo
                    and not _png_as_is(png_info(_png_head(path)) or {})
                    and not store.has_blob(_blob_key(picture.digest, False))):
                todo[picture.digest] = path
    if hasattr(store, "flush"):
        store.flush()  # the SVG pictures it read, for the processes that draw them
    return seen, list(todo.items())


def _encode_ahead(digest: str, path: Path) -> str | None:
    """In the helper: a PNG encoded into the store; None, or why the file did not decode."""
    try:
        found = _png_encode(path.read_bytes())
    except (OSError, SyntaxError, ValueError, zlib.error) as exc:
        return str(exc) or type(exc).__name__
    _store_encoding(digest, found)
    return None


def _forget_in_child() -> None:
    """A forked worker starts with none of its parent's encodings in progress (their threads
    and helpers are not its own)."""
    _PENDING.clear()
    _AHEAD.clear()
    _AHEAD_PARTS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
