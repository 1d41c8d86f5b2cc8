"""Build benchmarks: a cold `pnp build` of the bundled data, and a generated
1,000-card deck.  Prints wall times and cards per second.

    python bench/build.py [--repeat N]
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def cold_build(data: Path, out: Path, *games: str) -> float:
    """Wall time of a fresh `pnp build` process (imports included)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp.cli", "build", *games, "--data", str(data), "--out", str(out)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    return time.perf_counter() - start


def components(data: Path, games: set[str] | None = None) -> int:
    total = 0
    for name in ("cards.csv", "goals.csv"):
        path = data / name
        if path.exists():
            with path.open(encoding="utf-8") as fh:
                total += sum(int(r["count"]) for r in csv.DictReader(fh) if games is None or r["game"] in games)
    return total


def thousand_card_deck(dest: Path) -> Path:
    """1,000 distinct poker-size designs (the example game's templates)."""
    example = REPO / "docs" / "example"
    shutil.copytree(example / "templates", dest / "templates")
    colors = ["gold", "clay", "lapis"]
    with (dest / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["game", "deck", "id", "name", "count", "color", "number", "text"])
        for i in range(1000):
            w.writerow(["tiny-tombs", "relic", f"r{i:04d}", f"Relic number {i}", 1, colors[i % 3], i % 11,
                        f"Worth {i % 11}. Card {i} of the generated deck, with rules text to wrap."])
    return dest


def best(fn, repeat: int) -> float:
    return min(fn() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        games = sorted(p.name for p in (REPO / "templates").iterdir()
                       if (p / "game.toml").exists() and components(REPO, {p.name}))
        print(f"{'build':<34}{'wall s':>8}{'components':>12}{'per s':>9}")
        for game in games:
            n = components(REPO, {game})
            t = best(lambda: cold_build(REPO, tmp / "out", game), args.repeat)
            print(f"{'pnp build ' + game:<34}{t:>8.2f}{n:>12}{n / t:>9.0f}")
        n = components(REPO)
        t = best(lambda: cold_build(REPO, tmp / "out"), args.repeat)
        print(f"{'pnp build (all bundled games)':<34}{t:>8.2f}{n:>12}{n / t:>9.0f}")
        deck = thousand_card_deck(tmp / "deck")
        t = best(lambda: cold_build(deck, tmp / "out-deck"), args.repeat)
        print(f"{'pnp build (1,000 generated cards)':<34}{t:>8.2f}{1000:>12}{1000 / t:>9.0f}")
        print("targets: Pyramid Scheme under 1.5 s; all five games under 3 s; 1,000 cards under 3 s")


if __name__ == "__main__":
    main()
