"""The preview page shows SVG a game folder's templates wrote, and a folder is data (docs/security.md):
whatever a template writes, the page shows a drawing and nothing else. The server serves each design
cut down to its drawing (no style sheet, script, foreign object, feImage, animation, event handler,
link or reference outside it), every response carries a strict Content-Security-Policy, and in a real
browser a page whose cards were written to restyle it, fetch from elsewhere and run script when
clicked does none of it."""

from __future__ import annotations

import http.client
import http.server
import json
import re
import shutil
import threading
import time
import urllib.request

import pytest

from preview.session import Session
from preview.svgsafe import clean_svg

from helpers import REPO
from test_preview import browser, serving, wait_for  # noqa: F401 - the browser fixture, shared

SLUG = "tiny-tombs"


class Listener:
    """A tiny HTTP server on a free port of 127.0.0.1 that records every request it gets."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self):
                hits.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST = do_OPTIONS = do_HEAD = _answer

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def hostile_body(at: str) -> str:
    """The SVG a penetration test's template wrote (``at``: the listener's address), and variants of it.
    The links are drawn last, on top, each over a part of the card of its own, to be clicked. (A ``style``
    attribute holds no colon but its own: the build reads it, and an address with one stops the build;
    written with CSS escapes, an address needs none.)"""
    escaped = at.replace(":", "\\3a ")
    return f"""
<style>@import url({at}/css-import); body {{ background: url({at}/css-bg) }} header {{ display: none !important }}
.warnings, #warnings {{ display: none !important }}</style>
<defs><filter id="f"><feImage href="{at}/feimage" width="10" height="10"/></filter></defs>
<rect x="0" y="0" width="20" height="20" filter="url(#f)"/>
{{{{ picture(card.art, 40, 70, 20, 20) }}}}
<script>fetch("{at}/script")</script>
<script xlink:href="{at}/script-src" xmlns:xlink="http://www.w3.org/1999/xlink"/>
<foreignObject x="0" y="0" width="50" height="50"><div xmlns="http://www.w3.org/1999/xhtml"><img src="{at}/fo-img"/>
<iframe src="{at}/fo-iframe"></iframe></div></foreignObject>
<svg onload="fetch('{at}/onload')" width="5" height="5"><rect width="5" height="5" fill="blue"/></svg>
<rect x="40" y="0" width="5" height="5"
 style="fill: url({escaped}/style-fill#p); mask-image: image-set('{escaped}/style-set' 1x)"/>
<rect x="50" y="0" width="5" height="5" fill="url({at}/fill#p)" clip-path="url({at}/clip#c)" mask="url({at}/mask#m)"
 cursor="url({at}/cursor), auto"/>
<use href="{at}/use.svg#x"/>
<animate attributeName="fill" values="red;blue" dur="1s"/><set attributeName="onbegin" to="fetch('{at}/set')"/>
<a href="#"><animate attributeName="href" values="javascript:fetch('{at}/js-anim')" begin="0s" fill="freeze"/>
<rect id="clk4" x="0" y="84" width="10" height="10"/></a>
<a xlink:href="JaVaScRiPt:fetch('{at}/js-xlink')" xmlns:xlink="http://www.w3.org/1999/xlink">
<rect id="clk2" x="0" y="60" width="30" height="20" fill="green"/></a>
<a href=" javascript:fetch('{at}/js-space')"><rect id="clk3" x="35" y="60" width="30" height="20" fill="purple"/></a>
<g onclick="fetch('{at}/onclick')"><rect id="clk5" x="35" y="30" width="30" height="20" fill="orange"/></g>
<a href="java&#x09;script:fetch('{at}/js-tab')"><rect id="clk" x="0" y="25" width="30" height="30" fill="red"/></a>
<text x="20" y="90" font-family="DejaVu Serif" font-size="4" fill="#000000">Still drawn</text>
"""


@pytest.fixture(scope="module")
def listener():
    found = Listener()
    yield found
    found.close()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, listener):
    """``pnp preview`` of the documentation's game, whose card template writes :func:`hostile_body`."""
    data = tmp_path_factory.mktemp("hostile") / "data"
    shutil.copytree(REPO / "docs" / "example", data, ignore=shutil.ignore_patterns("output", "rules"))
    (data / "templates" / SLUG / "relic.svg.j2").write_text(
        '{% extends "pnp/card.svg.j2" %}{% block body %}' + hostile_body(listener.url) + "{% endblock %}",
        encoding="utf-8")
    session = Session(data, [SLUG], data / "output")
    session.build()
    assert not session.snapshot.errors, session.snapshot.errors
    with serving(session) as server:
        yield server
    session.close()


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.headers, r.read()


