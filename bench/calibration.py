"""How often the validator's intervals and verdicts are wrong, before and after they were calibrated.

    python bench/calibration.py                  # simulated runs (a few seconds)
    python bench/calibration.py --runs 10000     # more runs, tighter figures
    python bench/calibration.py --played         # ... and the same questions on played games (minutes)

Three questions, each answered by the formulas pnp used before (kept here beside the new ones) and by the
ones it uses now, on runs simulated from a known truth (a run of n games is a draw of its winning-seat sets):

1. **Seat spread.** Four truly even seats: how often does the interval of the spread (best minus worst seat)
   leave out 0 - that is, claim uneven seats?  Before: Newcombe's interval for two independent proportions
   between the best and the worst seat, picked after seeing the games.  Now: the simultaneous interval over
   every pair of seats with the seats' joint variance (``figures.spread_interval``).  Also the old interval's
   coverage of one fixed pair of seats, which it was made for.
2. **First-seat edge with ties.** Four even seats and 10% of games shared between two winners: the mean
   estimate and how often the interval leaves out 0.  Before: the start player's win rate, a shared win counted
   as a win, minus 1/players.  Now: its share of the wins (a shared win split) minus the mean seat's.
3. **--compare on A/A pairs.** Two runs of one deck dealt apart (as after a count edit), its spread on the
   8-point warning and its tie rate on the 10% warning: how often does ``--compare`` exit 1?  Before: whenever a
   verdict got worse.  Now: only when the figure behind it moved beyond its paired interval.

``--played`` asks the same on games the engines play: the drinking Pyramid's first-seat edge on 1,000 games
(seed 1) both ways, and 20 A/A pairs of 1,000 games each of Pyramid Scheme and the drinking Pyramid (seeds 1
and 2, 3 and 4 ..., paired game by game as a count edit pairs them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "validator"))  # the calibration tests' judge of a simulated run

from validator.figures import edge_bounds, paired, seat_rows, spread_bounds  # noqa: E402
from validator.kit.stats import diff_interval, wilson  # noqa: E402

from test_calibration import aa_comparison  # noqa: E402

SIZES = (300, 1000, 5000)


def _runs(probs, n, runs, rng):
    return rng.multinomial(n, probs, size=runs)


def _old_spread(counts, rows, n):
    """Newcombe's interval between the best and the worst seat's win rates (a shared win a win for each)."""
    wins = np.rint(counts @ (rows > 0)).astype(int)
    out = []
    for w in wins:
        best, worst = int(np.argmax(w)), int(np.argmin(w))
        out.append(diff_interval(int(w[best]), n, int(w[worst]), n)[1:])
    return np.array(out)


def spread(runs: int, rng) -> None:
    print("1. seat spread, four even seats: runs whose interval leaves out 0 (claims uneven seats)")
    masks = [1, 2, 4, 8]
    rows = seat_rows(masks, 4)
    probs = np.full(4, 0.25)
    for n in SIZES:
        counts = _runs(probs, n, runs, rng)
        old = _old_spread(counts, rows, n)
        _, low, _ = spread_bounds(counts, rows)
        fixed = np.array([diff_interval(int(c[0]), n, int(c[1]), n)[1:] for c in counts])
        fixed_cover = np.mean((fixed[:, 0] <= 0) & (0 <= fixed[:, 1]))
        print(f"   {n:>5} games: before {np.mean(old[:, 0] > 0) * 100:5.1f}%   now {np.mean(low > 1e-12) * 100:4.1f}%"
              f"   (before, seats 1 and 2 fixed in advance: covered {fixed_cover * 100:.1f}%)")


def edge(runs: int, rng) -> None:
    print("2. first-seat edge, four even seats, 10% of games shared by two: mean estimate, runs leaving out 0")
    masks = [1, 2, 4, 8, 3, 5, 6, 9, 10, 12]
    probs = np.array([0.225] * 4 + [0.1 / 6] * 6)
    rows = seat_rows(masks, 4)
    for n in SIZES:
        counts = _runs(probs, n, runs, rng)
        wins = np.rint(counts @ (rows > 0))[:, 0].astype(int)
        old = np.array([[k / n - 0.25, *(x - 0.25 for x in wilson(int(k), n))] for k in wins])
        value, low, high = edge_bounds(counts, rows)
        print(f"   {n:>5} games: before {old[:, 0].mean() * 100:+.2f} pts, {np.mean(old[:, 1] > 0) * 100:5.1f}% leave "
              f"out 0   now {value.mean() * 100:+.2f} pts, {np.mean((low > 0) | (high < 0)) * 100:4.1f}%")


def compare(runs: int, rng) -> None:
    pairs = max(100, runs // 20)
    print(f"3. --compare, A/A pairs dealt apart on the seat-spread and tie-rate warnings: pairs exiting 1 ({pairs} "
          "pairs)")
    for n in SIZES:
        before, now = np.array([aa_comparison(n, rng) for _ in range(pairs)]).sum(axis=0)
        print(f"   {n:>5} games: before {before / pairs * 100:5.1f}%   now {now / pairs * 100:4.1f}%")


def played() -> None:
    from model.sheets import load_project
    from validator.compare import gate_level, verdict_changes
    from validator.kit import get_spec
    from validator.validate import Options, validate_game

    project = load_project(ROOT)
    data = project.games["drinking-pyramid"]
    r = validate_game(data, Options(games=1000, seed=1, write=False, skill_games=0))
    t = r.summary["outcome"]
    first = t["seats"][0]
    print("played: the drinking Pyramid, 1,000 games, seed 1: first-seat edge")
    print(f"   before {(first['rate'] - 0.25) * 100:+.1f} [{(first['low'] - 0.25) * 100:+.2f}, "
          f"{(first['high'] - 0.25) * 100:+.2f}]   now {r.summary['headline']['first-seat-edge']['value']:+.1f} "
          f"[{r.summary['headline']['first-seat-edge']['low']:+.1f}, "
          f"{r.summary['headline']['first-seat-edge']['high']:+.1f}]")
    for slug in ("pyramid-scheme", "drinking-pyramid"):
        before = now = 0
        for k in range(20):
            a, b = (validate_game(project.games[slug], Options(games=1000, seed=2 * k + s, write=False,
                                                               skill_games=0, per_game=True)) for s in (1, 2))
            b.games.seeds = a.games.seeds  # dealt apart, paired game by game as a count edit pairs them
            changes = verdict_changes(a.summary["verdicts"], b.summary["verdicts"],
                                      paired(a.games, b.games, get_spec(project.games[slug]),
                                             gate=gate_level(b.summary["verdicts"])))
            before += any(c["change"] in ("worse", "within noise") for c in changes)
            now += any(c["change"] == "worse" for c in changes)
        print(f"played: {slug}, 20 A/A pairs of 1,000 games: exit 1 before {before}/20, now {now}/20")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4000, help="simulated runs per size (default 4000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--played", action="store_true", help="also ask on played games (minutes)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    spread(args.runs, rng)
    edge(args.runs, rng)
    compare(args.runs, rng)
    if args.played:
        played()


if __name__ == "__main__":
    main()
