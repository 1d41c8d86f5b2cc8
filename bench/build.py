"""Build benchmarks: fresh `pnp build` processes (imports included).

    python bench/build.py [--repeat N] [--old DIR] [--base DIR]

Figures, each the best of N runs:

- cold: every bundled game, then all five at once, with an empty cache;
- warm: `pnp build pyramid-scheme` after a one-row edit, the cache kept from
  the build before the edit, against the same build with an empty cache;
- the generated 1,000-card deck, cold and warm, with the peak memory (RSS) of
  the build process and its children.

With ``--old DIR`` (a checkout of an earlier commit, e.g. made with
``git worktree add /tmp/old de387ec``) the cold builds of the bundled games are
also run with that code (PYTHONPATH=DIR), alternating with this code's runs,
and the speed-up is printed.  With ``--base DIR`` (a checkout that has the
cache, e.g. the commit before a change) the one-row-edit figures are also
measured with that code, alternating with this code's.

The machine's load average is printed before and after: on a shared machine,
compare only figures taken in one run (they alternate, so both codes see the
same load).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

# an older tree whose pnp/cli.py still names pnp.cli_validate (moved to pnp/commands/validate.py)
OLD_MAIN = ("import sys\ntry:\n    import pnp.commands.validate as v\n    sys.modules.setdefault('pnp.cli_validate', v)\n"
            "except ImportError:\n    pass\nfrom pnp.cli import main\nsys.argv[0] = 'pnp'\nmain()\n")


def process_env(code: Path) -> dict:
    """The environment of a benchmarked process: ``code`` on the path, and the compiled
    modules used as an installed package uses them (an environment that turns off
    writing them would make every process compile the project again)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(code)
    return env


def compile_tree(code: Path) -> None:
    """Compile a checkout's modules once, as installing it does."""
    import compileall

    for package in ("model", "generator", "validator", "preview", "pnp"):
        if (code / package).is_dir():
            compileall.compile_dir(code / package, quiet=1)


def load_average() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "?"


#: processor time (user + system, worker processes included) of the last run_build
LAST_CPU = [0.0]


def run_build(data: Path, out: Path, *args: str, code: Path | None = None) -> float:
    """Wall time of a fresh `pnp build` process (``code``: another checkout's); its
    processor time, which other work on the machine disturbs less, goes to ``LAST_CPU``."""
    import resource

    env = process_env(code if code is not None else REPO)
    if code is not None:
        command = [sys.executable, "-c", OLD_MAIN, "build"]
    else:
        command = [sys.executable, "-m", "pnp.cli", "build"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*command, *args, "--data", str(data), "--out", str(out)], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=out.parent)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall


PEAK = ("import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def peak_memory(data: Path, out: Path) -> float:
    """The largest resident set (MB) of the processes of one `pnp build` (workers included)."""
    env = process_env(REPO)
    done = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "pnp.cli", "build", "--data", str(data),
                           "--out", str(out)], check=True, capture_output=True, text=True, env=env)
    return int(done.stdout.split()[-1]) / 1024


def components(data: Path, games: set[str] | None = None) -> int:
    total = 0
    for name in ("cards.csv", "goals.csv"):
        path = data / name
        if path.exists():
            with path.open(encoding="utf-8") as fh:
                total += sum(int(r["count"]) for r in csv.DictReader(fh) if games is None or r["game"] in games)
    return total


def thousand_card_deck(dest: Path, n: int = 1000) -> Path:
    """``n`` distinct poker-size designs (the example game's templates)."""
    example = REPO / "docs" / "example"
    shutil.copytree(example / "templates", dest / "templates")
    colors = ["gold", "clay", "lapis"]
    with (dest / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["game", "deck", "id", "name", "count", "color", "number", "text"])
        for i in range(n):
            w.writerow(["tiny-tombs", "relic", f"r{i:04d}", f"Relic number {i}", 1, colors[i % 3], i % 11,
                        f"Worth {i % 11}. Card {i} of the generated deck, with rules text to wrap."])
    return dest


def best(fn, repeat: int) -> float:
    return min(fn() for _ in range(repeat))


