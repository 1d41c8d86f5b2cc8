"""How ``pnp validate`` scales with the cores of the machine it runs on, end to end.

    python bench/scaling.py                          # every bundled game, 1,000 games, default options
    python bench/scaling.py --game pyrrameds --games 4000
    python bench/scaling.py --games 1000 --skill-games 0 --no-dask
    python bench/scaling.py --game pyramid-shambo --memory 1000,100000

For each bundled game it times ``pnp validate GAME --games N`` (every other option at its default,
the skill matrix included) as a process of its own - start, loading, the pool, the games, the
report, the files - with 1, 2, 4, ... workers up to every core, and on a Dask ``LocalCluster`` of
as many single-threaded worker processes (started before the clock starts, as ``--scheduler``
expects a running cluster).  It prints the seconds and the speed-up over one worker, and checks
that every run wrote the same games.csv and the same summary.json (but its timing block).

Then the fixed cost of a run - ``--games 1 --skill-games 0``: start, loading, the pool, one game,
the report - with one worker and with every core; for a game whose engine plays studies of its own
(games it plays whatever ``--games`` says: Pyrrameds' comparison of boxes and value of information),
again without them (their games set to 0 in a thresholds file, as the engine's help allows).

``--memory A,B`` instead runs A and then B games with every core and prints the peak memory of
the main process and of the largest worker (it should not grow with the games).  ``--repeat K``
keeps the best of K timings of each cell (timings on a shared machine drift).  ``--old DIR`` (a checkout of
an earlier commit, e.g. ``git worktree add /tmp/old HEAD~3``) times that code too, cell by cell beside this
code's (local workers, and the fixed cost), so that both rows share the machine's moods.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # (this code's engines: which of them play studies)
GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]

#: a child that runs pnp and says, as it ends, its own peak memory and its workers' (kilobytes)
MEASURED = ("import resource, sys\n"
            "try:\n"
            "    from pnp.cli import run\n"
            "except ImportError:  # (an older tree)\n"
            "    from pnp.cli import main as run\n"
            "try:\n"
            "    run()\n"
            "finally:\n"
            "    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "    sys.stderr.write(f'\\npeak-kb {me} {kids}\\n')\n")


def counts(cores: int) -> list[int]:
    """1, 2, 4, ... and every core."""
    out, n = [], 1
    while n < cores:
        out.append(n)
        n *= 2
    return out + [cores]


def validate(slug: str, out: Path, games: int, extra: list[str], pool: list[str], code: Path = ROOT
             ) -> tuple[float, str, str, tuple]:
    """One ``pnp validate`` of the code in ``code`` as its own process: (seconds, games.csv, summary.json without
    its timing, peak memory in kilobytes of the process and of its largest worker)."""
    command = [sys.executable, "-c", MEASURED, "validate", slug, "--data", str(ROOT), "--games", str(games),
               "--out", str(out), *extra, *pool]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=code)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # (1: a verdict FAIL, which is the deck's business)
        raise SystemExit(f"{' '.join(command[3:])} failed:\n{done.stderr[-2000:]}")
    folder = out / slug / "validation"
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    summary.pop("timing")
    peak = [line for line in done.stderr.splitlines() if line.startswith("peak-kb ")]
    peak_kb = tuple(int(x) for x in peak[-1].split()[1:]) if peak else (0, 0)
    return seconds, (folder / "games.csv").read_text(encoding="utf-8"), json.dumps(summary, sort_keys=True), peak_kb


def no_studies(slug: str, tmp: Path) -> Path | None:
    """A thresholds file that sets the engine's side games (its studies) to 0, or None when it has none."""
    from validator.kit import get_spec

    side = get_spec(slug).side_games
    if not side:
        return None
    path = tmp / f"{slug}-no-studies.toml"
    sections: dict[str, list[str]] = {}
    for section, key in side:
        sections.setdefault(section, []).append(f"{key} = 0")
    path.write_text("".join(f"[{s}]\n" + "\n".join(keys) + "\n" for s, keys in sections.items()), encoding="utf-8")
    return path


