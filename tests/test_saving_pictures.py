"""A picture saved in place, slowly and in pieces as image editors write it, while
``pnp watch``/``pnp preview`` build after every save: no build shows it as broken, and
the good picture is shown once it is written."""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest
from PIL import Image

from generator.art.pictures import content_digest
from preview.session import Session
from preview.watch import watch

from helpers import new_game, read_rows, save_until_built, write_rows

SLUG = "gallery"


def png(seed: int) -> bytes:
    """A 400 x 400 PNG of noise (about half a megabyte: it takes a moment to write)."""
    pixels = np.random.default_rng(seed).integers(0, 256, (400, 400, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def data(tmp_path):
    """A game of its own whose cards show a picture named in a column ``art``."""
    game = new_game(tmp_path, SLUG)
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "text = { max_length = 120 }", "text = { max_length = 120 }\nart = {}"), encoding="utf-8")
    front = game / "card.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace(
        "{% block body %}", "{% block body %}\n{{ picture(card.art, 0, 0, W, 30) }}"), encoding="utf-8")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "king.png").write_bytes(png(1))
    rows = read_rows(tmp_path / "cards.csv")
    write_rows(tmp_path / "cards.csv", [rows[0] + ["art"]] + [r + ["art/king.png"] for r in rows[1:]])
    return tmp_path


def write_slowly(path, data: bytes, pieces: int = 8, pause: float = 0.15) -> None:
    """Write ``data`` over ``path`` in place, as an image editor saves: the file emptied, then filled
    piece by piece, each piece flushed and followed by a pause (longer than the watcher's 50 ms)."""
    step = -(-len(data) // pieces)
    with path.open("r+b") as fh:
        fh.truncate(0)
        fh.flush()
        for i in range(0, len(data), step):
            time.sleep(pause)
            fh.write(data[i:i + step])
            fh.flush()


@pytest.mark.slow
def test_a_picture_caught_while_it_is_saved_is_never_shown_broken(data, tmp_path):
    session = Session(data, [SLUG], tmp_path / "out")
    first = session.build()
    assert first.ok, first.errors
    shown = []
    session.listeners.append(shown.append)  # every build the page would show, as it is published
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(session, lambda snap: None, stop), daemon=True)
    thread.start()
    try:
        save_until_built(data / "cards.csv", "red-1", "Red King", shown)
        assert shown, "the watcher never built"
        time.sleep(1.5)  # the last of those saves built
        since = len(shown)
        new = png(2)
        write_slowly(data / "art" / "king.png", new)
        digest = content_digest(new)
        deadline = time.monotonic() + 30
        while not any(digest in s.pictures for s in shown[since:]) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(timeout=10)
        session.close()
    during = shown[since:]
    assert during, "no build after the picture was saved"
    assert [s.errors for s in during if s.errors] == []
    assert all("art/king.png" in s.trigger for s in during), [s.trigger for s in during]
    assert digest in during[-1].pictures and content_digest(png(1)) not in during[-1].pictures
