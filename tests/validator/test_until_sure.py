"""pnp validate --until-sure: looks planned before the first game, the error spent over them, the same games
and verdicts for any worker count and on Dask, the budget, and the terminal's account of what stayed unsure."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from pnp.cli import main
from validator.figures import seat_rows, spread_bounds
from validator.sure import level, plan
from validator.validate import Options, validate_game

DRINKING = "drinking-pyramid"


def test_the_looks_double_up_to_the_budget_and_share_the_error():
    assert plan(1000) == [1000, 2000, 4000, 8000, 16000, 32000]
    assert plan(300, 1000) == [300, 600, 1000]
    assert plan(500, 500) == [500]
    assert level(plan(1000)) == pytest.approx(1 - 0.05 / 6)


def _sequential_error(shares, conf_of, looks, warn=0.08, runs=3000, seed=1):
    """Simulated runs of the seat-balance check played look by look: the share of runs whose first sure look
    is on the wrong side of ``warn`` (``conf_of(looks)``: each look's confidence)."""
    masks = [1 << s for s in range(len(shares))]
    rows = seat_rows(masks, len(shares))
    truth = max(shares) - min(shares)
    rng = np.random.default_rng(seed)
    counts = np.zeros((runs, len(masks)), dtype=np.int64)
    wrong = np.zeros(runs, dtype=bool)
    open_ = np.ones(runs, dtype=bool)
    done = 0
    for games in looks:
        counts += rng.multinomial(games - done, shares, size=runs)
        done = games
        _, low, high = spread_bounds(counts, rows, conf_of(looks))
        sure_pass, sure_warn = high <= warn, low > warn
        wrong |= open_ & (sure_warn if truth <= warn else sure_pass)
        open_ &= ~(sure_pass | sure_warn)
    return float(wrong.mean())


@pytest.mark.parametrize("shares", [[0.295, 0.25, 0.245, 0.21], [0.285, 0.25, 0.255, 0.21]])
def test_spending_the_error_over_the_looks_keeps_a_wrong_sure_verdict_under_5_percent(shares):
    # a spread half a point above (or below) the 8-point warning: each look may call it sure on the wrong
    # side; at 95% per look that adds up, at 1 - 5%/K per look it does not
    looks = plan(300, 9600)
    spent = _sequential_error(shares, level, looks)
    naive = _sequential_error(shares, lambda looks: 0.95, looks)
    assert spent <= 0.05 and spent < naive, (spent, naive)


def _run(tmp_path, *extra):
    return CliRunner().invoke(main, ["validate", DRINKING, "--games", "200", "--skill-games", "0", "--seed", "3",
                                     "--out", str(tmp_path), *extra], catch_exceptions=False)


def _summary(folder):
    s = json.loads((folder / DRINKING / "validation" / "summary.json").read_text())
    s.pop("timing")
    return s


def test_until_sure_plays_the_same_looks_for_any_worker_count(tmp_path):
    one = _run(tmp_path / "one", "--until-sure", "--max-games", "800", "--workers", "1")
    two = _run(tmp_path / "two", "--until-sure", "--max-games", "800", "--workers", "2")
    assert one.exit_code == two.exit_code == 0, one.output
    a, b = _summary(tmp_path / "one"), _summary(tmp_path / "two")
    assert a == b
    sure = a["until_sure"]
    assert sure["looks"] == {"main": [200, 400, 800]} and sure["level"]["main"] == pytest.approx(1 - 0.05 / 3, abs=1e-5)
    assert sure["stopped"] == "max-games" and a["run"]["games"] == sure["games"]["main"] == 800
    unsure = {u["check"] for u in sure["unsure"]}
    assert "ties" in unsure  # the drinking Pyramid ties in 10% of its games: on its threshold
    lines = " ".join(one.output.split())
    assert "until sure: stopped by the --max-games budget after 800 games; still unsure:" in lines
    assert "ties: the tie rate's interval" in lines and "at 98.3% confidence reaches both sides of 10%" in lines
    assert "not waited for: worst case: no headline figure gives it an interval" in lines
    games = (tmp_path / "one" / DRINKING / "validation" / "games.csv").read_text().splitlines()
    assert len(games) == 801
    report = (tmp_path / "one" / DRINKING / "validation" / "report.html").read_text()
    assert "until sure: stopped by the --max-games budget after 800 games; still unsure:" in report


def test_a_time_budget_stops_before_a_look_that_would_end_after_it(tmp_path):
    result = _run(tmp_path, "--until-sure", "--max-seconds", "0.001", "--workers", "1")
    assert result.exit_code == 0, result.output
    s = _summary(tmp_path)
    assert s["until_sure"]["stopped"] == "max-seconds" and s["run"]["games"] == 200  # the first look only
    assert "stopped by the --max-seconds budget (the one result that depends on the machine's speed)" in \
        " ".join(result.output.split())


def test_until_sure_stops_at_the_first_look_where_every_verdict_is_sure(tmp_path):
    (tmp_path / "loose.toml").write_text("[balance]\nseat_spread_warn = 0.5\nseat_spread_fail = 0.9\n"
                                         "tie_rate_warn = 0.5\ntie_rate_fail = 0.9\n[stalls]\nstall_rate_warn = 0.5\n"
                                         "stall_rate_fail = 0.9\n[richness]\nchoice_share_warn = 0.01\n"
                                         "[length]\nbox_minutes = [1, 300]\n")
    result = _run(tmp_path, "--until-sure", "--workers", "1", "--thresholds", str(tmp_path / "loose.toml"))
    assert result.exit_code == 0, result.output
    s = _summary(tmp_path)
    assert s["until_sure"]["stopped"] == "sure" and s["run"]["games"] == 200 and s["until_sure"]["unsure"] == []
    assert "until sure: every verdict an interval can settle is sure after 200 games (6 looks planned" in \
        " ".join(result.output.split())


def test_the_further_player_counts_play_the_games_asked_for_and_get_their_own_verdict(tmp_path):
    result = _run(tmp_path, "--players", "4,2", "--workers", "1")
    assert result.exit_code == 0, result.output
    s = _summary(tmp_path)
    assert [b["games"] for b in s["players"]] == [200, 200]
    line = next(x for x in result.output.splitlines() if "seat balance, 2 players:" in x)
    assert "200 games; share of the wins by seat" in line


@pytest.mark.parametrize("args,message", [
    (["--max-games", "500"], "--max-games is the budget of --until-sure; add --until-sure or leave --max-games out"),
    (["--max-seconds", "5"], "--max-seconds is the budget of --until-sure"),
    (["--until-sure", "--compare", "HEAD"], "--until-sure cannot be combined with --compare"),
    (["--until-sure", "--max-games", "100"], "--max-games 100 is fewer than --games 200, the first look"),
])
def test_a_budget_without_until_sure_or_a_clash_is_one_line_exit_2(tmp_path, args, message):
    result = _run(tmp_path, *args)
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / DRINKING).exists()


def test_until_sure_on_dask_plays_the_local_looks(data_for, tmp_path):
    distributed = pytest.importorskip("distributed")
    data = data_for(DRINKING)
    opts = dict(games=150, players=4, seed=4, skill_games=0, until_sure=True, max_games=600)
    local = validate_game(data, Options(workers=1, out=tmp_path / "local", **opts)).summary
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        dask = validate_game(data, Options(scheduler=cluster.scheduler_address, out=tmp_path / "dask",
                                           **opts)).summary
    for s in (local, dask):
        s.pop("timing")
    assert dask == local and local["until_sure"]["games"]["main"] in (150, 300, 600)
