"""pnp preview: the page in a real browser (Debian's chromium, driven by Selenium):
cards by deck, warnings on their cards, a click shows the row, an edit refreshes
the page by itself, data errors replace the cards until the next good save.

Set PNP_SCREENSHOTS=DIR to keep the screenshots the test takes."""

import contextlib
import json
import os
import shutil
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from preview.server import PreviewServer
from preview.session import Session

from helpers import copy_game, find_row, set_cell

SLUG = "pyramid-scheme"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")


@contextlib.contextmanager
def serving(session: Session):
    """A preview server of ``session`` (no watcher: a test builds itself) on a free port, answering."""
    server = PreviewServer(session, port=0, watch_files=False)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(server.url + "api/state", timeout=2).read()
            break
        except OSError:
            time.sleep(0.1)
    try:
        yield server
    finally:
        server.stop()
        thread.join(timeout=10)


@pytest.fixture
def served(tmp_path):
    data = copy_game(tmp_path / "data")
    session = Session(data, [SLUG], tmp_path / "out")
    session.build()
    # no watcher: the tests build after each edit themselves (what the watcher does after a save), so
    # the page sees exactly the builds a test makes; the watcher has a test of its own below
    with serving(session) as server:
        yield server, data
    session.close()


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_the_server_listens_on_localhost_and_gives_the_state(served):
    server, data = served
    assert server.url.startswith("http://127.0.0.1:")
    state = get_json(server.url + "api/state")
    decks = state["games"][0]["decks"]
    assert [d["name"] for d in decks][:2] == ["victim", "police"]
    card = decks[0]["cards"][0]
    assert (card["id"], card["sheet"], card["row"]) == ("g01", "cards.csv", 2)
    svgs = get_json(server.url + "api/svg?keys=" + card["front"])
    assert svgs[card["front"]].startswith("<svg")
    with urllib.request.urlopen(server.url + "fonts/DejaVuSans.ttf", timeout=10) as r:
        assert r.headers["Content-Type"] == "font/ttf"
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(server.url + "fonts/..%2Fsecret", timeout=10)


