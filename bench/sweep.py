"""Seconds for a 20-variant sweep of 1,000 games each, per bundled game, end to end.

    python bench/sweep.py                      # every bundled game: 1 and 2 local workers
    python bench/sweep.py --dask 1,2,4         # ... and a local Dask cluster of 1, 2 and 4 worker processes
    python bench/sweep.py --game pyrrameds --games 500

Each game plays its default bots and player count (four players) over a grid of 20
variants of its rules options (below), every variant 1,000 games on the same seeds:
the time is ``pnp sweep GAME --vary ...`` as a process of its own, start to exit, as a
user waits for it (its files: sweep.csv, sweep.json and report.html).  The goal is under
60 s on two cores.  A Dask row times the same sweep with ``--scheduler`` on a
``LocalCluster`` of that many single-threaded worker processes, started by this script
before the clock starts (an existing cluster, as ``--scheduler`` expects, whose scheduler
is not the sweep's process); its files are checked to be the same bytes as the local
run's.  Timings on a shared machine drift: compare rows made in one run; the CPU seconds
it prints at the end (the sweep process and its workers, in the last local run) do not
depend on what else the machine is doing.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # (a LocalCluster's workers start with this path: this checkout's code, as the sweep's)

#: 20 variants per game (4 x 5, or 2 x 2 x 5), of rules options every engine plays at four players, at about the
#: cost of its default game (some options cost more: Pyrrameds' swap-check=keep makes its games about 6 times slower)
GRIDS = {
    "pyramid-scheme": ["rule:hand-limit=3..6", "rule:open-goals=4..8"],
    "golden-pyramid": ["rule:hand-limit=5..8", "rule:bag-cubes=11..15"],
    "pyramid-shambo": ["rule:showdown-bonus=doubled,single", "rule:no-change=overpay,underpay", "rule:escalation=1..5"],
    "pyrrameds": ["rule:shown-card=owner,random", "rule:wild-number=choose,blank", "rule:start-medicine=1..5"],
    "drinking-pyramid": ["rule:stockpile-out=reshuffle,end", "rule:explorer-tie=lowest-card,random",
                         "rule:hand-size=2..6"],
}


def children_cpu() -> float:
    """CPU seconds of this script's finished children (a sweep process, with the workers it waited for)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def sweep(data: str, slug: str, vary: list[str], games: int, out: Path, pool: list[str]) -> tuple[float, float, dict]:
    """One ``pnp sweep`` as its own process: (seconds, CPU seconds, its files' bytes)."""
    command = [sys.executable, "-m", "pnp.cli", "sweep", slug, "--data", data, "--games", str(games),
               "--out", str(out), *(x for v in vary for x in ("--vary", v)), *pool]
    c0, t0 = children_cpu(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 1):  # (1: a variant's verdict, the deck's business)
        raise SystemExit(f"{' '.join(command[3:])} failed:\n{done.stderr[-2000:]}")
    folder = out / slug / "sweep"
    files = {f.name: f.read_bytes() for f in sorted(folder.iterdir())}
    assert files["sweep.csv"].count(b"\n") == 21, "not 20 variants"
    return seconds, children_cpu() - c0, files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT))
    ap.add_argument("--game", action="append", help="a game to time (repeatable; default: every bundled game)")
    ap.add_argument("--games", type=int, default=1000, help="games per variant (default 1000)")
    ap.add_argument("--workers", default="1,2", help="local worker counts to time (default 1,2)")
    ap.add_argument("--dask", default="", help="Dask worker counts to time, e.g. 1,2,4 (default: none)")
    args = ap.parse_args()
    games = args.game or list(GRIDS)
    local = [int(x) for x in args.workers.split(",") if x]
    dask = [int(x) for x in args.dask.split(",") if x]
    total = 20 * args.games
    cpus: dict[str, float] = {}
    print(f"20-variant sweep, {args.games:,} games per variant ({total:,} games), seconds end to end "
          f"(games per second)")
    print(f"{'game':<18}" + "".join(f"{f'{w} local':>16}" for w in local) + "".join(f"{f'{w} Dask':>16}" for w in dask))
    with tempfile.TemporaryDirectory() as tmp:
        for slug in games:
            cells, reference = [], None
            for w in local:
                s, used, files = sweep(args.data, slug, GRIDS[slug], args.games, Path(tmp) / f"{slug}-{w}",
                                       ["--workers", str(w)])
                reference = reference or files
                assert files == reference, "a local run wrote other bytes"
                cells.append(f"{s:7.1f} ({total / s:5.0f})")
                cpus[slug] = used
            for w in dask:
                from distributed import LocalCluster

                with LocalCluster(n_workers=w, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
                    s, _, files = sweep(args.data, slug, GRIDS[slug], args.games, Path(tmp) / f"{slug}-d{w}",
                                        ["--scheduler", cluster.scheduler_address])
                if reference is not None:
                    assert files == reference, "the Dask run wrote other bytes than the local one"
                cells.append(f"{s:7.1f} ({total / s:5.0f})")
            print(f"{slug:<18}" + "".join(f"{c:>16}" for c in cells), flush=True)
    if cpus:  # what the machine's load does not change: the work itself
        print(f"\nCPU seconds of the last local run (all processes), and the wall time they make on two idle "
              f"cores (load average {os.getloadavg()[0]:.1f} now):")
        for slug, used in cpus.items():
            print(f"{slug:<18} {used:7.1f} CPU s   ~{used / 2:5.1f} s on 2 idle cores")


if __name__ == "__main__":
    main()
