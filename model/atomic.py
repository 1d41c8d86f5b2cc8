"""The one way files are written: to a temporary name beside the target, then renamed.

A reader never sees half a file, a failure leaves the previous file as it was,
and a set of files is written all together or not at all (every temporary file
is complete before the first rename).  ``AtomicFile`` streams a large file
(``games.csv``) the same way.  A file may be given as ``Pieces``: bytes and
ranges of other files (the photographs inside a PDF), which the kernel copies
from file to file without their bytes passing through this process.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Mapping

from .errors import PnpError

#: Bytes copied per system call from one file to another.
COPY_STEP = 1 << 24


@dataclass(frozen=True)
class FileRange:
    """``length`` bytes of the file ``path`` from ``offset``, as the file was when it was
    checked: ``stamp`` is its (size, modification time in ns, inode) then, and a file that
    changed since is an error when the range is written, never other bytes."""

    path: str
    offset: int
    length: int
    stamp: tuple

    def __len__(self) -> int:
        return self.length

    def read(self) -> bytes:
        with open(self.path, "rb") as fh:
            self._check(fh.fileno())
            fh.seek(self.offset)
            data = fh.read(self.length)
        if len(data) != self.length:
            raise self._changed()
        return data

    def copy_to(self, out) -> None:
        """Append the range to the open binary file ``out``: copied by the kernel
        (``copy_file_range``, else ``sendfile``), else read and written a step at a time."""
        out.flush()
        with open(self.path, "rb") as src:
            self._check(src.fileno())
            offset, left = self.offset, self.length
            for copy in (_copy_file_range, _sendfile, None):
                if copy is None:
                    src.seek(offset)
                    while left:
                        block = src.read(min(left, COPY_STEP))
                        if not block:
                            raise self._changed()
                        out.write(block)
                        left -= len(block)
                    break
                try:
                    while left:
                        n = copy(src.fileno(), out.fileno(), offset, min(left, COPY_STEP))
                        if n <= 0:
                            raise self._changed()
                        offset, left = offset + n, left - n
                    break
                except OSError as exc:
                    if exc.errno is None or not _unsupported(exc):
                        raise
                    out.seek(0, os.SEEK_END)  # nothing of this step was written: the next way goes on

    def _check(self, fd: int) -> None:
        st = os.fstat(fd)
        if (st.st_size, st.st_mtime_ns, st.st_ino) != tuple(self.stamp):
            raise self._changed()

    def _changed(self) -> PnpError:
        return PnpError(f"{self.path} changed while its copy was being written; run the command again")


def _unsupported(exc: OSError) -> bool:
    import errno

    return exc.errno in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP,
                         errno.EBADF, errno.EPERM)


def _copy_file_range(src: int, dst: int, offset: int, count: int) -> int:
    if not hasattr(os, "copy_file_range"):
        raise OSError(__import__("errno").ENOSYS, "no copy_file_range")
    return os.copy_file_range(src, dst, count, offset)


def _sendfile(src: int, dst: int, offset: int, count: int) -> int:
    if not hasattr(os, "sendfile"):
        raise OSError(__import__("errno").ENOSYS, "no sendfile")
    return os.sendfile(dst, src, offset, count)


class Pieces:
    """A file's bytes given in pieces: ``bytes`` (or anything bytes-like) and ``FileRange`` objects.
    ``bytes(pieces)`` is the whole file; ``write_files`` writes the pieces one after another."""

    def __init__(self, pieces):
        self.pieces = tuple(pieces)

    def __len__(self) -> int:
        return sum(p.length if isinstance(p, FileRange) else len(p) for p in self.pieces)

    def __bytes__(self) -> bytes:
        return b"".join(p.read() if isinstance(p, FileRange) else bytes(p) for p in self.pieces)

    def __eq__(self, other) -> bool:
        if isinstance(other, Pieces):
            other = bytes(other)
        return isinstance(other, (bytes, bytearray)) and bytes(self) == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Pieces({len(self.pieces)} pieces, {len(self)} bytes)"

    def write_to(self, out) -> None:
        for piece in self.pieces:
            if isinstance(piece, FileRange):
                piece.copy_to(out)
            else:
                out.write(piece)


Data = bytes | str | Pieces


def _temp_beside(path: Path, tag: str = "") -> tuple[int, str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    return tempfile.mkstemp(prefix=f".{path.name}.{tag}", suffix=".tmp", dir=path.parent)


def _unlink_quietly(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _fill(fd: int, data: Data) -> None:
    if isinstance(data, str):
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(data)
    else:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, Pieces):
                data.write_to(fh)
            else:
                fh.write(data)


def write_files(files: Mapping[Path, Data]) -> list[Path]:
    """Write every file to a temporary name first, then rename them all.

    ``str`` data is written as UTF-8 with the newlines it holds; ``bytes`` as
    they are; ``Pieces`` one after another.  Returns the paths in the order given."""
    temps: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            path = Path(path)
            fd, tmp = _temp_beside(path)
            temps.append((tmp, path))
            _fill(fd, data)
            os.chmod(tmp, 0o644)
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                _unlink_quietly(tmp)
    return [Path(p) for p in files]


def write_file(path: Path, data: Data) -> Path:
    """One file, atomically (see :func:`write_files`)."""
    return write_files({Path(path): data})[0]


class AtomicFile:
    """A text file written as it goes into a temporary name (``.NAME.TAG*.tmp`` beside it); ``commit``
    renames it into place, ``abort`` (or leaving the ``with`` block by an exception) removes it."""

    def __init__(self, path: Path, newline: str = "", tag: str = ""):
        self.path = Path(path)
        fd, self.tmp = _temp_beside(self.path, tag)
        self.fh: IO[str] = os.fdopen(fd, "w", encoding="utf-8", newline=newline)

    def write(self, text: str) -> None:
        self.fh.write(text)

    def commit(self) -> Path:
        self.fh.close()
        os.chmod(self.tmp, 0o644)
        os.replace(self.tmp, self.path)
        return self.path

    def abort(self) -> None:
        self.fh.close()
        _unlink_quietly(self.tmp)

    def __enter__(self) -> "AtomicFile":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.abort()
        elif not self.fh.closed:
            self.commit()
