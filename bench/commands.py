"""What a designer waits for: fresh `pnp check`, `pnp build` and `pnp new` processes.

    python bench/commands.py [--repeat N] [--old DIR]

Figures, each the best of N runs (imports included), on the bundled games:

- `pnp check`: it loads the sheets, runs the deck and palette checks and, since
  it renders every design and reference sheet in memory, the whole render stage
  (reading the build cache a build left, writing nothing); once with no cache
  and once after a build;
- `pnp build`, warm (nothing changed since the last build): with it, the deck
  and palette checks every build now shows (the palette check's findings are
  kept in the build cache);
- `pnp new` followed by `pnp check` and `pnp build` of the new game, in an empty
  folder: the first minute of a new game.

With ``--old DIR`` (a checkout of an earlier commit) the check and warm build
figures are also measured with that code, alternating with this code's runs.
Compare only figures from one run: the machine is shared.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build import OLD_MAIN, compile_tree, load_average, process_env  # noqa: E402


def run(args: list[str], cwd: Path, code: Path | None = None, ok=(0,)) -> float:
    env = process_env(code if code is not None else REPO)
    command = [sys.executable, "-c", OLD_MAIN] if code is not None else [sys.executable, "-m", "pnp.cli"]
    start = time.perf_counter()
    done = subprocess.run([*command, *args], env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    assert done.returncode in ok, done.stderr.decode()[-2000:]
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--old", type=Path, help="an earlier checkout to compare with")
    args = parser.parse_args()
    compile_tree(REPO)
    codes = [("this code", None)]
    if args.old:
        compile_tree(args.old.resolve())
        codes.insert(0, (f"{args.old.name} code", args.old.resolve()))
    print(f"load average at the start: {load_average()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = tmp / "data"
        data.mkdir()
        for name in ("cards.csv", "goals.csv"):
            shutil.copy(REPO / name, data / name)
        shutil.copytree(REPO / "templates", data / "templates")
        figures: dict[tuple[str, str], list[float]] = {}
        for label, code in codes:  # a build each, for the warm figures
            run(["build", "--data", str(data), "--out", str(tmp / f"out-{label}")], tmp, code)
        for _ in range(args.repeat):  # alternate, so that both codes see the same machine
            for label, code in codes:
                out = tmp / f"out-{label}"
                cold = tmp / "empty" / "data"
                if not cold.exists():
                    shutil.copytree(data, cold, ignore=shutil.ignore_patterns("output"))
                figures.setdefault(("pnp check, no build cache", label), []).append(
                    run(["check", "--data", str(cold)], tmp, code))
                shutil.rmtree(data / "output", ignore_errors=True)
                shutil.copytree(out, data / "output")  # check reads DATA/output's cache
                figures.setdefault(("pnp check, after a build", label), []).append(
                    run(["check", "--data", str(data)], tmp, code))
                figures.setdefault(("pnp build, warm (nothing changed)", label), []).append(
                    run(["build", "--data", str(data), "--out", str(out)], tmp, code))
        for _ in range(args.repeat):
            fresh = tmp / f"new-{time.monotonic_ns()}"
            start = time.perf_counter()
            run(["new", "moon-base", "--data", str(fresh)], tmp)
            run(["check", "--data", str(fresh)], tmp)
            run(["build", "--data", str(fresh)], tmp)
            figures.setdefault(("pnp new, check and build of the new game", "this code"), []).append(
                time.perf_counter() - start)
        print(f"{'':<46}{'code':<16}{'best s':>8}")
        for (what, label), times in figures.items():
            print(f"{what:<46}{label:<16}{min(times):>8.2f}")
    print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