def served_fronts(server) -> dict[str, str]:
    """The SVG the server gives for the front of each relic (the hostile template's cards): card id -> text."""
    state = json.loads(get(server.url + "api/state")[1])
    cards = [c for g in state["games"] for d in g["decks"] if d["name"] == "relic" for c in d["cards"]]
    svgs = json.loads(get(server.url + "api/svg?keys=" + ",".join(c["front"] for c in cards))[1])
    return {c["id"]: svgs[c["front"]] for c in cards}


FORBIDDEN = re.compile(r"<\s*(style|script|foreignObject|iframe|feImage|animate|set|a)\b|javascript|\bon[a-z]+\s*=|"
                       r"@import|url\(\s*['\"]?(?!#)|image-set|\\|127\.0\.0\.1", re.I)


def test_the_server_serves_a_templates_svg_cut_down_to_its_drawing(hostile):
    assert hostile.session.snapshot.svgs  # the build kept what the template wrote, as the PDF reads it
    assert any("<style>" in t and "java&#x09;script" in t for t in hostile.session.snapshot.svgs.values())
    fronts = served_fronts(hostile)
    assert set(fronts) == {"scarab", "mask", "urn", "ankh"}
    for text in fronts.values():
        assert not FORBIDDEN.search(text), FORBIDDEN.search(text)
        # the drawing stays: the shapes, the links' shapes, the text, the filter's reference in the drawing
        for kept in ('id="clk"', 'id="clk2"', 'id="clk3"', 'id="clk5"', ">Still drawn</text>", 'filter="url(#f)"',
                     'fill="blue"'):
            assert kept in text


CASES = [
    ('<a xlink:href="JaVaScRiPt:alert(1)"><rect id="r"/></a>', '<g><rect id="r"/></g>', "alert"),
    ('<use href=" javascript:alert(1)"/><use xlink:href="&#10;JAVA&#13;SCRIPT:alert(1)"/>', "<use/><use/>", "alert"),
    ('<use href=" #r "/><use href="#&#x200b;r"/>', '<use href="#r"/><use href="#r"/>', " #r"),
    ('<rect onload="alert(1)" ONCLICK="alert(1)" width="3"/>', '<rect width="3"/>', "alert"),
    ('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject><rect/>', "<rect/>",
     "foreignObject"),
    ("<script>alert(1)</script><rect/>", "<rect/>", "script"),
    ('<style>body { background: red }</style><rect style="fill: red"/>', '<rect style="fill: red"/>', "<style"),
    ('<rect style="fill: url(http://x/y#z)"/><rect fill="url(&quot;http://x&quot;)"/>', "<rect/><rect/>", "http"),
    ('<rect style="background: u\\72 l(http://x)"/><rect style="@import \'x\'"/><rect style="width: expression(1)"/>',
     "<rect/><rect/><rect/>", "x"),
    ('<rect fill="url(#g)" transform="rotate(30 1 1) translate(1,2)" stroke="rgb(1,2,3)"/>',
     '<rect fill="url(#g)" transform="rotate(30 1 1) translate(1,2)" stroke="rgb(1,2,3)"/>', "@"),
    ('<filter id="f"><feImage href="#r"/><feGaussianBlur stdDeviation="1"/></filter>',
     '<filter id="f"><feGaussianBlur stdDeviation="1"/></filter>', "feImage"),
    ('<animate attributeName="href" to="javascript:x"/><set attributeName="x" to="1"/><rect/>', "<rect/>", "animate"),
    ('<h:title xmlns:h="http://www.w3.org/1999/xhtml">x</h:title><?xml-stylesheet href="http://x"?><!-- x --><rect/>',
     "<rect/>", "x"),
    ('<image href="http://x/y.png"/>'
     '<image href="art/a.png" data-pnp-picture="png 0123456789abcdef0123456789abcdef 1 1 1"/>',
     'href="/pictures/0123456789abcdef0123456789abcdef"', "http"),
    ('<rect class="card" xml:base="http://x/" x:y="1" xmlns:x="urn:x"/>', "<rect/>", "http"),
]