def edit_one_row(data: Path, n: int) -> None:
    from helpers import find_row, set_cell

    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g07"), "name", f"Mint Farmer {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown")
    parser.add_argument("--old", type=Path, help="an earlier checkout to compare cold builds with")
    parser.add_argument("--base", type=Path, help="an earlier checkout with the cache, to compare one-row edits with")
    parser.add_argument("--quick", action="store_true", help="skip the per-game cold builds")
    args = parser.parse_args()
    from helpers import copy_game

    for code in (REPO, args.old, args.base):
        if code is not None:
            compile_tree(code.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        counter = iter(range(1_000_000))

        def fresh(name: str) -> Path:
            path = tmp / f"{name}-{next(counter)}"
            return path

        def cold(data, *games, code=None):
            out = fresh("out")
            out.mkdir()
            return run_build(data, out, *games, code=code)

        games = sorted(p.name for p in (REPO / "templates").iterdir()
                       if (p / "game.toml").exists() and components(REPO, {p.name}))
        print(f"load average at the start: {load_average()} ({os.cpu_count()} cores)")
        print(f"{'build':<46}{'wall s':>8}{'components':>12}{'per s':>9}")
        if not args.quick:
            for game in games:
                n = components(REPO, {game})
                t = best(lambda: cold(REPO, game), args.repeat)
                print(f"{'cold pnp build ' + game:<46}{t:>8.2f}{n:>12}{n / t:>9.0f}")
        n = components(REPO)
        if args.old:
            now, old, now_cpu, old_cpu = [], [], [], []
            for _ in range(args.repeat):  # alternate, so that both see the same machine
                old.append(cold(REPO, code=args.old.resolve()))
                old_cpu.append(LAST_CPU[0])
                now.append(cold(REPO))
                now_cpu.append(LAST_CPU[0])
            print(f"{'cold, all five games, ' + args.old.name + ' code':<46}{min(old):>8.2f}{n:>12}{n / min(old):>9.0f}")
            print(f"{'cold, all five games, this code':<46}{min(now):>8.2f}{n:>12}{n / min(now):>9.0f}")
            print(f"  speed-up: {min(old) / min(now):.2f}x (best of {args.repeat}, alternating); "
                  f"median {statistics.median(old) / statistics.median(now):.2f}x; processor time "
                  f"{min(old_cpu):.2f} s -> {min(now_cpu):.2f} s")
        else:
            t = best(lambda: cold(REPO), args.repeat)
            print(f"{'cold, all five games':<46}{t:>8.2f}{n:>12}{n / t:>9.0f}")

        # a one-row edit of Pyramid Scheme: warm cache against an empty one
        codes = [("this code", None)] + ([(args.base.name + " code", args.base.resolve())] if args.base else [])
        data = copy_game(tmp / "ps")
        warm_outs = {}
        for label, code in codes:
            warm_outs[label] = fresh("warm-out")
            warm_outs[label].mkdir()
            run_build(data, warm_outs[label], "pyramid-scheme", code=code)
        warm: dict[str, list[float]] = {label: [] for label, _ in codes}
        empty: dict[str, list[float]] = {label: [] for label, _ in codes}
        for i in range(args.repeat):  # alternate, so that both see the same machine
            edit_one_row(data, i)
            for label, code in codes:
                warm[label].append(run_build(data, warm_outs[label], "pyramid-scheme", code=code))
                empty[label].append(cold(data, "pyramid-scheme", code=code))
        n = components(data)
        for label, _ in reversed(codes):
            suffix = f", {label}" if args.base else ""
            print(f"{'one-row edit, pyramid-scheme, empty cache' + suffix:<46}{min(empty[label]):>8.2f}{n:>12}"
                  f"{n / min(empty[label]):>9.0f}")
            print(f"{'one-row edit, pyramid-scheme, warm cache' + suffix:<46}{min(warm[label]):>8.2f}{n:>12}"
                  f"{n / min(warm[label]):>9.0f}")
            print(f"  warm / empty{suffix}: {min(warm[label]) / min(empty[label]):.2f} (best of each); "
                  f"{statistics.median(warm[label]) / statistics.median(empty[label]):.2f} (medians)")

        deck = thousand_card_deck(tmp / "deck")
        deck_out = tmp / "deck-out"
        deck_out.mkdir()
        t = run_build(deck, deck_out)
        print(f"{'1,000 generated cards, empty cache':<46}{t:>8.2f}{1000:>12}{1000 / t:>9.0f}")
        t = best(lambda: run_build(deck, deck_out), args.repeat)
        print(f"{'1,000 generated cards, warm cache':<46}{t:>8.2f}{1000:>12}{1000 / t:>9.0f}")
        for size in (250, 1000):  # peak memory, empty cache, in a process of its own
            small = thousand_card_deck(fresh("deck"), size)
            print(f"  peak memory, {size} cards, empty cache: {peak_memory(small, fresh('out')):.0f} MB "
                  f"(largest process)")
        print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
