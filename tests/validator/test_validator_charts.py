"""The report's plots: well-formed inline SVG, every plot drawn, the same from the same figures, and
every bar read back from the SVG (in the axes' own units, from the tick labels) against the figures
of summary.json it is meant to draw."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from svgchart import axes, marks
from validator.kit.html import BLUE, GREEN, GREY, ORANGE, PURPLE, RED
from validator.report import render_html
from validator.validate import Options, validate_game


@pytest.fixture(scope="module")
def report(ps_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    validate_game(ps_data, Options(games=200, players=4, seed=2, workers=1, skill_games=0, out=out))
    folder = out / "pyramid-scheme" / "validation"
    return json.loads((folder / "summary.json").read_text()), (folder / "report.html").read_text()


def test_every_plot_is_well_formed_svg(report):
    summary, html = report
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    # minutes, turns, seats, lead and drama, goals, cards
    assert len(svgs) == 6
    ns = "{http://www.w3.org/2000/svg}"
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.get("viewBox") and root.findall(f".//{ns}text")
        assert len(root.findall(f".//{ns}path")) > 3  # axes and the data


def test_the_report_renders_the_same_from_its_summary(report):
    summary, html = report
    assert render_html(summary) == html  # plots depend on the figures only


# ------------------------------------------------------------------ bars against summary.json
# Each chart is read back from the report's SVG (svgchart: bars in the axes' own units, from the tick
# labels) and compared with the figures in summary.json that it is meant to draw.

SVG = re.compile(r"<svg.*?</svg>", re.S)


def plots(html: str) -> list[str]:
    return SVG.findall(html)


def coloured(bars, colour):
    return [b for b in bars if b.colour == colour]


def close(a: float, b: float, scale: float) -> bool:
    return abs(a - b) <= 1e-3 * max(1.0, scale)


def test_turns_bars_stand_as_high_as_the_games_of_each_length(report):
    summary, html = report
    hist = {int(k): v for k, v in summary["length"]["turns_histogram"].items()}
    [bars] = axes(plots(html)[1])
    bars = coloured(bars, GREY)
    assert len(bars) == len(hist) and sum(hist.values()) == summary["run"]["games"]
    top = max(hist.values())
    for bar in bars:
        turns = round(bar.centre)
        assert close(bar.centre, turns, 1) and turns in hist, bar
        assert close(bar.height, hist[turns], top) and close(bar.bottom, 0, top), (turns, bar.height, hist[turns])


def test_minutes_bars_count_the_games_of_each_whole_minute(report):
    summary, html = report
    per_minute: dict[int, int] = {}
    for minutes, games in summary["length"]["minutes_histogram"].items():
        per_minute[int(float(minutes))] = per_minute.get(int(float(minutes)), 0) + games
    [bars] = axes(plots(html)[0])
    bars = coloured(bars, BLUE)
    assert {round(b.left): round(b.height, 6) for b in bars} == per_minute
    assert sum(round(b.height) for b in bars) == summary["run"]["games"]
    box = summary["length"]["box_minutes"]
    [band] = coloured(axes(plots(html)[0])[0], GREEN)  # the box's playtime band
    assert close(band.left, box[0], box[1]) and close(band.right, box[1], box[1])


def test_seat_bars_are_the_seats_win_rates(report):
    summary, html = report
    seats = summary["outcome"]["seats"]
    [bars] = axes(plots(html)[2])
    bars = sorted(coloured(bars, BLUE), key=lambda b: b.centre)  # x labelled "seat N": left to right
    assert [round(b.height, 3) for b in bars] == [round(r["count"] / r["of"], 3) for r in seats]
    assert len(bars) == summary["run"]["players"]


def test_drama_bars_count_lead_changes_and_when_games_were_decided(report):
    summary, html = report
    drama = summary["drama"]
    left, right = axes(plots(html)[3])
    changes = {int(k): v for k, v in drama["lead_changes"]["histogram"].items()}
    assert {round(b.centre): round(b.height, 6) for b in coloured(left, GREY)} == changes
    decided = {int(k): v for k, v in drama["decided"]["histogram"].items()}
    for bar in coloured(right, BLUE):  # one bar per tenth of the game, at its middle
        start = round(bar.centre) - 5
        games = sum(v for k, v in decided.items() if start <= k < start + 10)
        assert close(bar.height, games, 100), (start, bar.height, games)
    assert len(coloured(right, BLUE)) == 10
    [end] = coloured(right, ORANGE)  # decided only by the last action
    assert close(end.height, decided.get(100, 0), 100)


def test_goal_bars_are_the_goals_completion_rates(report):
    summary, html = report
    goals = [g for g in summary["goals"] if g["dealt"]]
    [bars] = axes(plots(html)[4])
    # barh with the goals' names as y labels: the y axis has no numbers, so bottom and top stay SVG
    # coordinates, which grow downwards: the first goal is the one drawn highest
    bars = sorted(coloured(bars, PURPLE), key=lambda b: b.bottom)
    assert len(bars) == len(goals)
    for bar, goal in zip(bars, goals, strict=True):
        assert close(bar.width, goal["claimed"] / goal["dealt"], 1) and close(bar.left, 0, 1), goal["name"]


def test_card_intervals_are_each_designs_effect_on_its_owners_win_rate(report):
    """The forest plot: per card a line over its 95% interval, in the card's colour, with a dot at the estimate."""
    from matplotlib.colors import to_hex

    from validator.games.pyramid_scheme.report import COLOURS

    summary, html = report
    cards = [c for c in summary["cards"] if c["win_diff"] is not None]
    [drawn] = marks(plot_labelled(html, "win rate when placed minus when not"))
    assert len(drawn.segments) == len(cards) + 1 and len(drawn.dots) == len(cards)  # (+1: the line at 0)
    span = max(c["diff_high"] for c in cards) - min(c["diff_low"] for c in cards)
    for c in cards:
        y = drawn.y_labels[f"{c['name']} ({c['id']})"]
        colour = to_hex(COLOURS.get(c["color"], "#555"))
        [line] = [s for s in drawn.segments if close(s[2], y, 1) and close(s[4], y, 1)]
        assert line[0] == colour and close(line[1], c["diff_low"], span) and close(line[3], c["diff_high"], span), c
        [dot] = [d for d in drawn.dots if close(d[2], y, 1)]
        assert dot[0] == colour and close(dot[1], c["win_diff"], span), c
    [zero] = [s for s in drawn.segments if s[0] == "#1d1d1f"]
    assert close(zero[1], 0, span) and close(zero[3], 0, span)


