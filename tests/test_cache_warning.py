"""A build cache that cannot be used is one warning for the whole build, however many games
it builds: said once by ``pnp build`` and once by ``pnp watch``, and counted once."""

from __future__ import annotations

import pytest

from generator.diskcache import DB_NAME, cache_folder
from preview.session import Session, summary

from helpers import new_game, run_pnp


@pytest.fixture
def data(tmp_path):
    new_game(tmp_path, "dawn")
    new_game(tmp_path, "dusk")
    (cache_folder(tmp_path / "output") / DB_NAME / "in-the-way").mkdir(parents=True)  # a folder where the file goes
    return tmp_path


def warning(data) -> str:
    path = cache_folder(data / "output") / DB_NAME
    return f"{path}: cannot use the build cache (unable to open database file); building without it"


def test_pnp_build_says_it_once(data):
    code, output = run_pnp("build", "--data", data)
    assert code == 0, output
    lines = output.splitlines()
    assert lines.count(f"warning {warning(data)}") == 1
    assert lines[-1].endswith(" 1 warning (above).")


def test_pnp_watch_says_it_once(data):
    session = Session(data, out=data / "output")
    try:
        lines = summary(session.build(workers=1))
    finally:
        session.close()
    assert [line.strip() for line in lines if "build cache" in line] == [f"warning {warning(data)}"]
