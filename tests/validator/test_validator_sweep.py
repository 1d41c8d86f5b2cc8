"""Seat balance by player count, engine-chosen bots and skill matrices, the
replay's turn cap, and problem ordering."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from model.errors import Problem
from model.sheets import load_project
from pnp.cli import main
from validator.metrics import Tally
from validator.summary import players_summary, skill_bots
from validator.validate import Options, replay, validate_game
from validator.kit import get_spec


def test_players_summary_gives_each_seat_and_the_start_players_edge():
    two, three = Tally(), Tally()
    two.games, three.games = 100, 90
    two.seat_games.update({0: 100, 1: 100})
    two.seat_wins.update({0: 70, 1: 30})
    three.seat_games.update({0: 90, 1: 90, 2: 90})
    three.seat_wins.update({0: 30, 1: 30, 2: 30})
    rows = players_summary({3: three, 2: two})
    assert [r["players"] for r in rows] == [2, 3]
    first = rows[0]
    assert first["seats"][0]["rate"] == 0.7 and first["fair_share"] == 0.5
    assert first["first_edge"]["value"] == pytest.approx(0.2)
    assert first["first_edge"]["low"] > 0  # 70 of 100 is clearly above a fair half
    even = rows[1]["first_edge"]
    assert even["value"] == pytest.approx(1 / 3 - 1 / 3, abs=1e-4) and even["low"] < 0 < even["high"]


def test_validate_with_several_player_counts_reports_each(project_root, tmp_path):
    result = CliRunner().invoke(main, ["validate", "pyramid-scheme", "--data", str(project_root), "--games", "60",
                                       "--players", "3,2", "--skill-games", "0", "--workers", "1",
                                       "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    folder = tmp_path / "pyramid-scheme" / "validation"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["run"]["players"] == 3
    assert [b["players"] for b in summary["players"]] == [2, 3]
    assert summary["players"][0]["games"] == summary["players"][1]["games"] == 60  # the games asked for
    assert "seat balance, 2 players: 60 games; share of the wins by seat" in " ".join(result.output.split())
    assert len(summary["players"][0]["seats"]) == 2
    assert "Seat balance by player count" in (folder / "report.html").read_text()


def test_players_out_of_range_is_one_clear_line(project_root, tmp_path):
    result = CliRunner().invoke(main, ["validate", "pyramid-scheme", "--data", str(project_root), "--games", "5",
                                       "--players", "4,7", "--skill-games", "0", "--workers", "1",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2  # a mistake on the command line, not a FAIL verdict
    assert "Pyramid Scheme takes 2-4 players, not 7" in result.output
    bad = CliRunner().invoke(main, ["validate", "pyramid-scheme", "--players", "four"])
    assert bad.exit_code == 2 and "'four' is not a player count" in bad.output


@pytest.mark.parametrize("slug,bots,default,games", [
    ("pyramid-scheme", ("random", "greedy", "search"), "greedy", 60),
    ("pyramid-shambo", ("naive", "smart"), "smart", 2000),
    ("drinking-pyramid", ("tipsy", "average", "sharp"), "average", 1000),
])
def test_each_engine_names_its_skill_matrix_and_default_bots(slug, bots, default, games):
    spec = get_spec(slug)
    assert skill_bots(spec) == bots
    assert spec.default_bots == default
    assert spec.skill_games == games


def test_the_skill_games_are_the_engines_unless_asked(project_root, tmp_path):
    data = load_project(project_root, ["pyramid-shambo"]).games["pyramid-shambo"]
    mine = validate_game(data, Options(games=10, players=3, workers=1, out=tmp_path, write=False)).summary
    assert mine["run"]["skill_games_per_pair"] == 2000
    assert mine["skill"]["matrix"]["smart"]["naive"]["games"] == 2000
    asked = validate_game(data, Options(games=10, players=3, skill_games=7, workers=1, out=tmp_path,
                                        write=False)).summary
    assert asked["skill"]["matrix"]["smart"]["naive"]["games"] == 7
    result = CliRunner().invoke(main, ["validate", "pyramid-shambo", "--data", str(project_root), "--games", "10",
                                       "--players", "3", "--skill-games", "0", "--workers", "1",
                                       "--out", str(tmp_path)])
    assert result.exit_code in (0, 1), result.output
    summary = json.loads((tmp_path / "pyramid-shambo" / "validation" / "summary.json").read_text())
    assert summary["run"]["skill_games_per_pair"] == 0 and not summary["skill"]["matrix"]
    report = (tmp_path / "pyramid-shambo" / "validation" / "report.html").read_text()
    assert "Skill pays when smart beats naive." in report  # the engine's own bots, not the generic ones


def test_the_shambo_skill_matrix_pits_its_choosers_against_each_other(project_root, tmp_path):
    data = load_project(project_root, ["pyramid-shambo"]).games["pyramid-shambo"]
    r = validate_game(data, Options(games=20, players=3, skill_games=20, workers=1, out=tmp_path, write=False))
    matrix = r.summary["skill"]["matrix"]
    assert set(matrix) == {"naive", "smart"}
    assert r.summary["run"]["bots"] == ["smart"] * 3
    skill = next(v for v in r.verdicts if v.check == "skill")
    assert skill.message.startswith("smart wins")


def test_the_skill_verdict_gives_the_interval_and_says_when_the_games_are_too_few(project_root, tmp_path):
    from validator.thresholds import Thresholds
    from validator.verdicts import PASS, WARN, judge

    data = load_project(project_root, ["pyramid-shambo"]).games["pyramid-shambo"]
    s = validate_game(data, Options(games=20, players=3, skill_games=20, workers=1, out=tmp_path,
                                    write=False)).summary
    th = Thresholds()
    assert th.get("skill", "skill_gap_warn") == 0.05

    def skill(smart: int, naive: int, seats: int):  # seats won by each against the other, of ``seats``
        s["skill"]["matrix"] = {
            "smart": {"naive": {"count": smart, "of": seats, "rate": smart / seats, "games": seats // 2}},
            "naive": {"smart": {"count": naive, "of": seats, "rate": naive / seats, "games": seats // 2}}}
        return next(v for v in judge(s, th) if v.check == "skill")

    # Newcombe's interval by hand: Wilson 14/40 is 0.2213-0.5049, 12/40 0.1807-0.4543, so the difference
    # 0.05 runs from 0.05 - hypot(0.35 - 0.2213, 0.4543 - 0.30) to 0.05 + hypot(0.5049 - 0.35, 0.30 - 0.1807)
    few = skill(14, 12, 40)  # 35% against 30% over 20 games
    assert few.status == WARN
    assert "(the difference -15.1 to +24.6 points, 95%, over 20 games)" in few.message
    assert few.message.endswith("too few games to tell whether the gap reaches 5 points; raise --skill-games")
    sure = skill(2700, 2600, 10000)  # 27% against 26% over 5,000 games: at most +2.2 points
    assert sure.status == WARN and sure.message.endswith("(the difference -0.2 to +2.2 points, 95%, over 5,000 games): "
                                                         "luck dominates")
    clear = skill(4000, 2000, 10000)
    assert clear.status == PASS
    assert clear.message == ("smart wins 40% of its seats against naive's 20% (the difference +18.8 to +21.2 "
                             "points, 95%, over 5,000 games)")


def test_a_replay_uses_the_engines_turn_cap(project_root, monkeypatch):
    import validator.validate as v

    data = load_project(project_root, ["golden-pyramid"]).games["golden-pyramid"]
    cap = int(get_spec("golden-pyramid").thresholds["stalls"]["turn_cap"][0])
    assert cap > 400
    seen = []
    real = v.play

    def spy(game, seed, bots, opts, **kw):
        seen.append(opts.turn_cap)
        return real(game, seed, bots, opts, **kw)

    monkeypatch.setattr(v, "play", spy)
    replay(data, 3, 2, "random", {}, strict=False)
    replay(data, 3, 2, "random", {}, strict=False, turn_cap=50)
    assert seen == [cap, 50]


def test_problems_sort_with_and_without_rows():
    ps = [Problem("cards.csv", 41, "number", "b"), Problem("cards.csv", None, "count", "a"),
          Problem("cards.csv", 2, None, "c"), Problem("README", None, None, "d")]
    assert [p.message for p in sorted(ps)] == ["d", "a", "c", "b"]
