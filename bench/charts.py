"""Seconds to draw a validation report's charts and the engine's report sections, per bundled game.

    python bench/charts.py                    # every bundled game
    python bench/charts.py --old /tmp/old     # ... and an earlier checkout beside this code, run by run
    python bench/charts.py --game pyramid-scheme --repeat 7

A validation run draws its report in a process of its own while the last games play; with few
games (a quick run, or many cores) the run waits for it, so its cost is most of a run's fixed
cost.  For each game this plays a short run (this code, 300 games, no skill matrix) for a
summary.json, then, in a fresh process of each code tree, imports matplotlib as the drawing
process does and times the drawing of every chart and the engine's sections from that summary:
the first time (cold, as in a run: fonts and caches not yet loaded) and again (warm).  It prints
the best of ``--repeat`` fresh processes, trees taking turns so that both share the machine's moods.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]

#: a child that draws one report's charts and sections, cold and then warm, and prints the seconds
CHILD = ("import json, sys, time\n"
         "sys.path.insert(0, '.')\n"
         "from validator.kit import get_spec\n"
         "from validator.kit.html import plt\n"
         "try:\n"
         "    from validator.drawing import _draw_all\n"
         "except ImportError:  # (a checkout from before validator/drawing.py)\n"
         "    from validator.report import _draw_all\n"
         "summary = json.load(open(sys.argv[1], encoding='utf-8'))\n"
         "spec = get_spec(sys.argv[2])\n"
         "plt()\n"
         "times = []\n"
         "for _ in range(2):\n"
         "    started = time.perf_counter()\n"
         "    _draw_all(spec, summary)\n"
         "    times.append(time.perf_counter() - started)\n"
         "print(json.dumps(times))\n")


def draw(code: Path, summary: Path, slug: str) -> list[float]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(summary), slug], capture_output=True, text=True,
                          cwd=code)
    if done.returncode:
        raise SystemExit(f"drawing {slug} in {code} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="a bundled game (repeatable; default: all five)")
    ap.add_argument("--repeat", type=int, default=5, help="fresh processes per cell; the best is kept (default 5)")
    ap.add_argument("--old", type=Path, help="an earlier checkout to time beside this code")
    args = ap.parse_args()
    trees = [("this code", ROOT)] + ([("old", args.old.resolve())] if args.old else [])
    print("seconds to draw the report's charts and the engine's sections: first time (cold) / again (warm)")
    print(f"{'game':<18}" + "".join(f"{name:>20}" for name, _ in trees))
    with tempfile.TemporaryDirectory(prefix="pnp-charts-") as tmp:
        for slug in args.game or GAMES:
            subprocess.run([sys.executable, "-m", "pnp.cli", "validate", slug, "--data", str(ROOT), "--games", "300",
                            "--skill-games", "0", "--workers", "1", "--out", tmp], capture_output=True, cwd=ROOT)
            summary = Path(tmp) / slug / "validation" / "summary.json"
            if not summary.exists():
                raise SystemExit(f"pnp validate {slug} wrote no summary.json")
            best = {name: [float("inf")] * 2 for name, _ in trees}
            for _ in range(args.repeat):
                for name, code in trees:
                    best[name] = [min(a, b) for a, b in zip(best[name], draw(code, summary, slug))]
            print(f"{slug:<18}" + "".join(f"{f'{c:.3f} / {w:.3f}':>20}" for c, w in best.values()), flush=True)


if __name__ == "__main__":
    main()
