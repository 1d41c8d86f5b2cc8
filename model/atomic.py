"""The one way files are written: to a temporary name beside the target, then renamed.

A reader never sees half a file, a failure leaves the previous file as it was,
and a set of files is written all together or not at all (every temporary file
is complete before the first rename).  ``AtomicFile`` streams a large file
(``games.csv``) the same way.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Mapping

Data = bytes | str


def _temp_beside(path: Path) -> tuple[int, str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)


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
            fh.write(data)


def write_files(files: Mapping[Path, Data]) -> list[Path]:
    """Write every file to a temporary name first, then rename them all.

    ``str`` data is written as UTF-8 with the newlines it holds; ``bytes`` as
    they are.  Returns the paths in the order given."""
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
    """A text file written as it goes into a temporary name; ``commit`` renames it
    into place, ``abort`` (or leaving the ``with`` block by an exception) removes it."""

    def __init__(self, path: Path, newline: str = ""):
        self.path = Path(path)
        fd, self.tmp = _temp_beside(self.path)
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