@pytest.fixture
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait_for(predicate, timeout=30.0, what="the page"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # noqa: BLE001 - the page may be between two renders
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def shot(driver, name):
    folder = os.environ.get("PNP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def test_the_page_shows_the_cards_refreshes_on_save_and_shows_errors(served, browser):
    from selenium.webdriver.common.by import By

    server, data = served
    cards_csv = data / "cards.csv"
    # a name that is markup, and a value in a column the deck does not use (a warning on that card)
    set_cell(cards_csv, find_row(cards_csv, "id", "g03"), "name", "<b>Gnome</b> & <script>x=1</script>")
    set_cell(cards_csv, find_row(cards_csv, "id", "g04"), "symbol", "leaf")
    server.session.build([cards_csv])

    d = browser
    d.get(server.url)
    wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '.card[data-id="g01"] svg'), what="the cards")
    # the event stream opens with the build already shown: the page is not drawn again
    wait_for(lambda: d.find_element(By.ID, "dot").get_attribute("class") == "live", what="the event stream")
    time.sleep(0.5)
    assert d.find_element(By.TAG_NAME, "body").get_attribute("data-drawn") == "1"
    headings = [h.text.split("\n")[0] for h in d.find_elements(By.CSS_SELECTOR, ".deck h3")]
    assert headings == ["Victims", "Police", "Founders", "Goals", "Tokens", "Player aids"]  # the manifest's order
    aids = next(h.text for h in d.find_elements(By.CSS_SELECTOR, ".deck h3") if h.text.startswith("Player aids"))
    assert "1 design · 4 components" in aids  # not "1 designs"
    tiles = d.find_elements(By.CSS_SELECTOR, ".card")
    assert len(tiles) == 92
    g01 = d.find_element(By.CSS_SELECTOR, '.card[data-id="g01"]')
    assert len(g01.find_elements(By.CSS_SELECTOR, ".side svg")) == 2  # front and back
    assert "cards.csv row 2" in g01.find_element(By.CSS_SELECTOR, ".where").text
    # the browser draws the card's text with the embedded fonts
    assert d.execute_script("return document.fonts.check('12px \"DejaVu Sans\"')")
    gnome = d.find_element(By.CSS_SELECTOR, '.card[data-id="g03"] .name')
    assert gnome.text == "<b>Gnome</b> & <script>x=1</script>"  # shown as text, never as markup
    assert d.execute_script("return typeof x") == "undefined"
    warned = d.find_element(By.CSS_SELECTOR, '.card[data-id="g04"]')
    assert "warned" in warned.get_attribute("class")
    assert "symbol" in warned.find_element(By.CSS_SELECTOR, ".problems").text
    shot(d, "preview-cards")

    warned.click()  # the row's values and a large picture
    modal = wait_for(lambda: d.find_element(By.CSS_SELECTOR, "#modal.open"), what="the card's window")
    values = {r.find_element(By.TAG_NAME, "th").text: r.find_element(By.TAG_NAME, "td").text
              for r in modal.find_elements(By.CSS_SELECTOR, "table.values tr")}
    assert values["id"] == "g04" and values["name"] == "Kale Enthusiast"
    assert modal.find_elements(By.CSS_SELECTOR, ".big svg")
    shot(d, "preview-card")
    d.find_element(By.ID, "close").click()

    version = int(d.find_element(By.TAG_NAME, "body").get_attribute("data-version"))
    set_cell(cards_csv, find_row(cards_csv, "id", "g01"), "name", "Penny Saver")
    server.session.build([cards_csv])  # what the watcher does after a save
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, '.card[data-id="g01"] .name').text == "Penny Saver",
             timeout=10, what="the edit to show")
    assert int(d.find_element(By.TAG_NAME, "body").get_attribute("data-version")) > version
    assert "Penny Saver" in d.find_element(By.CSS_SELECTOR, '.card[data-id="g01"] .side svg').get_attribute(
        "innerHTML")

    row = find_row(cards_csv, "id", "g05")
    set_cell(cards_csv, row, "number", "seven")
    server.session.build([cards_csv])
    banner = wait_for(lambda: d.find_element(By.ID, "errors").is_displayed() and d.find_element(By.ID, "errors"),
                      timeout=10, what="the errors")
    assert f"error cards.csv:{row}:number: 'seven' is not a whole number" in banner.text
    assert "Fix the sheet or template and save" in banner.text
    assert not d.find_elements(By.CSS_SELECTOR, ".card")
    shot(d, "preview-errors")

    set_cell(cards_csv, row, "number", "1")
    server.session.build([cards_csv])
    wait_for(lambda: len(d.find_elements(By.CSS_SELECTOR, ".card")) == 92, timeout=10, what="the cards again")
    assert not d.find_element(By.ID, "errors").is_displayed()


def test_a_save_reaches_the_page_through_the_watcher(tmp_path, browser):
    from selenium.webdriver.common.by import By

    data = copy_game(tmp_path / "data")
    session = Session(data, [SLUG], tmp_path / "out")
    session.build()
    server = PreviewServer(session, port=0)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        browser.get(server.url)
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, '.card[data-id="g02"]'), what="the cards")
        cards_csv = data / "cards.csv"
        n = 0

        def edited():
            nonlocal n
            text = browser.find_element(By.CSS_SELECTOR, '.card[data-id="g02"] .name').text
            if text.startswith("Lawn Ranger"):
                return True
            n += 1
            if n % 20 == 1:  # save again until the watcher (which takes a moment to start) sees it
                set_cell(cards_csv, find_row(cards_csv, "id", "g02"), "name", f"Lawn Ranger {n}")
            return False
        wait_for(edited, timeout=60, what="the saved row to show")
    finally:
        server.stop()
        thread.join(timeout=10)
        session.close()


