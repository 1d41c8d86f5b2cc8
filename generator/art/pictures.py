"""Pictures on cards: PNG (with transparency), JPEG and SVG files from the data folder, found and checked.

A template places a picture with ``picture(name, x, y, w, h, fit=, anchor=)``
(``stages.kit.Kit``); the name comes from a column or the template itself and is
resolved inside the data folder, never outside it (``resolve``).  The file is
read once per content (``inspect``: its size, kind, and a check that it is
whole: its header read by ``formats``, an SVG checked by ``svgsafe``).
``SOURCES`` maps a digest to the file in this process (``register``); the render
stage fills it, or the read-ahead helper (``pdfimages.read_ahead``) before it.

The rest of a picture's way: ``placement`` (where it goes in its box, the
``<image>`` element a design holds and the display-list calls both SVG readers
make of it), ``pdfimages`` (its image data for a PDF), ``draw/canvas.py`` (one
XObject per document, however many designs use it) and ``draw/splice.py`` (its
data put into the PDF reportlab wrote).
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

from .formats import claimed_size, inflate, png_as_is, png_info

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
    if not path.is_relative_to(root):
        raise PictureError(f"'{name}' leads outside the data folder; pictures must be inside it")
    if ".." in posix.parts:  # (inside, but a name that climbs is refused: a cell names its file plainly)
        raise PictureError(f"'{name}' climbs with '..'; name the picture by its plain path inside the data folder "
                           f"({path.relative_to(root).as_posix()})")
    suffix = path.suffix.lower()
    if suffix not in KINDS:
        raise PictureError(f"'{name}' is not a PNG, JPEG or SVG file (.png, .jpg, .jpeg, .svg)")
    if not path.is_file():
        if path.exists():
            raise PictureError(f"'{name}' is not a file (a folder, a pipe or a device); name a picture file")
        raise PictureError(f"picture '{name}' not found in the data folder")
    return path.relative_to(root).as_posix(), path


_SEEN: dict[tuple, Picture] = {}  # (path, size, mtime, inode) -> what was read
_CHECKED: dict[str, Picture] = {}  # digest -> what was read
SOURCES: dict[str, Path] = {}  # digest -> a file with that content, in this process
_DIGESTS: dict[tuple, str] = {}  # (path, size, mtime, inode) -> digest
_lock = threading.Lock()


def register(digest: str, path: Path) -> None:
    SOURCES[digest] = Path(path)


def stat_key(path: Path) -> tuple:
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
    key = key or stat_key(path)
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
    key = stat_key(path)
    found = _SEEN.get(key)
    if found is not None and found.rel == rel:
        register(found.digest, path)
        return found
    size = key[1]
    if size > MAX_BYTES:
        raise PictureError(f"'{rel}' is {size / 1e6:.0f} MB; a picture may be at most {MAX_BYTES // 2**20} MB")
    kind = kind_of(path)
    if kind == "svg":  # an SVG's bound is lower: refused by its size before it is read
        from .checks import svg_bytes

        wrong = svg_bytes(size)
        if wrong:
            raise PictureError(f"'{rel}' {wrong}")
    data = path.read_bytes()
    digest = content_digest(data)
    checked = _CHECKED.get(digest)
    if checked is None:
        checked = _read_svg(rel, data, digest) if kind == "svg" else _read_raster(rel, data, digest, kind)
        _CHECKED[digest] = checked
    picture = Picture(rel, digest, checked.kind, checked.width, checked.height, checked.orientation)
    with _lock:
        _SEEN[key] = picture
    register(digest, path)
    return picture


def _read_svg(rel: str, data: bytes, digest: str) -> Picture:
    from .checks import svg_file, view_box_size
    from .svgsafe import UnsafeSvg, parse, view_box

    wrong = svg_file(data)  # its elements, nesting and numbers, before anything builds its tree
    if wrong:
        raise PictureError(f"'{rel}' {wrong}")
    try:
        root = parse(data)
        _, _, w, h = view_box(root)
    except UnsafeSvg as exc:
        raise PictureError(f"'{rel}' {exc}") from None
    wrong = view_box_size(w, h)
    if wrong:
        raise PictureError(f"'{rel}' {wrong}")
    return Picture(rel, digest, "svg", w, h)


def _too_large(rel: str, size: tuple[int, int] | None) -> None:
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        w, h = size
        raise PictureError(f"'{rel}' is {w} x {h} px ({w * h / 1e6:.0f} million pixels); a picture may have "
                           f"at most {MAX_PIXELS // 1_000_000} million: scale it down (a poker card at "
                           "300 dpi needs 750 x 1050 px)")


def _read_raster(rel: str, data: bytes, digest: str, kind: str) -> Picture:
    from PIL import Image, UnidentifiedImageError

    what = {"png": "PNG", "jpeg": "JPEG"}[kind]
    _too_large(rel, claimed_size(data, kind))  # before anything is decoded
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
        from .checks import damage

        raise PictureError(f"'{rel}' {damage(exc, data, what)}") from None
    if orientation in (5, 6, 7, 8):
        w, h = h, w
    return Picture(rel, digest, kind, float(w), float(h), orientation)


def _check_as_is_rows(data: bytes) -> None:
    """A PNG the PDF takes as it is (its compressed rows copied, never decoded here) must hold
    a whole zlib stream of all its rows: else OSError, as for a truncated file."""
    info = png_info(data, rows=False)
    if info is None or not png_as_is(info):
        return  # decoded and split when embedded, which finds any fault there
    info = png_info(data)
    channels = 3 if info["colour"] == 2 else 1
    try:
        rows = inflate(b"".join(info["idat"]))
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


def source(digest: str) -> Path:
    """The file with this content in this process (``register``); PictureError when none is known."""
    path = SOURCES.get(digest)
    if path is None:
        raise PictureError(f"picture {digest[:8]} is not known in this process")
    return path


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


def take_seen(seen) -> None:
    """Take what a helper process read (((path, size, mtime, inode), Picture), ...: ``inspect``'s
    findings, ``pdfimages.read_ahead``) as if read here, each file only if unchanged since."""
    with _lock:
        for key, picture in seen:
            path = Path(key[0])
            if stat_key(path) == key:  # unchanged since the helper read it
                _SEEN.setdefault(key, picture)
                _DIGESTS.setdefault(key, picture.digest)
                SOURCES.setdefault(picture.digest, path)