def plot_labelled(html: str, label: str) -> str:
    """The chart whose text carries ``label`` (an axis title)."""
    [found] = [p for p in plots(html) if label in p]
    return found


@pytest.fixture(scope="module")
def engine_reports(data_for, tmp_path_factory):
    out = tmp_path_factory.mktemp("engines")
    reports = {}
    for slug in ("pyramid-shambo", "drinking-pyramid"):
        validate_game(data_for(slug), Options(games=200, players=4, seed=3, workers=1, skill_games=0, out=out))
        folder = out / slug / "validation"
        reports[slug] = json.loads((folder / "summary.json").read_text()), (folder / "report.html").read_text()
    return reports


def test_shambo_fee_bars_are_the_simulated_shares_beside_uniform_throws(engine_reports):
    summary, html = engine_reports["pyramid-shambo"]
    rows = summary["shambo"]["fees_by_ties"]
    [bars] = axes(plot_labelled(html, "ties before the challenge was won"))
    simulated = sorted(coloured(bars, BLUE), key=lambda b: b.centre)
    uniform = sorted(coloured(bars, GREY), key=lambda b: b.centre)
    assert [round(b.centre + 0.2) for b in simulated] == [r["ties"] for r in rows]
    for bar, r in zip(simulated, rows, strict=True):
        assert close(bar.height, r["challenges"] / sum(x["challenges"] for x in rows), 1), r
    for bar, r in zip(uniform, rows, strict=True):  # k ties then a win, each throw uniform: (1/3)^k x 2/3
        assert round(bar.centre - 0.2) == r["ties"] and abs(bar.height - (1 / 3) ** r["ties"] * 2 / 3) < 1e-4