def line_by_line_difference(shown, paper, band: slice) -> float:
    """The mean difference of the lines of text in the rows ``band`` of two pictures (arrays), each
    line compared at its best of one screen pixel up, none or one down: the browser puts each line's
    baseline on a whole pixel of the screen, while the export (drawn at 300 dpi and scaled down)
    keeps it where the PDF has it, so a line may sit a pixel apart with nothing wrong in it."""
    import numpy as np

    ink = np.concatenate([[0], (paper[band].mean(axis=2) < 128).any(axis=1).astype(int), [0]])
    total = size = 0.0
    for first, end in np.flatnonzero(np.diff(ink)).reshape(-1, 2) + band.start:
        top, bottom = first - 2, end + 2  # the line, with a margin
        total += min(np.abs(shown[top + dy:bottom + dy] - paper[top:bottom]).sum() for dy in (-1, 0, 1))
        size += paper[top:bottom].size
    return total / size


def test_the_page_shows_pictures_icons_and_styles_as_the_pdf_does(tmp_path, browser):
    """The art game's first card, in the browser and in the PNG export (drawn from the PDF), pixel by pixel."""
    import io

    import numpy as np
    from PIL import Image, ImageFilter
    from selenium.webdriver.common.by import By

    from generator.build import BuildOptions, build_game
    from model.sheets import load_project

    from helpers import art_game

    data = art_game(tmp_path / "data")
    session = Session(data, ["tomb"], tmp_path / "out")
    session.build()
    server = PreviewServer(session, port=0, watch_files=False)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        digest = next(iter(session.snapshot.pictures))
        with urllib.request.urlopen(server.url + f"pictures/{digest}", timeout=10) as r:
            assert r.headers["Content-Type"] in ("image/jpeg", "image/png", "image/svg+xml")
        with pytest.raises(urllib.error.HTTPError):  # only the pictures the build placed, by digest
            urllib.request.urlopen(server.url + "pictures/" + "0" * 32, timeout=10)
        d = browser
        d.get(server.url)
        front = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '.card[data-id="r1"] .side svg'), what="the card")
        wait_for(lambda: d.execute_script(
            "return document.fonts.status === 'loaded' && performance.getEntriesByType('resource')"
            ".filter(e => e.name.includes('/pictures/')).length >= 2"), what="the pictures")
        time.sleep(0.5)
        assert d.execute_script("return document.fonts.check('italic 12px \"DejaVu Serif\"')")
        front.click()  # the large picture of the card
        big = wait_for(lambda: d.find_element(By.CSS_SELECTOR, "#modal.open .big .side svg"), what="the large card")
        time.sleep(0.5)
        shown = Image.open(io.BytesIO(big.screenshot_as_png)).convert("RGB")
        assert shown.size[0] > 250
        game = load_project(data, ["tomb"]).games["tomb"]
        export = build_game(game, BuildOptions(out=tmp_path / "export", targets=("png-cards",),
                                               settings={"png-cards": {"dpi": 300}}), reference=False, write=False)
        png = next(v for k, v in export.data.items() if k.name == "tomb-relic-r1-front.png")
        paper = Image.open(io.BytesIO(png)).convert("RGB").resize(shown.size, Image.LANCZOS)
        a, b = np.asarray(shown, float)[6:-6, 6:-6], np.asarray(paper, float)[6:-6, 6:-6]  # not the round corners
        shot(d, "preview-pictures")
        assert np.abs(a - b).mean() < 6  # the same picture, text and icons at the same places
        top = slice(0, int(a.shape[0] * 0.4))  # the photograph alone
        assert np.abs(a[top] - b[top]).mean() < 6
        text = slice(int(a.shape[0] * 0.55), int(a.shape[0] * 0.75))  # the rules text with its styles and icons
        # softened by a screen pixel, as the eye sees it: the browser's hinting and the export's scaling draw the
        # edges of small letters apart; a word in another style or place still differs (the bold word regular: 5.8, all
        # italic: 6.3, as it should be: 4.4)
        soft = [np.asarray(p.filter(ImageFilter.GaussianBlur(1)), float)[6:-6, 6:-6] for p in (shown, paper)]
        assert line_by_line_difference(*soft, text) < 5.5
    finally:
        server.stop()
        thread.join(timeout=10)
        session.close()
