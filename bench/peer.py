"""A 120-card poker deck (name, colour, a big number, 8-20 words of wrapped
rules text) built with pnp, empty cache and warm, and with board-game-factory
(`bgfactory`, the fastest Python peer) when it is installed and importable.

    python bench/peer.py [--repeat N]
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORDS = ("draw discard flip each player may take one card from the pyramid then pass the turn to the left "
         "unless a police card blocks the branch below it").split()
COLORS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "gold": "#c9a227"}
MANIFEST = """[game]
title = "Peer Bench"
[palette.red]
fill = "#c62828"
[palette.blue]
fill = "#1565c0"
[palette.green]
fill = "#2e7d32"
[palette.gold]
fill = "#c9a227"
[decks.card]
label = "Cards"
size = "poker"
front = "card.svg.j2"
[decks.card.columns]
color = { required = true }
number = { type = "int", min = 0, max = 99, required = true }
text = {}
"""
TEMPLATE = """{% extends "pnp/card.svg.j2" %}
{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="{{ pal(card.color).fill }}"/>{% endblock %}
{% block body %}
<rect x="{{ B + 3 }}" y="{{ B + 3 }}" width="{{ TW - 6 }}" height="{{ TH - 6 }}" rx="3" fill="#ffffff"/>
{{ text(card.name, B + 5, B + 6, TW - 10, 8, size=5, bold=True, field="name") }}
{{ text(card.number, B + 5, B + 18, TW - 10, 30, size=24, bold=True, fill=pal(card.color).fill, field="number") }}
{{ text(card.text, B + 6, B + 52, TW - 12, 28, size=3.6, field="text") }}
{% endblock %}
"""


def rows(n: int = 120, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    return [{"name": f"Card {i + 1}", "color": list(COLORS)[i % 4], "number": rng.randint(1, 99),
             "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."}
            for i in range(n)]


def pnp_data(dest: Path, cards: list[dict]) -> Path:
    (dest / "templates" / "peer").mkdir(parents=True)
    (dest / "templates" / "peer" / "game.toml").write_text(MANIFEST, encoding="utf-8")
    (dest / "templates" / "peer" / "card.svg.j2").write_text(TEMPLATE, encoding="utf-8")
    with (dest / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["game", "deck", "id", "name", "count", "color", "number", "text"])
        for i, c in enumerate(cards):
            w.writerow(["peer", "card", f"c{i:03d}", c["name"], 1, c["color"], c["number"], c["text"]])
    return dest


def pnp_build(data: Path, out: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp.cli", "build", "--data", str(data), "--out", str(out)], check=True,
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


BGF_SCRIPT = r'''
import sys, json
from bgfactory import ff
cards = json.load(open(sys.argv[1]))
out = sys.argv[2]
W, H = 750, 1050  # poker card at 300 dpi
deck = []
for c in cards:
    r, g, b = (int(c["hex"][i:i + 2], 16) / 255 for i in (1, 3, 5))
    card = ff.RoundedRectangle(0, 0, W, H, radius=30, stroke_width=0, fill_src=ff.RGBSource(r, g, b))
    card.add(ff.RoundedRectangle(36, 36, W - 72, H - 72, radius=30, stroke_width=0, fill_src=ff.COLOR_WHITE))
    card.add(ff.TextUniform(60, 70, W - 120, 100, c["name"], ff.FontDescription(size=50, weight="bold")))
    card.add(ff.TextUniform(60, 200, W - 120, 300, str(c["number"]), ff.FontDescription(size=240, weight="bold")))
    card.add(ff.TextUniform(70, 620, W - 140, 340, c["text"], ff.FontDescription(size=36)))
    deck.append(card)
ff.export_pdf(deck, out) if hasattr(ff, "export_pdf") else ff.CardSheet(2480, 3508, deck).image()
'''


def bgfactory_build(cards: list[dict], tmp: Path) -> float:
    src = tmp / "cards.json"
    import json

    src.write_text(json.dumps([{**c, "hex": COLORS[c["color"]]} for c in cards]), encoding="utf-8")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", BGF_SCRIPT, str(src), str(tmp / "bgf.pdf")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def bgfactory_problem() -> str | None:
    """Why bgfactory cannot be compared, or None."""
    done = subprocess.run([sys.executable, "-c", "from bgfactory import ff"], capture_output=True, text=True)
    if done.returncode == 0:
        return None
    last = (done.stderr.strip().splitlines() or ["?"])[-1]
    if "No module named 'bgfactory'" in last:
        return "bgfactory is not installed (pip install bgfactory)"
    return f"bgfactory is installed but cannot be imported ({last})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cards = rows()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = pnp_data(tmp / "data", cards)
        n = iter(range(10_000))
        empty = min(pnp_build(data, tmp / f"out-{next(n)}") for _ in range(args.repeat))
        warm_out = tmp / "warm"
        pnp_build(data, warm_out)
        warm = min(pnp_build(data, warm_out) for _ in range(args.repeat))
        print(f"{'120 poker cards':<40}{'wall s':>8}")
        print(f"{'pnp build, empty cache':<40}{empty:>8.2f}")
        print(f"{'pnp build, warm cache':<40}{warm:>8.2f}")
        problem = bgfactory_problem()
        if problem:
            print(f"board-game-factory comparison skipped: {problem}")
            return
        peer = min(bgfactory_build(cards, tmp) for _ in range(args.repeat))
        print(f"{'board-game-factory':<40}{peer:>8.2f}")
        print(f"pnp is {peer / empty:.1f}x faster with an empty cache, {peer / warm:.1f}x warm "
              f"(goals: 4x and 10x)")
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
