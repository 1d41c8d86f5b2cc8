"""Did my change help: headline figures and their intervals, paired differences, --vary parsing, sweeps (the
same seeds for every variant, the same bytes for any worker count or a Dask cluster), pnp validate --compare
against a folder, a git revision and a saved summary, pnp tune, and every bad input as one line, exit 2,
nothing written."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import copy_game, read_rows, write_rows
from model.sheets import load_project
from pnp.cli import main
from validator.figures import Games, paired, quantile_interval
from validator.kit import get_spec
from validator.metrics import Tally
from validator.sweep import SweepOptions, run_sweep
from validator.tune import TuneOptions, parse_goal, tune
from validator.validate import Options, validate_game
from validator.variants import parse_vary

SHAMBO = "pyramid-shambo"


@pytest.fixture(scope="module")
def shambo(project_root):
    return load_project(project_root, [SHAMBO]).games[SHAMBO]


# ------------------------------------------------------------------ figures
def test_the_median_interval_is_the_order_statistics_around_the_middle_rank():
    hist = Counter({v: 1 for v in range(1, 101)})  # 1..100 once each
    value, lo, hi = quantile_interval(hist, 0.5)
    # median 50.5; ranks 50 -+ 1.96 * sqrt(25) = 9.8: the 40th and the 61st value (binomial order statistics)
    assert value == 50.5 and (lo, hi) == (40.0, 61.0)


def test_headline_seat_figures_read_the_two_seats_as_seats_of_the_same_games():
    from statsmodels.stats.proportion import proportion_confint

    from validator.figures import headline

    t = Tally()
    t.games = 400
    t.players = 2
    t.seat_games.update({0: 400, 1: 400})
    t.seat_wins.update({0: 240, 1: 160})
    t.win_sets.update({1: 240, 2: 160})
    t.tenths.update({100: 400})
    t.turns.update({20: 400})
    h = headline(t, get_spec(SHAMBO))
    # one seat's win is the other's loss: the spread is 2 p - 1 of seat 1's rate p, so its interval is twice
    # the normal interval of p (with Agresti and Caffo's added win per seat: 241 of 402)
    lo, hi = proportion_confint(241, 402, alpha=0.05, method="normal")
    half = (hi - lo) / 2
    assert h["seat-spread"]["value"] == 20.0
    assert (h["seat-spread"]["low"], h["seat-spread"]["high"]) == (round(100 * (0.2 - 2 * half), 2),
                                                                   round(100 * (0.2 + 2 * half), 2))
    assert h["first-seat-edge"]["value"] == 10.0  # 60% against the mean seat's 50%
    assert (h["first-seat-edge"]["low"], h["first-seat-edge"]["high"]) == (round(100 * (0.1 - half), 2),
                                                                           round(100 * (0.1 + half), 2))
    assert h["median-minutes"]["value"] == 10.0


def test_a_shared_win_is_split_so_even_seats_have_no_edge_whatever_the_ties():
    from validator.figures import headline

    t = Tally()
    t.games, t.players, t.ties = 400, 4, 40
    t.seat_games.update({s: 400 for s in range(4)})
    t.win_sets.update({1: 90, 2: 90, 4: 90, 8: 90, 0b0011: 10, 0b0101: 10, 0b1010: 10, 0b1100: 10})
    t.seat_wins.update({s: 110 for s in range(4)})  # 90 alone and 20 shared each
    t.tenths.update({100: 400})
    t.turns.update({20: 400})
    h = headline(t, get_spec(SHAMBO))
    # counting a shared win as a win for each, seat 1 wins 27.5% of its games, 2.5 points over a "fair" 1/4,
    # only because 10% of the games are ties; split, every seat has 25% of the wins and the edge is exactly 0
    assert h["first-seat-edge"]["value"] == 0.0 and h["seat-spread"]["value"] == 0.0
    assert h["first-seat-edge"]["low"] < 0 < h["first-seat-edge"]["high"] and h["seat-spread"]["low"] == 0.0


def _games(tenths, wins, seeds=None):
    g = Games()
    g.seeds = list(seeds or range(len(tenths)))
    g.tenths, g.turns, g.wins, g.stall = list(tenths), [10] * len(tenths), list(wins), [0] * len(tenths)
    g.players = 2
    return g


def test_paired_differences_cancel_what_both_sides_share():
    import random

    rng = random.Random(4)
    base = [rng.randint(100, 300) for _ in range(400)]  # games of very different length
    wins = [rng.choice((1, 2)) for _ in range(400)]
    a = _games(base, wins)
    b = _games([x + 10 for x in base], wins)  # every game one minute longer
    fig = paired(a, b, get_spec(SHAMBO), resamples=300)
    m = fig["median-minutes"]
    assert m["difference"] == 1.0 and (m["low"], m["high"]) == (1.0, 1.0)  # paired: exactly the minute
    assert m["unpaired_high"] - m["unpaired_low"] > 3  # each side resampled alone: the spread of lengths shows
    assert fig["seat-spread"]["difference"] == 0 and fig["seat-spread"]["low"] == fig["seat-spread"]["high"] == 0
    with pytest.raises(ValueError):
        paired(a, _games(base, wins, seeds=range(1, 401)), get_spec(SHAMBO))


# ------------------------------------------------------------------ --vary
def test_vary_values_ranges_and_changes(ps_data):
    spec = get_spec("pyramid-scheme")
    axis = parse_vary("count:g06=1..3", ps_data, spec, 4)
    assert axis.values == (1, 2, 3) and axis.base == 1 and axis.name == "count:g06"
    assert parse_vary("rule:optional-flip=true,false", ps_data, spec, 4).values == (True, False)
    assert parse_vary("players=2,4", ps_data, spec, 4).values == (2, 4)
    number = parse_vary("number:g06=1,3..4", ps_data, spec, 4)
    assert number.values == (1, 3, 4) and number.labels == ("1", "3", "4")


@pytest.mark.parametrize("vary,message", [
    ("count:zz9=1..3", "unknown card id 'zz9' in pyramid-scheme"),
    ("count:g6=1..3", "unknown card id 'g6' in pyramid-scheme (did you mean 'g16'?)"),
    ("numbr:g06=2,3", "unknown column 'numbr' for a victim of pyramid-scheme (did you mean 'number'?)"),
    ("rule:nope=a,b", "unknown rules option 'nope' for pyramid-scheme; known: actions, condition-match"),
    ("rule:condition-match=sometimes", "'sometimes' is not one of at-least, exactly"),
    ("number:g06=99", "99 is out of range; a victim takes 1 to 5"),
    ("color:g06=mauve", "unknown colour 'mauve'"),
    ("count:g06=0..2", "'0' is not a count"),
    ("count:g06=4..1", "the range 4..1 is empty"),
    ("count:g06=", "no values"),
    ("count:g06=2,2", "the value 2 is given twice"),
    ("players=3..6", "Pyramid Scheme takes 2-4 players, not 5"),
    ("bots=greedy,clever", "unknown bot 'clever'"),
    ("wibble", "expected KIND:ID=VALUES"),
])
def test_a_bad_vary_is_one_line_exit_2_and_nothing_written(project_root, tmp_path, vary, message):
    result = CliRunner().invoke(main, ["sweep", "pyramid-scheme", "--vary", vary, "--data", str(project_root),
                                       "--out", str(tmp_path / "out"), "--workers", "1"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error --vary {vary}: ") and message in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_a_variant_the_engine_cannot_play_is_named_before_any_game(project_root, tmp_path):
    result = CliRunner().invoke(main, ["sweep", "pyrrameds", "--vary", "rule:boxes=base,nonsense", "--data",
                                       str(project_root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "variant rule:boxes=nonsense: Pyrrameds cannot play it: unknown expansion 'nonsense'" in result.output
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ sweeps
@pytest.fixture(scope="module")
def sweep_runs(shambo, tmp_path_factory):
    """The same sweep in-process, on two local workers and on a Dask cluster."""
    vary = ["rule:showdown-bonus=doubled,single", "players=3..4"]
    out = {}
    for name, kw in (("one", {"workers": 1}), ("two", {"workers": 2})):
        folder = tmp_path_factory.mktemp(name)
        out[name] = (run_sweep(shambo, vary, SweepOptions(games=300, seed=5, out=folder, **kw)), folder)
    distributed = pytest.importorskip("distributed")
    folder = tmp_path_factory.mktemp("dask")
    scattered = out["scattered"] = []  # what each Client.scatter of the sweep sent
    scatter = distributed.Client.scatter

    def counted(self, data, *args, **kwargs):
        scattered.append(len(data) if isinstance(data, list) else 1)
        return scatter(self, data, *args, **kwargs)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            pytest.MonkeyPatch.context() as patch:
        patch.setattr(distributed.Client, "scatter", counted)
        out["dask"] = (run_sweep(shambo, vary, SweepOptions(games=300, seed=5, out=folder,
                                                            scheduler=cluster.scheduler_address)), folder)
    return out


def test_a_sweep_writes_one_row_per_variant_with_every_figure_and_interval(sweep_runs):
    result, folder = sweep_runs["one"]
    rows = list(csv.DictReader((folder / SHAMBO / "sweep" / "sweep.csv").open()))
    assert [(r["rule:showdown-bonus"], r["players"]) for r in rows] == [
        ("doubled", "3"), ("doubled", "4"), ("single", "3"), ("single", "4")]
    assert [r["as_is"] for r in rows] == ["", "yes", "", ""]
    for key in ("median-minutes", "seat-spread", "first-seat-edge", "tie-rate", "stall-rate", "change-by-bystander",
                "wipe-out"):
        for r in rows:
            assert float(r[f"{key}_low"]) <= float(r[key]) <= float(r[f"{key}_high"]), (key, r)
    assert rows[2]["changes"] == "--rule showdown-bonus=single; --players 3"
    html = (folder / SHAMBO / "sweep" / "report.html").read_text()
    assert html.count("<svg") == 2 * 8  # each figure against each of the two parameters
    assert "Verdict map" in html


def test_every_variant_plays_the_same_seeds_as_pnp_validate(sweep_runs, shambo, tmp_path):
    """The deck as it is, in the sweep, is the same 300 games pnp validate plays with the same seed."""
    result, _ = sweep_runs["one"]
    as_is = next(r for r in result.results if r.variant.current)
    alone = validate_game(shambo, Options(games=300, seed=5, workers=1, skill_games=0, write=False, out=tmp_path))
    assert as_is.headline == alone.summary["headline"]


def test_a_sweep_gives_the_same_bytes_for_any_worker_count_and_on_dask(sweep_runs):
    files = ("sweep.csv", "sweep.json", "report.html")
    one = {f: (sweep_runs["one"][1] / SHAMBO / "sweep" / f).read_bytes() for f in files}
    for name in ("two", "dask"):
        for f in files:
            assert (sweep_runs[name][1] / SHAMBO / "sweep" / f).read_bytes() == one[f], (name, f)


def test_a_dask_sweep_sends_every_variant_to_the_cluster_in_one_call(sweep_runs):
    """Four variants, four compiled games: one scattered object, one round trip to the scheduler."""
    assert sweep_runs["scattered"] == [1]


def test_the_dask_scheduler_queues_a_sweeps_batches_and_hands_them_to_free_workers(shambo, tmp_path):
    """A batch depends on one scattered object however many variants a sweep has, so that the scheduler
    treats the batches as root-ish (queued, each sent to the next worker that frees up) rather than placing
    every batch on a worker as it is submitted (which left some workers of a cluster idle)."""
    distributed = pytest.importorskip("distributed")
    rootish: list[bool] = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        scheduler = cluster.scheduler
        decide = scheduler.is_rootish

        def noted(ts):
            answer = decide(ts)
            if ts.key.startswith("_run_item") and len(ts.group) > 2 * scheduler.total_nthreads:
                rootish.append(answer)
            return answer

        scheduler.is_rootish = noted
        run_sweep(shambo, ["rule:showdown-bonus=doubled,single", "rule:escalation=1..3"],
                  SweepOptions(games=400, seed=5, out=tmp_path, scheduler=cluster.scheduler_address))
    assert len(rootish) >= 5 and all(rootish)


# ------------------------------------------------------------------ compare
def _with_kings(folder: Path) -> None:
    """Hearts, diamonds and clubs all kings: 40 royal cards, explorations that never reach the top."""
    rows = read_rows(folder / "cards.csv")
    h = rows[0]
    for r in rows[1:]:
        if r[h.index("symbol")] in ("hearts", "diamonds", "clubs"):
            r[h.index("number")] = "13"
    write_rows(folder / "cards.csv", rows)


def _run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def test_compare_with_a_folder_pairs_the_games_and_exits_1_when_a_verdict_got_worse(tmp_path):
    ref = copy_game(tmp_path / "ref", "drinking-pyramid")
    new = copy_game(tmp_path / "new", "drinking-pyramid")
    same = _run(["validate", "drinking-pyramid", "--data", str(new), "--compare", str(ref), "--games", "150",
                 "--skill-games", "0", "--workers", "1"])
    assert same.exit_code == 0, same.output
    record = json.loads((new / "output" / "drinking-pyramid" / "validation" / "compare.json").read_text())
    assert all(f["difference"] == 0 and f["low"] == f["high"] == 0 for f in record["figures"].values())
    assert record["worse"] == 0 and "no verdict changed" in same.output
    assert "*" not in same.output  # nothing moved: no mark, and no legend for one
    _with_kings(new)
    worse = _run(["validate", "drinking-pyramid", "--data", str(new), "--compare", str(ref), "--games", "150",
                  "--skill-games", "0", "--workers", "1"])
    assert worse.exit_code == 1
    record = json.loads((new / "output" / "drinking-pyramid" / "validation" / "compare.json").read_text())
    stalls = next(v for v in record["verdicts"] if v["check"] == "stalls")
    assert (stalls["reference"], stalls["now"], stalls["change"]) == ("PASS", "FAIL", "worse")
    f = record["figures"]["stall-rate"]
    assert f["paired"] and f["reference"] == 0 and f["low"] > 50
    assert " got worse than the reference: " in worse.output
    assert "  * the 95% interval leaves out 0" in worse.output
    html = (new / "output" / "drinking-pyramid" / "validation" / "compare.html").read_text()
    n = record["worse"]
    assert n >= 1 and f"{n} verdict{'s' if n != 1 else ''} worse</span>" in html


def test_compare_with_a_git_revision_plays_the_sheets_as_committed(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    data = copy_game(tmp_path / "repo", "drinking-pyramid")

    def git(*args):
        subprocess.run(["git", "-C", str(data), *args], check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "the deck")
    _with_kings(data)  # edited, not committed
    result = _run(["validate", "drinking-pyramid", "--data", str(data), "--compare", "HEAD", "--games", "100",
                   "--skill-games", "0", "--workers", "1"])
    assert result.exit_code == 1
    record = json.loads((data / "output" / "drinking-pyramid" / "validation" / "compare.json").read_text())
    assert record["reference"]["kind"] == "revision" and record["reference"]["label"].startswith("revision HEAD (")
    assert record["run"]["deck_hash"] != record["reference_run"]["deck_hash"]
    assert record["figures"]["stall-rate"]["reference"] == 0


def test_compare_with_a_saved_summary_adopts_its_games_and_checks_game_and_rules(tmp_path, project_root):
    folder = tmp_path / "saved"
    base = ["--data", str(project_root), "--skill-games", "0", "--workers", "1"]
    assert _run(["validate", SHAMBO, "--games", "120", "--seed", "3", "--out", str(folder)] + base).exit_code in (0, 1)
    saved = folder / SHAMBO / "validation"
    out = tmp_path / "now"
    result = _run(["validate", SHAMBO, "--compare", str(saved), "--out", str(out)] + base)
    assert result.exit_code == 0, result.output
    assert "playing the summary's games: --games 120 --seed 3" in result.output
    record = json.loads((out / SHAMBO / "validation" / "compare.json").read_text())
    assert record["run"]["games"] == 120 and record["figures"]["median-minutes"]["paired"]  # games.csv pairs them
    assert not record["figures"]["wipe-out"]["paired"]  # the engine's own figures are not in games.csv
    assert record["figures"]["wipe-out"]["unpaired_because"] == "the engine's own figures are not in games.csv"
    lines = " ".join(result.output.split())
    assert ("unpaired (change-by-bystander, wipe-out): the engine's own figures are not in games.csv; each "
            "difference comes from the two runs' own intervals") in lines
    (saved / "games.csv").rename(saved / "games.away")
    alone = _run(["validate", SHAMBO, "--compare", str(saved), "--out", str(tmp_path / "alone")] + base)
    assert "the reference summary has no games.csv beside it" in " ".join(alone.output.split())
    (saved / "games.away").rename(saved / "games.csv")
    cases = [
        (["--compare", str(saved), "--games", "200"], "--games 200 differs from the summary's 120"),
        (["--compare", str(saved), "--rule", "showdown-bonus=single"], "the --rule options differ from the summary's"),
    ]
    other = tmp_path / "other"
    _run(["validate", "drinking-pyramid", "--games", "20", "--out", str(other)] + base)
    cases.append((["--compare", str(other / "drinking-pyramid" / "validation" / "summary.json")],
                  "a summary of drinking-pyramid, not of pyramid-shambo"))
    summary = json.loads((saved / "summary.json").read_text())
    summary["run"]["rules_hash"] = "0" * 16
    (tmp_path / "edited.json").write_text(json.dumps(summary))
    cases.append((["--compare", str(tmp_path / "edited.json")], "was made with another rules engine or rules options"))
    (tmp_path / "junk.json").write_text("[1, 2]")
    cases.append((["--compare", str(tmp_path / "junk.json")], "not a summary.json of pnp validate"))
    cases.append((["--compare", str(tmp_path / "nowhere")], "not a data folder, a summary.json, nor a git revision"))
    cases.append((["--compare", str(project_root / "docs")], "holds neither cards.csv"))
    for args, message in cases:
        bad = tmp_path / "bad"
        r = CliRunner().invoke(main, ["validate", SHAMBO] + args + ["--out", str(bad)] + base)
        assert r.exit_code == 2, (args, r.output)
        lines = [line for line in r.output.splitlines() if line.strip()]
        assert len(lines) == 1 and message in lines[0], (args, lines)
        assert not bad.exists(), args


# ------------------------------------------------------------------ tune
def test_goals_parse_in_the_figures_units():
    spec = get_spec(SHAMBO)
    assert parse_goal("seat-spread<5", spec).high == 5 and parse_goal("seat-spread<5", spec).low is None
    g = parse_goal("median-minutes=6..9", spec)
    assert (g.low, g.high, g.scale) == (6, 9, 3)
    assert parse_goal("verdicts", spec).key == "verdicts"


def test_tune_finds_the_variant_that_meets_the_goal_and_names_its_changes(shambo, tmp_path):
    """Three players play Pyramid Shambo in about 5.5 minutes, four in 8, five in 11: a goal of 4 to 7 minutes
    is met by three players only, whatever the showdown bonus."""
    opts = TuneOptions(games=300, start=100, keep=2, workers=1, out=tmp_path)
    result = tune(shambo, ["players=3..5", "rule:showdown-bonus=doubled,single"], ["median-minutes=4..7"], opts)
    assert [r["games"] for r in result.rounds] == [100, 300]
    best = result.best[0]
    assert best.met and best.evaluated.variant.players == 3 and "--players 3" in best.evaluated.variant.changes
    assert not result.as_is.met  # four players: about 8 minutes
    rows = list(csv.DictReader((tmp_path / SHAMBO / "tune" / "tune.csv").open()))
    assert rows[0]["players"] == "3" and rows[0]["met"] == "yes"
    assert "Best variants" in (tmp_path / SHAMBO / "tune" / "report.html").read_text()


def test_tune_says_whether_a_goal_is_met_surely_or_by_the_estimate_only(project_root, tmp_path):
    r = _run(["tune", SHAMBO, "--goal", "median-minutes=4..7", "--goal", "seat-spread<30", "--goal", "tie-rate<0.5",
              "--vary", "players=3..4", "--games", "200", "--start-games", "100", "--workers", "1", "--data",
              str(project_root), "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert any(line.strip().startswith("median-minutes=4..7: ") and line.endswith(": met surely") for line in lines)
    best = next(line for line in lines if "(200 games" in line)
    assert "meets every goal surely (every interval inside its goal)" in best or \
        "meets every goal by the estimate only (an interval reaches outside its goal)" in best


def test_tune_until_sure_plays_the_finalists_on_until_their_goals_are_sure(shambo, tmp_path):
    opts = TuneOptions(games=200, start=100, keep=1, workers=1, out=tmp_path, until_sure=True, max_games=800)
    result = tune(shambo, ["players=3..4"], ["seat-spread<9"], opts)
    best = result.best[0]
    games = best.evaluated.tally.games
    assert games in (200, 400, 800)
    if best.unsure:  # the budget ran out: the goal cannot be met surely
        assert games == 800 and not best.goals[0]["sure"] and "at 98.3% confidence" in best.unsure[0]["why"]
    else:
        assert best.goals[0]["sure"] or best.goals[0]["distance"] > 0


def test_a_sampled_sweep_says_how_many_of_the_grid_it_played_and_until_sure_plays_each_variant_on(tmp_path,
                                                                                                 project_root):
    r = _run(["sweep", "drinking-pyramid", "--vary", "rule:hand-size=0,4", "--vary", "players=3,4", "--sample", "2",
              "--games", "100", "--workers", "1", "--data", str(project_root), "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    assert "pnp sweep drinking-pyramid: 2 of 4 variants sampled x 100 games" in r.output
    assert "--sample 2: a seeded random 2 of the grid's 4 variants" in r.output
    r = _run(["sweep", "drinking-pyramid", "--vary", "rule:hand-size=0,4", "--games", "100", "--until-sure",
              "--max-games", "400", "--workers", "1", "--data", str(project_root), "--out", str(tmp_path / "b")])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader((tmp_path / "b" / "drinking-pyramid" / "sweep" / "sweep.csv").open()))
    assert [row["games"] for row in rows] == ["400", "400"] and "ties" in rows[0]["unsure"]
    assert "variant 1 still unsure after 400 games: " in r.output and "ties: the tie rate's interval" in r.output


def test_tune_with_an_unknown_goal_is_exit_2(project_root, tmp_path):
    r = CliRunner().invoke(main, ["tune", SHAMBO, "--goal", "seat-sprad<5", "--vary", "players=3..4", "--data",
                                  str(project_root), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "unknown figure 'seat-sprad' (did you mean 'seat-spread'?)" in r.output
    assert not (tmp_path / "out").exists()


def test_an_engines_verdict_counts_worse_only_when_the_figure_it_names_moved():
    from types import SimpleNamespace

    from validator.compare import gate_level, verdict_changes
    from validator.kit import Figure

    spec = SimpleNamespace(figures=(Figure("deck-exhausted", "games ended by an exhausted deck", kind="rate",
                                           ends=("deck",), check="deck exhaustion"),))
    before = [{"check": "deck exhaustion", "status": "PASS", "message": "3%"}]
    after = [{"check": "deck exhaustion", "status": "WARN", "message": "6%"}]
    still = {"deck-exhausted": {"value": 3.0, "low": -0.5, "high": 6.5}}
    moved = {"deck-exhausted": {"value": 3.0, "low": 1.5, "high": 4.5}}
    assert verdict_changes(before, after, still, spec)[0]["change"] == "within noise"
    change = verdict_changes(before, after, moved, spec)[0]
    assert change["change"] == "worse" and change["figure"] == "deck-exhausted"
    assert verdict_changes(before, after, moved)[0]["change"] == "within noise"  # no spec: no figure measures it
    assert gate_level(after, spec) == pytest.approx(0.95) and gate_level(after + [
        {"check": "ties", "status": "PASS", "message": ""}], spec) == pytest.approx(0.975)