def test_shambo_place_bars_stack_to_every_game_of_each_seat(engine_reports):
    summary, html = engine_reports["pyramid-shambo"]
    seats = summary["shambo"]["places_by_seat"]
    [bars] = axes(plot_labelled(html, "seat (1 starts)"))
    for seat in seats:
        stack = sorted((b for b in bars if round(b.centre) == seat["seat"]), key=lambda b: b.bottom)
        assert len(stack) == len(seat["places"])
        assert close(stack[0].bottom, 0, 1) and all(close(a.top, b.bottom, 1) for a, b in zip(stack, stack[1:]))
        for bar, games in zip(stack, seat["places"], strict=True):  # first place at the bottom
            assert close(bar.height, games / seat["games"], 1)
        assert close(stack[-1].top, 1, 1)  # every player finishes somewhere


def test_drinking_bars_count_the_sips(engine_reports):
    summary, html = engine_reports["drinking-pyramid"]
    d = summary["drinking"]
    for label, hist, colour in (("sips per player per game", d["sips_histogram"], BLUE),
                                ("sips of the player who drank most, per game", d["worst_histogram"], RED)):
        [bars] = axes(plot_labelled(html, label))
        assert {round(b.centre): round(b.height, 6) for b in coloured(bars, colour)} == \
            {int(k): v for k, v in hist.items()}, label
    assert sum(d["sips_histogram"].values()) == 4 * summary["run"]["games"]  # one count per player per game


def test_compare_plot_draws_each_difference_with_its_interval_coloured_by_its_sign():
    from validator.compare_report import plot_differences

    figures = {"turns": {"difference": 2.5, "low": 1.0, "high": 4.0, "unit": "turns"},
               "seat spread": {"difference": -0.4, "low": -1.5, "high": 0.7, "unit": "points"},
               "minutes": {"difference": -3.0, "low": -5.0, "high": -1.0, "unit": ""},
               "no data": {"difference": None, "low": None, "high": None, "unit": ""}}
    [drawn] = marks(plot_differences(figures))
    expected = {"turns (turns)": (RED, figures["turns"]), "seat spread (points)": (GREY, figures["seat spread"]),
                "minutes": (GREEN, figures["minutes"])}
    assert set(drawn.y_labels) == set(expected) and len(drawn.dots) == 3
    for label, (colour, f) in expected.items():
        y = drawn.y_labels[label]
        [line] = [s for s in drawn.segments if close(s[2], y, 1) and close(s[4], y, 1) and s[0] == colour.lower()]
        assert close(line[1], f["low"], 10) and close(line[3], f["high"], 10), label
        [dot] = [d for d in drawn.dots if close(d[2], y, 1)]
        assert dot[0] == colour.lower() and close(dot[1], f["difference"], 10), label


def x_ticks(svg_text: str) -> list[list[str]]:
    """Each axes' x tick labels, left to right."""
    ns = {"svg": "http://www.w3.org/2000/svg"}
    out = []
    for ax in ET.fromstring(svg_text).iter(f"{{{ns['svg']}}}g"):
        if re.fullmatch(r"axes_\d+", ax.get("id", "")):
            ticks = [g for g in ax.iter(f"{{{ns['svg']}}}g") if g.get("id", "").startswith("xtick")]
            out.append([t.text.replace("\u2212", "-") for tick in ticks for t in tick.iterfind(".//svg:text", ns)])
    return out


def test_a_narrow_histogram_of_counts_has_whole_number_ticks_and_room_beside_it():
    """Every game six turns long, no game with more than one lead change: a bar or two among whole-number ticks,
    not one bar filling the axes over ticks at 5.6, 5.8, ... nor an axis of -2 lead changes."""
    from validator.report import plot_drama, plot_turns

    [turns] = x_ticks(plot_turns({"turns_histogram": {"6": 300}}))
    assert all(re.fullmatch(r"\d+", t) for t in turns), turns
    assert int(turns[-1]) - int(turns[0]) >= 5 and int(turns[0]) <= 6 <= int(turns[-1])
    [bars] = axes(plot_turns({"turns_histogram": {"6": 300}}))
    [bar] = coloured(bars, GREY)
    assert close(bar.centre, 6, 1) and close(bar.height, 300, 300)
    drama = {"lead_changes": {"histogram": {"0": 240, "1": 60}}, "decided": {"histogram": {"55": 190, "100": 110}}}
    changes, _ = x_ticks(plot_drama(drama))
    assert changes[0] == "0" and all(re.fullmatch(r"\d+", t) for t in changes) and len(changes) >= 5, changes
