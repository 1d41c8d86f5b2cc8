"""Games per second of the rules validator.

    python bench/validate.py                 # 2-4 players, random and greedy, 1 and 2 workers, + a full report
    python bench/validate.py --quick         # fewer games, no report
    python bench/validate.py --data DIR      # another data folder

For each player count and bot it plays a fixed number of games (the same
seeds every time) single process and with 2 worker processes, and prints games
per second.  Then it times a complete ``pnp validate`` run of 10,000 games
(static checks, simulation, skill matrix, report) end to end.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from model.sheets import load_project  # noqa: E402
from validator.kit import get_spec  # noqa: E402
from validator.metrics import TimeModel  # noqa: E402
from validator.runner import PlayOptions, Pool, run_stream  # noqa: E402
from validator.validate import Options, validate_game  # noqa: E402

GAMES = {"random": 4000, "greedy": 1500}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT), help="folder with cards.csv, goals.csv and templates/")
    ap.add_argument("--game", default="pyramid-scheme")
    ap.add_argument("--quick", action="store_true", help="a quarter of the games and no full report")
    ap.add_argument("--report-games", type=int, default=10_000, help="games of the end-to-end report run")
    args = ap.parse_args()

    data = load_project(args.data, [args.game]).games[args.game]
    spec = get_spec(args.game)
    scale = 0.25 if args.quick else 1.0
    print(f"{spec.title}: games per second (same seeds every run)")
    print(f"{'players':>7} {'bot':>7} {'games':>6} {'1 worker':>10} {'2 workers':>10}")
    pools = {1: Pool(workers=1), 2: Pool(workers=2)}
    try:
        # warm the worker processes up, so start-up does not count
        run_stream(pools[2], spec.make(data, 2), "bench-warmup", 1, 8, [("random", "random")], PlayOptions(),
                   TimeModel())
        for players in range(spec.min_players, spec.max_players + 1):
            game = spec.make(data, players)
            for bot in ("random", "greedy"):
                n = int(GAMES[bot] * scale)
                rates = []
                for workers in (1, 2):
                    t0 = time.perf_counter()
                    run_stream(pools[workers], game, "bench", 1, n, [(bot,) * players], PlayOptions(), TimeModel())
                    rates.append(n / (time.perf_counter() - t0))
                print(f"{players:>7} {bot:>7} {n:>6} {rates[0]:>10,.0f} {rates[1]:>10,.0f}", flush=True)
    finally:
        for pool in pools.values():
            pool.close()
    if args.quick:
        return
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        result = validate_game(data, Options(games=args.report_games, players=4, seed=1, workers=2, out=Path(out)))
        wall = time.perf_counter() - t0
    timing = result.summary["timing"]
    print(f"\nfull report, {args.report_games:,} four-player games (greedy) + skill matrix, 2 workers: "
          f"{wall:.1f} s end to end ({timing['games_per_second']:,.0f} games/s in the main run), "
          f"verdict {result.status}")


if __name__ == "__main__":
    main()
