"""The preview page shows every component at its relative size (a 30 mm chip smaller than a
poker card, by their widths in millimetres), and counts in words ("1 warning", never
"warning(s)").  On the marker game (``printed.py``)."""

from __future__ import annotations

import threading

import pytest

from preview.server import PreviewServer
from preview.session import Session

from printed import SLUG, marker_game
from test_preview import browser, wait_for  # noqa: F401 - a browser to read the page with

POKER, CHIP, TILE = 63.5 + 2 * 3, 30 + 2 * 2, 50 + 2 * 2  # widths with their bleed, mm


def test_components_show_at_their_relative_size_and_counts_read_as_words(tmp_path, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    session = Session(marker_game(tmp_path / "data"), [SLUG], tmp_path / "out")
    session.build()
    server = PreviewServer(session, port=0, watch_files=False)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        d = browser
        d.get(server.url)
        wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '.card[data-id="chip01"] svg'), what="the cards")

        def width(selector: str) -> float:
            return d.execute_script("return arguments[0].getBoundingClientRect().width",
                                    d.find_element(By.CSS_SELECTOR, selector))

        card, chip, tile = (width(f'.card[data-id="{i}"] .side svg') for i in ("card01", "chip01", "tile01"))
        assert chip / card == pytest.approx(CHIP / POKER, rel=0.02)
        assert tile / card == pytest.approx(TILE / POKER, rel=0.02)
        # a tile of the page is as wide as what it shows: a chip's (one side) narrower than a card's (two)
        assert width('.card[data-id="chip01"]') < width('.card[data-id="card01"]')
        words = d.execute_script("return [plural(1, 'warning'), plural(2, 'warning'), plural(0, 'error')]")
        assert words == ["1 warning", "2 warnings", "0 errors"]
        assert "(s)" not in d.find_element(By.TAG_NAME, "body").text
    finally:
        server.stop()
        thread.join(timeout=10)
        session.close()
