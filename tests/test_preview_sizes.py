"""The preview page shows every component at its relative size (a 25 mm token smaller than
a 63.5 mm card, by their widths in millimetres), and counts in words ("1 warning", never
"warning(s)")."""

from __future__ import annotations

import pytest

from test_preview import browser, served, wait_for  # noqa: F401 - the page served and a browser to read it

POKER, TOKEN = 63.5 + 2 * 3, 25.4 + 2 * 2  # widths with their bleed, mm


def test_components_show_at_their_relative_size_and_counts_read_as_words(served, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    server, _ = served
    d = browser
    d.get(server.url)
    wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '.card[data-id="t-reset"] svg'), what="the cards")

    def width(ident: str) -> float:
        return d.execute_script("return arguments[0].getBoundingClientRect().width",
                                d.find_element(By.CSS_SELECTOR, f'.card[data-id="{ident}"] .side svg'))

    card, token, aid = width("g01"), width("t-reset"), width("aid")
    assert token / card == pytest.approx(TOKEN / POKER, rel=0.02)
    assert aid / card == pytest.approx((88.9 + 6) / POKER, rel=0.02)
    assert token < card < aid
    # a tile is as wide as what it shows (a token's tile narrower than a card's)
    tile = d.execute_script("return arguments[0].getBoundingClientRect().width",
                            d.find_element(By.CSS_SELECTOR, '.card[data-id="t-reset"]'))
    assert tile < 2 * card
    words = d.execute_script("return [plural(1, 'warning'), plural(2, 'warning'), plural(0, 'error')]")
    assert words == ["1 warning", "2 warnings", "0 errors"]
    assert "(s)" not in d.find_element(By.TAG_NAME, "body").text
