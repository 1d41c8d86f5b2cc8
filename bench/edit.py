"""Inside `pnp watch`: a one-row edit of Pyramid Scheme to the rewritten PDF.

    python bench/edit.py [--repeat N]

Starts a watch session (the first build fills the cache), then saves
cards.csv with one cell changed, N times, and measures from the save to the
moment the new cards PDF is in place (the watcher's wait for the editor to
finish writing included), and the build alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

SLUG = "pyramid-scheme"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    from helpers import copy_game, find_row, set_cell
    from preview.session import Session
    from preview.watch import watch

    with tempfile.TemporaryDirectory() as tmp:
        data = copy_game(Path(tmp) / "data")
        session = Session(data, [SLUG], Path(tmp) / "out")
        session.build(workers=os.cpu_count() or 1)
        pdf = Path(tmp) / "out" / SLUG / f"{SLUG}-cards.pdf"
        builds = []
        stop = threading.Event()
        thread = threading.Thread(target=watch, args=(session, builds.append, stop), daemon=True)
        thread.start()
        time.sleep(1.0)
        cards = data / "cards.csv"
        row = find_row(cards, "id", "g07")
        total, build = [], []
        for i in range(args.repeat):
            before = os.stat(pdf).st_ino
            n = len(builds)
            start = time.perf_counter()
            set_cell(cards, row, "name", f"Mint Farmer {i}")
            while os.stat(pdf).st_ino == before:
                time.sleep(0.002)
            total.append(time.perf_counter() - start)
            while len(builds) == n:
                time.sleep(0.002)
            build.append(builds[-1].seconds)
            time.sleep(0.3)
        stop.set()
        thread.join(timeout=5)
        session.close()
        load = " ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"one-row edit of {SLUG} inside pnp watch ({args.repeat} saves; load average {load}, "
              f"{os.cpu_count()} cores)")
        print(f"  save -> new cards PDF in place: median {statistics.median(total):.3f} s, best {min(total):.3f} s")
        print(f"  the build alone:                median {statistics.median(build):.3f} s, best {min(build):.3f} s")
        print("  target: under 0.3 s")


if __name__ == "__main__":
    main()
