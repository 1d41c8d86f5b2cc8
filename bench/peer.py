"""A 120-card poker deck (name, colour, a big number, 8-20 words of wrapped rules
text) built by pnp and by board-game-factory 0.3.0 (the PyPI package
``board-game-factory``, imported as ``bgfactory``: a Cairo/Pango framework, the
fastest Python peer found), side by side in one run.

    pip install board-game-factory==0.3.0   # into the same venv, to compare
    python bench/peer.py [--repeat N] [--old DIR]

Each figure is the best of N fresh processes (imports included), the two tools
alternating so that a busy machine slows both alike:

- pnp, empty cache: ``pnp build`` into a new output folder (card sheets with
  bleed, crop marks and backs as PDF, and the reference sheet);
- pnp, warm: the output PDFs deleted, the build cache kept;
- pnp, unchanged: the same command again, nothing changed (it says the PDFs are
  up to date);
- board-game-factory: the same cards drawn with its components and laid out on
  A4 print sheets with cut lines by ``make_printable_sheets`` at 300 dpi, saved
  as PNG (its print-ready output; it has no PDF export and no cache, so an
  unchanged rebuild is the same work again).

The speed-ups printed are board-game-factory's time over pnp's (goals: 5x with
an empty cache, 10x for an unchanged rebuild).  With ``--old DIR`` (a checkout of
an earlier commit, e.g. ``git worktree add /tmp/old main``) the same three pnp
builds also run with that code, in the same rounds.
"""

from __future__ import annotations

import argparse
import csv
import json
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

BGF_SCRIPT = r'''
import json, sys
from bgfactory import ff
from pangocffi import Weight
cards = json.load(open(sys.argv[1]))
W, H = 750, 1050  # a poker card at 300 dpi
deck = []
for c in cards:
    r, g, b = (int(c["hex"][i:i + 2], 16) / 255 for i in (1, 3, 5))
    card = ff.RoundedRectangle(0, 0, W, H, radius=30, stroke_width=0, fill_src=ff.RGBSource(r, g, b))
    card.add(ff.RoundedRectangle(36, 36, W - 72, H - 72, radius=30, stroke_width=0, fill_src=ff.COLOR_WHITE))
    card.add(ff.TextUniform(60, 70, W - 120, 100, c["name"], ff.FontDescription("DejaVu Sans", size=50,
                                                                                  weight=Weight.BOLD)))
    card.add(ff.TextUniform(60, 200, W - 120, 300, str(c["number"]), ff.FontDescription("DejaVu Sans", size=240,
                                                                                         weight=Weight.BOLD)))
    card.add(ff.TextUniform(70, 620, W - 140, 340, c["text"], ff.FontDescription("DejaVu Sans", size=36)))
    deck.append(card)
ff.make_printable_sheets(deck, dpi=300, out_dir_path=sys.argv[2])
'''


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


def pnp_build(data: Path, out: Path, expect: str = "wrote", code: Path = REPO) -> float:
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    # run in the code's folder: "python -m" puts the working folder first on the path
    done = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "--data", str(data), "--out", str(out)],
                          env=env, capture_output=True, text=True, check=True, cwd=code)
    took = time.perf_counter() - start
    if expect not in done.stdout:
        raise SystemExit(f"pnp build did not say {expect!r}:\n{done.stdout}")
    return took


def bgf_build(src: Path, out: Path) -> float:
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", BGF_SCRIPT, str(src), str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def bgf_problem() -> str | None:
    """Why board-game-factory cannot be compared, or None."""
    done = subprocess.run([sys.executable, "-c", "from bgfactory import ff; ff.make_printable_sheets"],
                          capture_output=True, text=True)
    if done.returncode == 0:
        return None
    last = (done.stderr.strip().splitlines() or ["?"])[-1]
    if "No module named 'bgfactory'" in last:
        return "board-game-factory is not installed (pip install board-game-factory==0.3.0)"
    return f"board-game-factory is installed but cannot be used ({last})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--old", type=Path, help="a checkout of earlier code to run beside this one")
    args = parser.parse_args()
    cards = rows()
    problem = bgf_problem()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.repeat} runs each, best kept")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = pnp_data(tmp / "data", cards)
        src = tmp / "cards.json"
        src.write_text(json.dumps([{**c, "hex": COLORS[c["color"]]} for c in cards]), encoding="utf-8")
        times: dict[str, list[float]] = {"empty": [], "warm": [], "unchanged": [], "bgf": [], "old empty": [],
                                         "old warm": [], "old unchanged": []}
        for n in range(args.repeat):
            for prefix, code in (("", REPO), ("old ", args.old)):
                if code is None:
                    continue
                out = tmp / f"{prefix.strip() or 'new'}-{n}"
                times[prefix + "empty"].append(pnp_build(data, out, code=code))
                for pdf in (out / "peer").glob("*.pdf"):
                    pdf.unlink()  # the cache stays
                times[prefix + "warm"].append(pnp_build(data, out, code=code))
                times[prefix + "unchanged"].append(pnp_build(data, out, "up to date" if not prefix else "",
                                                             code=code))
            if problem is None:
                times["bgf"].append(bgf_build(src, tmp / "bgf"))
        if problem is None:
            sheets = len(list((tmp / "bgf").glob("*.png")))
            pages = len(list((tmp / "new-0" / "peer").glob("*.pdf")))
        best = {k: min(v) for k, v in times.items() if v}
    print(f"{'120 poker cards':<44}{'wall s':>8}")
    print(f"{'pnp build, empty cache':<44}{best['empty']:>8.2f}")
    print(f"{'pnp build, warm cache (PDFs deleted)':<44}{best['warm']:>8.2f}")
    print(f"{'pnp build, unchanged (up to date)':<44}{best['unchanged']:>8.2f}")
    if args.old:
        for kind in ("empty", "warm", "unchanged"):
            print(f"{'  earlier code, ' + kind:<44}{best['old ' + kind]:>8.2f}")
    if problem:
        print(f"board-game-factory comparison skipped: {problem}")
        return
    print(f"{'board-game-factory 0.3.0 (' + str(sheets) + ' A4 sheets, PNG)':<44}{best['bgf']:>8.2f}")
    print(f"pnp ({pages} PDFs) is {best['bgf'] / best['empty']:.1f}x faster with an empty cache, "
          f"{best['bgf'] / best['warm']:.1f}x warm and {best['bgf'] / best['unchanged']:.1f}x for an unchanged "
          "rebuild (goals: 5x and 10x)")
    if args.old:
        print(f"the earlier code: {best['bgf'] / best['old empty']:.1f}x with an empty cache, "
              f"{best['bgf'] / best['old unchanged']:.1f}x for an unchanged rebuild")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
