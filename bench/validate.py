"""Games per second of the rules validator.

    python bench/validate.py                 # 2-4 players, random and greedy, 1 and 2 workers, + a full report
    python bench/validate.py --quick         # fewer games, no report
    python bench/validate.py --data DIR      # another data folder
    python bench/validate.py --game pyramid-shambo     # its speed target: 5 players, the game's own bots
    python bench/validate.py --game drinking-pyramid --players 6 --bots average,greedy

For each player count and bot it plays a fixed number of games (the same
seeds every time) single process and with 2 worker processes, and prints games
per second.  Then it times a complete ``pnp validate`` run of 10,000 games
(static checks, simulation, skill matrix, report) end to end, with the
defaults of ``pnp validate GAME --games 10000 --workers 2`` (four players, the
game's own bots).

Without ``--players`` and ``--bots``: a game with a speed target below is timed
at its target's player count with the bots ``pnp validate`` plays by default
(and the generic greedy bot too when that is the default); any other game at
every player count with the random and greedy bots.  ``--repeat N`` keeps the
best of N timings of each row (timings on a shared machine drift).
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
from validator.bots import known_bots  # noqa: E402
from validator.kit import get_spec  # noqa: E402
from validator.metrics import TimeModel  # noqa: E402
from validator.runner import PlayOptions, Pool, run_stream  # noqa: E402
from validator.validate import Options, validate_game  # noqa: E402

GAMES = {"random": 4000, "greedy": 1500, "search": 100}  # games per row, by bot (others: DEFAULT_GAMES)
DEFAULT_GAMES = 4000
#: games with a speed target: players, the engine's own natural bots (timed beside a generic default),
#: and the games per second to reach on one core
TARGETS = {
    "pyramid-shambo": (5, ("smart",), 5000),
    "drinking-pyramid": (6, ("average",), 2000),
}
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT), help="folder with cards.csv, goals.csv and templates/")
    ap.add_argument("--game", default="pyramid-scheme")
    ap.add_argument("--players", metavar="N[,N...]", help="player counts to time (default: see above)")
    ap.add_argument("--bots", metavar="NAME[,NAME...]", help="bots to time, one row each, every seat the same bot")
    ap.add_argument("--games", type=int, help="games per row (default: by bot)")
    ap.add_argument("--repeat", type=int, default=1, help="keep the best of this many timings per row")
    ap.add_argument("--quick", action="store_true", help="a quarter of the games and no full report")
    ap.add_argument("--report-games", type=int, default=10_000, help="games of the end-to-end report run")
    args = ap.parse_args()

    data = load_project(args.data, [args.game]).games[args.game]
    spec = get_spec(args.game)
    players_list, bots = plan(spec, args.players, args.bots)
    scale = 0.25 if args.quick else 1.0
    print(f"{spec.title}: games per second (same seeds every run)")
    print(f"{'players':>7} {'bot':>7} {'games':>6} {'1 worker':>10} {'2 workers':>10}")
    pools = {1: Pool(workers=1), 2: Pool(workers=2)}
    try:
        # warm the worker processes up, so start-up does not count
        run_stream(pools[2], spec.make(data, spec.min_players), "bench-warmup", 1, 8,
                   [("random",) * spec.min_players], PlayOptions(), TimeModel())
        for players in players_list:
            game = spec.make(data, players)
            for bot in bots:
                n = max(1, int((args.games or GAMES.get(bot, DEFAULT_GAMES)) * scale))
                rates = []
                for workers in (1, 2):
                    best = 0.0
                    for _ in range(max(1, args.repeat)):
                        t0 = time.perf_counter()
                        run_stream(pools[workers], game, "bench", 1, n, [(bot,) * players], PlayOptions(),
                                   TimeModel())
                        best = max(best, n / (time.perf_counter() - t0))
                    rates.append(best)
                print(f"{players:>7} {bot:>7} {n:>6} {rates[0]:>10,.0f} {rates[1]:>10,.0f}", flush=True)
    finally:
        for pool in pools.values():
            pool.close()
    if args.quick:
        return
    report_players = Options.players
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        result = validate_game(data, Options(games=args.report_games, players=report_players, seed=1, workers=2,
                                             out=Path(out)))
        wall = time.perf_counter() - t0
    timing = result.summary["timing"]
    used = ",".join(dict.fromkeys(result.summary["run"]["bots"]))
    print(f"\nfull report, {args.report_games:,} {NUMBERS.get(report_players, report_players)}-player games "
          f"({used}) + skill matrix, 2 workers: {wall:.1f} s end to end "
          f"({timing['games_per_second']:,.0f} games/s in the main run), verdict {result.status}")


def plan(spec, players_text: str | None, bots_text: str | None) -> tuple[list[int], list[str]]:
    """The player counts and bots to time (see the module's help)."""
    target = TARGETS.get(spec.slug)
    if players_text:
        players_list = [int(x) for x in players_text.split(",") if x.strip()]
    elif target:
        players_list = [target[0]]
    else:
        players_list = list(range(spec.min_players, spec.max_players + 1))
    bad = [n for n in players_list if not spec.min_players <= n <= spec.max_players]
    if bad:
        raise SystemExit(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {bad[0]}")
    if bots_text:
        bots = [b.strip() for b in bots_text.split(",") if b.strip()]
    elif target:
        default = getattr(spec, "default_bots", "greedy") or "greedy"
        bots = list(dict.fromkeys([default] + (list(target[1]) if default == "greedy" else [])))
    else:
        bots = ["random", "greedy"]
    unknown = [b for b in bots if b not in known_bots(spec)]
    if unknown:
        raise SystemExit(f"unknown bot '{unknown[0]}'; known bots: {', '.join(known_bots(spec))}")
    return players_list, bots


if __name__ == "__main__":
    main()
