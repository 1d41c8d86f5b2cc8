"""The report's verdict lines agree with their own tables and intervals: a goal never completed and a card
never played are named, card impact names cards by name and id with the largest effects even under the
threshold, a seat-balance warning says when its interval still allows even seats, the decisions line reads per
turn and per decision together, and every plot's text is at least 11 px in a real browser."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from validator.games.pyramid_scheme.report import verdicts as scheme_verdicts
from validator.thresholds import Thresholds
from validator.validate import Options, validate_game
from validator.verdicts import judge
from validator.kit import get_spec


def _scheme_summary(goals, cards):
    return {"outcome": {"deck_exhausted": {"rate": 0.02}}, "goals": goals, "cards": cards}


def _goal(name, dealt, claimed, low, high):
    return {"id": name.lower(), "name": name, "requires": "x", "dealt": dealt, "claimed": claimed,
            "rate": claimed / dealt if dealt else None, "low": low, "high": high, "mean_turn": None}


def _card(cid, name, diff, low, high, placed=40, drawn=60, dead=False):
    return {"id": cid, "name": name, "deck": "victim", "color": "green", "number": 1, "requires": "", "effect": "",
            "drawn": drawn, "placed": placed, "flipped": placed, "flip_rate": 1.0, "win_diff": diff,
            "diff_low": low, "diff_high": high, "dead": dead}


@pytest.fixture(scope="module")
def th():
    return Thresholds().bind(get_spec("pyramid-scheme"))


def by_check(verdicts):
    return {v.check: v for v in verdicts}


def test_the_goals_verdict_follows_its_threshold_rule_at_both_ends(th):
    from validator.kit.stats import wilson

    def goal(name, dealt, claimed):
        return _goal(name, dealt, claimed, *wilson(claimed, dealt))

    # 0 of 93: the interval reaches 4.0%, above the 2% threshold: named, but no warning on that evidence alone
    v = by_check(scheme_verdicts(_scheme_summary([goal("Leveraged", 93, 0), goal("Small Fry", 93, 50)], []), th))
    v = v["goals"]
    assert v.status == "PASS", v.message
    assert "possibly under 2% (the interval reaches above it: too few games to tell): Leveraged never completed " \
           "[0.0, 4.0] in 93 games" in v.message
    # 0 of 400 reaches only 1.0%: surely under 2%
    v = by_check(scheme_verdicts(_scheme_summary([goal("Leveraged", 400, 0)], []), th))["goals"]
    assert v.status == "WARN" and "completed in under 2% of their games (the whole 95% interval below): " \
                                  "Leveraged never completed [0.0, 1.0] in 400 games" in v.message
    # nearly always completed is flagged the same way: 96 of 100 possibly, 990 of 1,000 surely
    v = by_check(scheme_verdicts(_scheme_summary([goal("Small Fry", 100, 96)], []), th))["goals"]
    assert v.status == "PASS" and "possibly over 95% (the interval reaches below it" in v.message
    v = by_check(scheme_verdicts(_scheme_summary([goal("Small Fry", 1000, 990)], []), th))["goals"]
    assert v.status == "WARN" and "completed in over 95% of their games" in v.message and "Small Fry 99.0%" in v.message
    ok = by_check(scheme_verdicts(_scheme_summary([goal("Small Fry", 120, 60)], []), th))["goals"]
    assert ok.status == "PASS" and "the rarest: Small Fry 50.0%" in ok.message


def test_card_impact_names_cards_by_name_and_id_largest_first_even_under_the_threshold(th):
    cards = [_card("g01", "Golf Dad", 0.05, -0.01, 0.11), _card("g15", "Ponzi Pete", -0.16, -0.25, -0.07),
             _card("b02", "Denim Designer", 0.12, 0.03, 0.21), _card("y03", "Lemon Mogul", 0.01, -0.05, 0.07)]
    v = by_check(scheme_verdicts(_scheme_summary([], cards), th))["card impact"]
    assert v.status == "PASS"  # no whole interval beyond 10 points
    assert "Ponzi Pete (g15) -16 [-25, -7], Denim Designer (b02) +12 [+3, +21], Golf Dad (g01) +5" in v.message
    cards[1] = _card("g15", "Ponzi Pete", -0.20, -0.27, -0.13)
    v = by_check(scheme_verdicts(_scheme_summary([], cards), th))["card impact"]
    assert v.status == "WARN" and v.message.index("Ponzi Pete (g15) -20") < v.message.index("next largest")


def test_a_card_never_placed_is_named_even_with_few_chances(th):
    cards = [_card("g01", "Golf Dad", None, None, None, placed=0, drawn=12, dead=True),
             _card("g02", "Mint Farmer", None, None, None, placed=0, drawn=80, dead=True)]
    v = by_check(scheme_verdicts(_scheme_summary([], cards), th))["dead cards"]
    assert v.status == "WARN"
    assert "Mint Farmer (g02) never placed (drawn 80 times)" in v.message
    assert "with fewer than 30 chances: Golf Dad (g01) never placed (drawn 12 times)" in v.message


def _summary_for_judge(seats, games=1000):
    return {"run": {"games": games}, "static": [], "length": {"minutes": {"median": None}, "box_minutes": None},
            "outcome": {"seats": seats, "seat_spread": max(r["rate"] for r in seats) - min(r["rate"] for r in seats),
                        "ties": {"rate": 0.0, "low": 0.0}, "stalls": {"rate": 0.0, "count": 0}},
            "skill": {"matrix": {}, "bots": [], "richness": {"turns_with_choice": {"rate": None}}}}


def _seat(seat, wins, games):
    from validator.kit.stats import rate
    return {**rate(wins, games), "seat": seat}


def test_seat_balance_states_its_interval_and_whether_even_seats_are_ruled_out(th):
    # 100 games per seat: 31 against 21 wins is 10 points, above the 8-point warning, but not surely real
    v = by_check(judge(_summary_for_judge([_seat(1, 31, 100), _seat(2, 25, 100), _seat(3, 21, 100)]), th))
    v = v["seat balance"]
    assert v.status == "WARN" and "at least" not in v.message
    assert "spread 10.0 points between seat 1 and seat 3 (95% interval 0.0 to" in v.message
    assert "does not rule out even seats" in v.message
    # 10,000 games per seat: the same rates are surely uneven
    v = by_check(judge(_summary_for_judge([_seat(1, 3100, 10000), _seat(2, 2500, 10000), _seat(3, 2100, 10000)]),
                       th))["seat balance"]
    assert v.status == "WARN" and "does not rule out" not in v.message and "(95% interval 8.3 to 11.2)" in v.message
    assert "above the 8-point warning with 95% confidence" in v.message


def test_a_spread_of_exactly_the_threshold_is_not_beyond_it(th):
    # 33% - 25% is 0.08000000000000002 in floating point: exactly the 8-point warning, which a spread must
    # exceed to warn
    s = _summary_for_judge([_seat(1, 33, 100), _seat(2, 25, 100), _seat(3, 25, 100)])
    assert 0.33 - 0.25 > 0.08
    v = by_check(judge(s, th))["seat balance"]
    assert v.status == "PASS" and "spread 8.0 points" in v.message, v.message
    over = by_check(judge(_summary_for_judge([_seat(1, 331, 1000), _seat(2, 250, 1000), _seat(3, 250, 1000)]),
                          th))["seat balance"]
    assert over.status == "WARN"  # 8.1 points


@pytest.fixture(scope="module")
def small_report(ps_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("verdicts")
    result = validate_game(ps_data, Options(games=120, players=4, seed=3, workers=1, skill_games=0, out=out))
    return result, out / "pyramid-scheme" / "validation" / "report.html"


def test_the_decisions_line_reads_per_turn_and_per_decision_together(small_report):
    result, _ = small_report
    v = by_check(result.verdicts)["decisions"]
    ri = result.summary["skill"]["richness"]
    assert f"of the {ri['decisions']:,} decisions" in v.message
    assert f"{ri['forced_share'] * 100:.1f}% were forced" in v.message
    assert "of turns hold at least one real choice" in v.message


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")


def test_every_plot_label_is_at_least_11_px_in_a_browser(small_report):
    if not CHROMIUM or not DRIVER:
        pytest.skip("chromium and chromium-driver are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    _, path = small_report
    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", "--window-size=1280,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.get(path.as_uri())
        sizes = driver.execute_script("""
            const out = [];
            for (const t of document.querySelectorAll('.plot svg text')) {
                if (!t.textContent.trim()) continue;
                const m = t.getScreenCTM();
                const scale = Math.sqrt(m.a * m.a + m.b * m.b);
                out.push([t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize) * scale]);
            }
            return out;""")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    assert len(sizes) > 50  # axes, ticks and labels of six plots
    small = [(text, round(px, 1)) for text, px in sizes if px < 11 - 1e-6]
    assert not small, small[:10]
