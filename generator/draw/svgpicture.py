"""SVG picture files, read once per build.

An SVG picture a design places stays vector in the PDF: its display list becomes
a form, drawn once per document (``canvas.py``).  Reading it is the work of a
large file, so it is done once per build: the first process that meets it (the
render stage, when a design places it; or the PDF writer) reads it while holding
a lock on it in the build's store (``art.pdfimages.STORE``, the build cache),
and keeps its display list there, where every other process finds it, and in this
process.  (The file was checked against its bounds before, ``art.pictures.inspect``.)
What its reader cannot take is a ``PictureError``, which the render stage says at
the cell (or template) that named the file.
"""

from __future__ import annotations

import contextlib
import hashlib
from functools import lru_cache
from pathlib import Path

from model.errors import Problems

from ..art.pdfimages import STORE
from ..art.pictures import PictureError

#: Bump when the way a picture SVG is read into a display list changes (its kept lists are keyed by it).
REVISION = 1
#: digest -> (display list or None, drawing or None) of the SVG pictures read in this process
_READ: dict = {}


@lru_cache(maxsize=None)
def _code() -> str:
    """What a picture's display list depends on besides the file: the readers' code, and the
    files of svglib and reportlab (their sizes and times: an upgrade changes them)."""
    from importlib.util import find_spec

    h = hashlib.sha256(f"svg picture {REVISION}".encode())
    for package in ("svglib", "reportlab"):
        spec = find_spec(package)
        folder = Path(spec.origin).parent if spec is not None and spec.origin else None
        for path in sorted(folder.glob("*.py")) if folder is not None else ():
            st = path.stat()
            h.update(f"{package}/{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    here = Path(__file__).parent
    for name in ("svgfast.py", "svgread.py", "svgvalues.py", "recording.py", "displaylist.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def picture_key(digest: str) -> str:
    """The key of a picture SVG's display list in the build's store."""
    return hashlib.sha256(f"{_code()}\0{digest}".encode()).hexdigest()


@contextlib.contextmanager
def _one_at_a_time(store, digest: str):
    """While held, no other process of the build reads the same picture (a lock file in the
    store's folder; nothing, where there is no folder to write)."""
    folder = getattr(store, "folder", None)
    if folder is None or getattr(store, "read_only", False) or getattr(store, "disabled", False):
        yield
        return
    try:
        import fcntl

        path = Path(folder) / "locks" / f"svg-{digest[:32]}"
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(path, "a+b")
    except (ImportError, OSError):
        yield
        return
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _expandable(rel: str, data: bytes) -> None:
    """PictureError when the picture draws more than a picture may once its ``<use>`` references
    are expanded, or one comes back to itself (``svgsafe.expanded_problem``), before svglib (which
    copies each use's element anew) reads it.  (``art.pictures.inspect`` checked the file, which
    may have changed since.)"""
    from ..art.svgsafe import UnsafeSvg, parse

    if b"use" not in data:
        return
    try:
        parse(data)
    except UnsafeSvg as exc:
        raise PictureError(f"'{rel}' {exc}") from None


def drawn(rel: str, digest: str, path: Path):
    """(display list or None, drawing or None) of an SVG picture file: kept in this process,
    else in the build's store, else read (and kept in both); PictureError when it cannot be read."""
    found = _READ.get(digest)
    if found is not None:
        return found
    store = STORE[0]
    lists = store is not None and hasattr(store, "get_list")
    key = picture_key(digest)
    with _one_at_a_time(store, digest):
        kept = store.get_list(key) if lists else None
        if kept is not None and kept.font_state is None:
            found = _READ[digest] = (kept, None)
            return found
        from .svgread import svg_to_display_list

        data = path.read_bytes()
        _expandable(rel, data)
        problems = Problems()
        display_list, drawing = svg_to_display_list(data.decode("utf-8", errors="replace"), rel, problems)
        if display_list is None and drawing is None:
            why = next((p.message for p in problems.errors), ": it cannot be read")
            raise PictureError(f"'{rel}' cannot be drawn: {why.split(': ', 1)[-1]}")
        if display_list is not None and lists and not getattr(store, "read_only", False):
            store.put_list(key, display_list)
            if hasattr(store, "flush"):
                store.flush()  # for the other processes of the build, before the lock is let go
    found = _READ[digest] = (display_list, drawing)
    return found
