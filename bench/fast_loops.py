"""The whole-game fast loops (``GameSpec.fast_play``) against the runner's protocol loop, side by side.

    python bench/fast_loops.py                  # every engine with a fast loop, 4 players, default bots
    python bench/fast_loops.py --repeat 3 --players 5

For each engine with a fast loop it plays the same games (the same seeds, the same
bots) through the runner's protocol loop (``legal_actions`` and the bots' ``step``
on their seat's view at every decision) and through the engine's fast loop, single
process, alternating the two ``--repeat`` times, and prints the best games per second
of each; it checks that both ways give the same records.  Golden Pyramid's and the
drinking Pyramid's fast loops call the rules' own methods and lists (Golden Pyramid's
one-pass list of rated main actions, which repeated the rules' list, was folded back:
side by side it was about 13% faster, which no target needs).  Pyramid Shambo's loop
over local variables repeats the ordinary turn's rules and stays: without it five-player
games were about 22% slower, under the game's target of 5,000 a second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from model.sheets import load_project  # noqa: E402
from validator.bots import parse_bots  # noqa: E402
from validator.kit import ENGINES, get_spec  # noqa: E402
from validator.runner import PlayOptions, game_seed, play  # noqa: E402

GAMES = {"golden-pyramid": 200, "pyramid-shambo": 3000, "drinking-pyramid": 3000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=0, help="games per row (default: by engine)")
    ap.add_argument("--repeat", type=int, default=3, help="timings per way, alternating; the best is kept")
    args = ap.parse_args()
    slugs = [s for s in ENGINES if get_spec(s).fast_play is not None]
    project = load_project(args.data, slugs)
    print(f"games per second, one process, {args.players} players, default bots (best of {args.repeat})")
    print(f"{'game':<18} {'games':>6} {'protocol loop':>14} {'fast loop':>10} {'ratio':>6}")
    opts = PlayOptions()
    for slug in slugs:
        spec = get_spec(slug)
        game = spec.make(project.games[slug], args.players)
        names = parse_bots(spec.default_bots, args.players, spec)
        n = args.games or GAMES.get(slug, 500)
        seeds = [game_seed(1, "main", i) for i in range(n)]
        ways = {  # the protocol loop: a watcher (on_action) keeps the fast loop out, standings are not read
            "protocol": lambda sd: play(game, sd, names, opts, on_action=lambda *a: None, read_standings=False),
            "fast": lambda sd: play(game, sd, names, opts, read_standings=False),
        }
        best, records = {}, {}
        for _ in range(args.repeat):
            for way, one in ways.items():
                t0 = time.perf_counter()
                records[way] = [one(sd)[0].record() for sd in seeds]
                best[way] = max(best.get(way, 0.0), n / (time.perf_counter() - t0))
        same = "" if records["protocol"] == records["fast"] else "  (other records!)"
        print(f"{slug:<18} {n:>6,} {best['protocol']:>14,.0f} {best['fast']:>10,.0f} "
              f"{best['fast'] / best['protocol']:>5.1f}x{same}", flush=True)


if __name__ == "__main__":
    main()