def best(k: int, run) -> tuple[float, str, str, tuple]:
    results = [run() for _ in range(max(1, k))]
    return min(results, key=lambda r: r[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="a bundled game to time (repeatable; default: all five)")
    ap.add_argument("--games", type=int, default=1000, help="games of each run (default 1000)")
    ap.add_argument("--skill-games", type=int, default=None, help="games per bot pairing (default: the game's own)")
    ap.add_argument("--workers", help="worker counts to time, e.g. 1,2 (default: 1, 2, 4, ... every core)")
    ap.add_argument("--no-dask", action="store_true", help="leave out the Dask LocalCluster")
    ap.add_argument("--repeat", type=int, default=1, help="keep the best of this many timings of each cell")
    ap.add_argument("--memory", metavar="A,B", help="peak memory of runs of A and of B games (every core)")
    ap.add_argument("--old", type=Path, help="an earlier checkout to time beside this code")
    args = ap.parse_args()
    slugs = args.game or GAMES
    cores = os.cpu_count() or 1
    extra = [] if args.skill_games is None else ["--skill-games", str(args.skill_games)]
    with tempfile.TemporaryDirectory(prefix="pnp-scaling-") as tmp:
        tmp = Path(tmp)
        if args.memory:
            sizes = [int(x) for x in args.memory.split(",")]
            print(f"peak memory (MB) with {cores} workers: main process / largest worker")
            for slug in slugs:
                cells = []
                for n in sizes:
                    me, kids = validate(slug, tmp / f"{slug}-m{n}", n, extra, ["--workers", str(cores)])[3]
                    cells.append(f"{n:,} games: {me / 1024:.0f} / {kids / 1024:.0f}")
                print(f"{slug:<18} " + "   ".join(cells), flush=True)
            return
        workers = [int(x) for x in args.workers.split(",")] if args.workers else counts(cores)
        dask = not args.no_dask
        print(f"pnp validate GAME --games {args.games:,}{' ' + ' '.join(extra) if extra else ''} on {cores} cores: "
              f"seconds end to end (speed-up over 1 worker)")
        header = f"{'game':<18}" + "".join(f"{f'{w} worker' + ('s' if w > 1 else ''):>17}" for w in workers)
        print(header + (f"{f'Dask, {cores}':>17}" if dask else "") + "  identical")
        fixed, studies, differ = {}, {}, []
        for slug in slugs:
            cells, reference, base = [], None, None
            old_cells, old_base = [], None
            same = True
            for w in workers:
                s, games_csv, summary, _ = best(args.repeat, lambda w=w: validate(
                    slug, tmp / f"{slug}-{w}", args.games, extra, ["--workers", str(w)]))
                reference = reference or (games_csv, summary)
                same &= (games_csv, summary) == reference
                base = base or s
                cells.append(f"{s:7.2f} ({base / s:4.2f}x)")
                if args.old:
                    s = best(args.repeat, lambda w=w: validate(slug, tmp / f"{slug}-{w}-old", args.games, extra,
                                                               ["--workers", str(w)], args.old.resolve()))[0]
                    old_base = old_base or s
                    old_cells.append(f"{s:7.2f} ({old_base / s:4.2f}x)")
            if dask:
                from distributed import LocalCluster

                with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
                    s, games_csv, summary, _ = best(args.repeat, lambda: validate(
                        slug, tmp / f"{slug}-dask", args.games, extra, ["--scheduler", cluster.scheduler_address]))
                same &= (games_csv, summary) == reference
                cells.append(f"{s:7.2f} ({base / s:4.2f}x)")
            print(f"{slug:<18}" + "".join(f"{c:>17}" for c in cells) + f"  {'yes' if same else 'NO'}", flush=True)
            if old_cells:
                print(f"{'  ' + args.old.name + ' code':<18}" + "".join(f"{c:>17}" for c in old_cells), flush=True)
            if not same:
                differ.append(slug)
            codes = [ROOT] + ([args.old.resolve()] if args.old else [])
            fixed[slug] = [[best(args.repeat, lambda w=w, c=c: validate(
                slug, tmp / f"{slug}-f{w}", 1, ["--skill-games", "0"], ["--workers", str(w)], c))[0] for c in codes]
                for w in (1, cores)]
            skip = no_studies(slug, tmp)
            if skip:
                studies[slug] = [best(args.repeat, lambda w=w: validate(
                    slug, tmp / f"{slug}-s{w}", 1, ["--skill-games", "0", "--thresholds", str(skip)],
                    ["--workers", str(w)]))[0] for w in (1, cores)]
        print(f"\nfixed cost of a run (--games 1 --skill-games 0: start, loading, pool, report), seconds, "
              f"1 worker / {cores} workers" + (f" (this code, and {args.old.name}'s in brackets)" if args.old else "")
              + "; an engine's own studies (GameSpec.studies: games it plays whatever --games says) are included, "
              "and a second line leaves them out (their games set to 0 in a thresholds file):")
        for slug, (one, every) in fixed.items():
            print(f"{slug:<18} " + " / ".join(f"{t[0]:5.2f}" + (f" ({t[1]:.2f})" if len(t) > 1 else "")
                                              for t in (one, every)))
            if slug in studies:
                print(f"{'  no studies':<18} " + " / ".join(f"{t:5.2f}" for t in studies[slug]))
        if differ:
            raise SystemExit(f"not the same games with every worker count and on Dask: {', '.join(differ)}")


if __name__ == "__main__":
    main()