@pytest.mark.parametrize("body, kept, dropped", CASES)
def test_clean_svg_keeps_the_drawing_and_drops_the_rest(body, kept, dropped):
    text = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10mm" '
            f'height="10mm">{body}</svg>')
    out = clean_svg(text)
    inner = out.split(">", 1)[1]
    assert kept in inner
    assert dropped not in inner


def test_clean_svg_takes_the_outermost_svg_out_of_the_pages_way():
    out = clean_svg('<svg xmlns="http://www.w3.org/2000/svg" id="modal" class="open" style="position: fixed" '
                    'overflow="visible" onload="alert(1)" width="63mm" viewBox="0 0 63 88"><rect/></svg>')
    assert out == '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" viewBox="0 0 63 88"><rect/></svg>'
    assert clean_svg("<html/>") == clean_svg("not xml") == "<unreadable-svg/>"
    assert clean_svg('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                     '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>').count("root:") == 0


CSP = {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'", "object-src": "'none'",
       "base-uri": "'none'", "form-action": "'none'", "frame-ancestors": "'none'", "connect-src": "'self'",
       "font-src": "'self'"}


def raw_headers(port: int, path: str, host: str) -> tuple[int, dict[str, str]]:
    """The status and headers of a GET with this Host header (the body, an event stream too, is not read)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", path, skip_host=True)
    conn.putheader("Host", host)
    conn.endheaders()
    r = conn.getresponse()
    headers = {k.lower(): v for k, v in r.getheaders()}
    conn.close()
    return r.status, headers


def test_every_response_carries_a_strict_content_security_policy(hostile):
    port = int(hostile.url.rsplit(":", 1)[1].strip("/"))
    digest = next(iter(hostile.session.snapshot.pictures))
    state = json.loads(get(hostile.url + "api/state")[1])
    key = state["games"][0]["decks"][0]["cards"][0]["front"]
    here = f"127.0.0.1:{port}"
    for path, host, status in [("/", here, 200), ("/preview.js", here, 200), ("/preview.css", here, 200),
                               ("/api/state", here, 200), (f"/api/svg?keys={key}", here, 200),
                               ("/fonts.css", here, 200), ("/fonts/DejaVuSans.ttf", here, 200),
                               (f"/pictures/{digest}", here, 200), ("/pictures/" + "0" * 32, here, 404),
                               ("/nothing", here, 404), ("/events", here, 200), ("/", "evil.example", 421),
                               ("/api/state", f"localhost:{port}", 200)]:
        got, headers = raw_headers(port, path, host)
        assert got == status, (path, host, got)
        assert headers.get("x-content-type-options") == "nosniff", path
        assert headers.get("referrer-policy") == "no-referrer", path
        policy = dict((d.strip().split(" ", 1) + [""])[:2] for d in headers["content-security-policy"].split(";"))
        if path.startswith("/pictures/") and status == 200:
            assert policy["default-src"] == "'none'"  # an SVG picture keeps its own, stricter one
            continue
        for directive, value in CSP.items():
            assert policy.get(directive) == value, (path, directive, policy)
        assert "'unsafe-inline'" not in policy["script-src"] and "'unsafe-eval'" not in policy["script-src"]
        assert set(policy["img-src"].split()) <= {"'self'", "data:", "blob:"}
    _, page = get(hostile.url)
    assert b"<script>" not in page and b"<style>" not in page  # nothing inline: the policy allows none
    assert not re.search(rb"\s(style|on[a-z]+)\s*=", page)


@pytest.mark.slow
def test_a_hostile_card_loads_nothing_runs_nothing_and_leaves_the_page_alone(hostile, listener, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    listener.hits.clear()
    d.get(hostile.url)
    wait_for(lambda: len(d.find_elements(By.CSS_SELECTOR, '.card[data-id="scarab"] .side > svg')) == 2,
             what="the cards")
    wait_for(lambda: d.execute_script("return document.fonts.status === 'loaded'"), what="the fonts")
    time.sleep(1.0)
    assert d.execute_script("return document.fonts.check('12px \"DejaVu Serif\"')")
    background = d.execute_script("const s = getComputedStyle(document.body); "
                                  "return [s.backgroundColor, s.backgroundImage]")
    header = d.find_element(By.TAG_NAME, "header").is_displayed()
    # the drawing is there, the rest is not
    card = d.find_element(By.CSS_SELECTOR, '.card[data-id="scarab"]')
    shown = card.find_element(By.CSS_SELECTOR, ".side > svg").get_attribute("outerHTML")
    assert 'id="clk"' in shown and "Still drawn" in shown

    for rect in ("clk", "clk2", "clk3", "clk4", "clk5"):
        target = card.find_element(By.CSS_SELECTOR, f'svg [id="{rect}"]')
        target.click()
        wait_for(lambda: d.find_element(By.CSS_SELECTOR, "#modal.open"), what="the card's window")
        big = d.find_element(By.CSS_SELECTOR, f'#modal.open .big .side > svg [id="{rect}"]')
        big.click()  # the large picture's link too
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        wait_for(lambda: not d.find_elements(By.CSS_SELECTOR, "#modal.open"), what="the window to close")
    time.sleep(1.5)
    assert listener.hits == [], " ".join(sorted(set(listener.hits)))
    assert background == ["rgb(244, 241, 234)", "none"]  # the page's own, var(--bg)
    assert header
    assert not FORBIDDEN.search(shown.replace('xmlns="http://www.w3.org/2000/svg"', "")), FORBIDDEN.search(shown)
    assert d.current_url == hostile.url  # no link followed
    assert d.execute_script("const s = getComputedStyle(document.body); "
                            "return [s.backgroundColor, s.backgroundImage]") == background
    assert d.find_element(By.TAG_NAME, "header").is_displayed()
    # every resource the page loaded is its own
    names = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert names and all(n.startswith(hostile.url) for n in names), names
    # and the page still works: a click opens the card's row
    card.find_element(By.CSS_SELECTOR, ".caption").click()
    modal = wait_for(lambda: d.find_element(By.CSS_SELECTOR, "#modal.open"), what="the card's window")
    assert "Golden Scarab" in modal.text


@pytest.mark.slow
def test_the_pages_own_sanitizer_cuts_a_raw_svg_down_to_its_drawing(hostile, browser):
    """The page cleans each SVG again (for a server that did not): its cleanSvg, given the text the template wrote."""
    from selenium.webdriver.common.by import By

    d = browser
    d.get(hostile.url)
    wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '.card[data-id="scarab"] .side > svg'), what="the cards")
    raw = [t for t in hostile.session.snapshot.svgs.values() if "<style>" in t]
    variants = [case[0] for case in CASES]
    wrap = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10mm">'
            '{}<rect id="kept"/></svg>')
    cleaned = d.execute_script("return arguments[0].map(t => { const n = cleanSvg(t); "
                               "return n ? new XMLSerializer().serializeToString(n) : null; })",
                               raw + [wrap.format(v) for v in variants])
    assert len(cleaned) == len(raw) + len(variants)
    for text, out in zip(raw + variants, cleaned):
        assert out is not None, text
        assert not FORBIDDEN.search(out.replace('xmlns="http://www.w3.org/2000/svg"', "")), (text, out)
        assert 'id="clk"' in out or 'id="kept"' in out
        assert not re.search(r'\sclass=|xml:base|\shref="(?!#|/pictures/[0-9a-f]{32}")', out), (text, out)
    assert d.execute_script("return cleanSvg('<html/>')") is None
