"""The bundled engines before and after a change: the same reports, and how fast.

    python bench/engines.py                      # against the commit this branch left main at
    python bench/engines.py --base v0.1 --games 500 --repeat 3
    python bench/engines.py --only pyramid-shambo,pyrrameds

For every bundled game it runs ``pnp validate GAME --games N --seed S --workers 1``
with the source of the base commit (extracted to a scratch folder and put first
on ``PYTHONPATH``) and with this working tree, alternately, ``--repeat`` times
each, and prints:

* whether every file of the validation folder is the same: games.csv and the
  engine's tables byte for byte, summary.json apart from the rules hash and the
  timing block, report.html apart from the lines showing those two;
* the games per second of the main games (from summary.json), best of the runs,
  base and head side by side - the machine is shared and noisy, so only runs made
  in turn, in one invocation, are compared;
* the games per second of the runner's protocol loop alone (``runner.play``, random
  bots, the engine's smallest player count, reading standings as the first 2,000
  games of a run do, so no engine's fast path plays instead): where a change to the
  loop itself would show, best of ``--repeat`` alternating runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", help="the commit to compare with (default: git merge-base HEAD main)")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=2, help="runs of each side per game (the best speed is kept)")
    ap.add_argument("--only", help="comma-separated games (default: the five bundled ones)")
    ap.add_argument("--loop-games", type=int, default=300, help="games per timing of the protocol loop")
    args = ap.parse_args()
    base = args.base or _git("merge-base", "HEAD", "main")
    games = args.only.split(",") if args.only else GAMES
    with tempfile.TemporaryDirectory(prefix="pnp-bench-engines-") as tmp:
        tree = Path(tmp) / "base"
        _extract(base, tree)
        print(f"base {base[:10]} against the working tree; {args.games} games, seed {args.seed}, one worker")
        print(f"{'game':<18} {'files':<34} {'base g/s':>9} {'head g/s':>9} {'head/base':>9}")
        same_everywhere = True
        for game in games:
            speeds = {"base": [], "head": []}
            outs = {}
            for k in range(args.repeat):
                for side, path in (("base", tree), ("head", ROOT)):
                    out = Path(tmp) / f"{side}-{game}-{k}"
                    _validate(path, game, args, out)
                    folder = out / game / "validation"
                    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
                    speeds[side].append(summary["timing"]["games_per_second"])
                    outs.setdefault(side, folder)
            verdict = _compare(outs["base"], outs["head"])
            same_everywhere &= verdict.startswith("same")
            b, h = max(speeds["base"]), max(speeds["head"])
            print(f"{game:<18} {verdict:<34} {b:>9,.0f} {h:>9,.0f} {h / b:>9.2f}")
        print(f"\nthe protocol loop alone: {args.loop_games} games with random bots, best of {args.repeat}")
        print(f"{'game':<18} {'base g/s':>9} {'head g/s':>9} {'head/base':>9}")
        for game in games:
            speeds = {"base": [], "head": []}
            for _ in range(args.repeat):
                for side, path in (("base", tree), ("head", ROOT)):
                    speeds[side].append(_loop(path, game, args.loop_games))
            b, h = max(speeds["base"]), max(speeds["head"])
            print(f"{game:<18} {b:>9,.0f} {h:>9,.0f} {h / b:>9.2f}")
    return 0 if same_everywhere else 1


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def _extract(commit: str, into: Path) -> None:
    data = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def _validate(tree: Path, game: str, args, out: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", "from pnp.cli import main; main()", "validate", game, "--games", str(args.games),
           "--seed", str(args.seed), "--workers", "1", "--data", str(ROOT), "--out", str(out)]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{game} in {tree}: exit {done.returncode}\n{done.stderr}")


_LOOP = """
import sys, time
from model.sheets import load_project
from validator.kit import get_spec
from validator.runner import PlayOptions, play
root, slug, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = get_spec(slug)
game = spec.make(load_project(root, [slug]).games[slug], spec.min_players)
bots = ("random",) * spec.min_players
t = time.perf_counter()
for i in range(n):
    play(game, 1000 + i, bots, PlayOptions(), read_standings=True)
print(n / (time.perf_counter() - t))
"""


def _loop(tree: Path, game: str, games: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", _LOOP, str(ROOT), game, str(games)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return float(done.stdout)


_VOLATILE = re.compile(r"<code>[0-9a-f]{16}</code>|>[0-9.,]+ s</td>|>[0-9.,]+ \(main games[^<]*</td>")


def _compare(a: Path, b: Path) -> str:
    names = sorted(p.name for p in a.iterdir())
    if names != sorted(p.name for p in b.iterdir()):
        return "DIFFERENT files"
    for name in names:
        x, y = (a / name).read_bytes(), (b / name).read_bytes()
        if name == "summary.json":
            x, y = json.loads(x), json.loads(y)
            for s in (x, y):
                s.pop("timing", None)
                s["run"].pop("rules_hash", None)
        elif name == "report.html":
            x, y = _VOLATILE.sub("", x.decode()), _VOLATILE.sub("", y.decode())
        if x != y:
            return f"DIFFERENT: {name}"
    return f"same ({len(names)} files)"


if __name__ == "__main__":
    sys.exit(main())
