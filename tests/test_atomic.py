"""Files written whole or not at all, and files given in pieces (bytes and ranges of other files)."""

from __future__ import annotations

import errno
import os

import pytest

from model import atomic
from model.atomic import FileRange, Pieces, write_files
from model.errors import PnpError


def _range(path, offset=0, length=None):
    st = os.stat(path)
    return FileRange(str(path), offset, st.st_size - offset if length is None else length,
                     (st.st_size, st.st_mtime_ns, st.st_ino))


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "photo.bin"
    path.write_bytes(bytes(range(256)) * 40_000 + b"tail")  # about 10 MB, more than one copy step
    return path


def test_pieces_are_written_one_after_another_with_ranges_copied_from_their_files(photo, tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "COPY_STEP", 1 << 20)  # several kernel copies for one range
    raw = photo.read_bytes()
    pieces = Pieces([b"head ", _range(photo), b" middle ", _range(photo, 1000, 5000), bytearray(b" end")])
    want = b"head " + raw + b" middle " + raw[1000:6000] + b" end"
    assert len(pieces) == len(want)
    assert bytes(pieces) == want and pieces == want
    out = tmp_path / "out" / "file.pdf"
    write_files({out: pieces})
    assert out.read_bytes() == want


@pytest.mark.parametrize("broken", [("_copy_file_range",), ("_copy_file_range", "_sendfile")])
def test_a_range_is_copied_the_next_way_where_the_kernel_cannot(photo, tmp_path, monkeypatch, broken):
    def unsupported(*args):
        raise OSError(errno.EXDEV, "not across file systems")

    for name in broken:
        monkeypatch.setattr(atomic, name, unsupported)
    out = tmp_path / "file.pdf"
    write_files({out: Pieces([b"a", _range(photo), b"z"])})
    assert out.read_bytes() == b"a" + photo.read_bytes() + b"z"


def test_a_file_changed_since_its_range_was_taken_is_an_error_and_nothing_is_written(photo, tmp_path):
    piece = _range(photo)
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.pdf").write_bytes(b"the previous build")
    photo.write_bytes(photo.read_bytes()[:-1] + b"!")  # same size, another time (or inode)
    os.utime(photo, ns=(piece.stamp[1] + 10**9, piece.stamp[1] + 10**9))
    with pytest.raises(PnpError, match="changed while its copy was being written"):
        write_files({out / "new.txt": b"first", out / "old.pdf": Pieces([b"x", piece])})
    assert (out / "old.pdf").read_bytes() == b"the previous build"
    assert sorted(p.name for p in out.iterdir()) == ["old.pdf"]  # no temporary file left, nothing half-written
    with pytest.raises(PnpError):
        bytes(Pieces([piece]))
