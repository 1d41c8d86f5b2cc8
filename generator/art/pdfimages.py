"""Picture files as PDF image data, made once per content.

A JPEG goes into a PDF as it is (its DCT data, the file's bytes: ``encoded`` gives
a range of the file, ``model.atomic.FileRange``, and its image dictionary); a PNG
without transparency by its own compressed rows when PDF can read them as they are;
an 8-bit RGBA or grey+alpha PNG by its own filtered rows split into colours and
transparency (a soft mask) and compressed again (``_png_split``); any other PNG
decoded once and compressed again with PNG predictors (``_png_encode``).

A PNG that must be encoded is encoded once per content: in background threads
while the sheets are laid out (``prepare``, ``finish``), or ahead, in a helper
process, while the build imports its libraries (``read_ahead``, ``take_ahead``,
``end_ahead``), and kept in the build's store (``STORE``, the build cache) for the
next build.
"""

from __future__ import annotations

import io
import os
import zlib
from pathlib import Path

from .formats import deflate, inflate, png_as_is, png_head, png_info
from .pictures import SOURCES, PictureError, digest_of, inspect, named_pictures, resolve, stat_key, take_seen


#: Bump when the way pictures are encoded into PDFs changes (kept encodings are keyed by it).
ENCODING = 5

#: Encodings of PNGs made in this process: (digest, mask) -> (entries, content); the store keeps them across builds.
_ENCODED: dict = {}
ENCODED_KEPT = 64
_JPEG: dict = {}  # digest -> a JPEG's image dictionary entries
STORE = [None]  # a store with has_blob/get_blob/put_blob (the build cache), set by the build


def encoded(kind: str, digest: str, path: Path, mask: bool = False) -> tuple[tuple, object]:
    """(dictionary entries, stream content) of a picture's image XObject (or of its soft mask).
    A JPEG's content is its file as it is (``FileRange``: copied from the file when the PDF is
    written, and only if the file is still the one checked here)."""
    key = stat_key(path)
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
            entries = _JPEG[digest] = _jpeg(path)
        from model.atomic import FileRange

        return entries, FileRange(key[0], 0, key[1], key[1:])
    data = path.read_bytes()
    info = png_info(data)
    try:
        found = _encode_data(data, None if mask else info)
    except _UNDECODABLE as exc:
        raise PictureError(f"'{path.name}' {_undecoded(digest, exc)}") from None
    if found is None:
        return _png_passthrough(info)
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


def _jpeg(path: Path) -> tuple:
    """A JPEG's image dictionary entries, from its header (Pillow reads no further)."""
    from PIL import Image

    with Image.open(path) as im:
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
    return _flate_entries(info["width"], info["height"], colours, space), b"".join(info["idat"])


def _flate_entries(width: int, height: int, colours: int, space) -> tuple:
    """The image dictionary entries of 8-bit image data whose rows are PNG-filtered and compressed."""
    parms = (("Predictor", 15), ("Colors", colours), ("BitsPerComponent", 8), ("Columns", width))
    return (("Width", width), ("Height", height), ("BitsPerComponent", 8), ("ColorSpace", space),
            ("Filter", "FlateDecode"), ("DecodeParms", parms))


#: What a PNG that does not decode raises.
_UNDECODABLE = (OSError, SyntaxError, ValueError, zlib.error)


def _encode_data(data: bytes, info: dict | None) -> tuple | None:
    """A PNG's encoding (``_png_encode``), or None when a PDF takes it as it is (``info``: its
    ``png_info``, None when it may not be taken so); raises one of _UNDECODABLE when it does not
    decode."""
    if info is not None and png_as_is(info):
        return None
    return _png_encode(data)


def _encode_one(digest: str):
    """(digest, the encoding, None for a PNG a PDF takes as it is, or the exception that stopped it)."""
    data = SOURCES[digest].read_bytes()
    try:
        found = _encode_data(data, png_info(data))
    except _UNDECODABLE as exc:
        return digest, exc
    if found is None:
        return digest, None
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
        if store is not None and store.has_blob(_blob_key(digest, False)):
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
    from .checks import damage

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
        raw = inflate(b"".join(info["idat"]))
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
    space = "DeviceGray" if colours == 1 else "DeviceRGB"
    return _flate_entries(width, len(rows) // (1 + width * colours), colours, space), deflate(rows)


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
        take_seen(seen)
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
            seen.append((stat_key(path), picture))
            if (picture.kind == "png" and picture.digest not in todo
                    and not png_as_is(png_info(png_head(path)) or {})
                    and not store.has_blob(_blob_key(picture.digest, False))):
                todo[picture.digest] = path
    return seen, list(todo.items())


def _encode_ahead(digest: str, path: Path) -> str | None:
    """In the helper: a PNG encoded into the store; None, or why the file did not decode."""
    try:
        found = _png_encode(path.read_bytes())
    except _UNDECODABLE as exc:
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
