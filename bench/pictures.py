"""Cards with pictures: a generated 200-card deck with real photographs and PNGs with transparency.

    python bench/pictures.py [--cards N] [--repeat N] [--skip-watch]

The deck: 50 distinct photographs (1500 x 2100 px JPEG, cut, turned and
tinted from the sample photographs that ship with scikit-image: astronaut,
coffee, chelsea, rocket, hubble_deep_field, immunohistochemistry and retina,
all public domain or CC0 by their docstrings) and 20 PNGs with transparency
(900 x 900 px cut-outs of the same photographs), one per card, and rules text
with icons and markup on every card.  Printed, side by side in one run:

- a cold build (empty cache, ``pnp build`` with all cores) of the deck with its
  pictures, of the same deck without them (the art column empty) and with the
  photographs only, each in a fresh process, best of ``--repeat``; the target
  is at most 1.5 times; the cold builds with pictures must all write the same
  bytes;
- the cards PDF: its size against the sum of the picture files (target at
  most 1.1 times), and how many image objects it holds (each picture once);
- the peak memory of the building process for 100, 200 and 400 cards (target
  under 400 MB and flat in the number of cards);
- inside ``pnp watch``: replacing one picture file to the rewritten cards PDF
  (target under 0.3 s).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PHOTOS, CUTOUTS = 50, 20
SOURCES = ("astronaut", "coffee", "chelsea", "rocket", "hubble_deep_field", "immunohistochemistry", "retina")

MANIFEST = """[game]
title = "Picture Bench"
font = "DejaVu Serif"

[palette.gold]
fill = "#b8860b"
[palette.blood]
fill = "#a4161a"

[decks.relic]
label = "Relics"
size = "poker"
[decks.relic.columns]
color = {}
text = {}
art = {}
"""
TEMPLATE = """{% extends "pnp/card.svg.j2" %}
{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#f3ead6"/>{% endblock %}
{% block body %}
{{ picture(card.art, 0, 0, W, 50) }}
<rect x="{{ B + 3 }}" y="{{ B + 44 }}" width="{{ TW - 6 }}" height="10" rx="1.5" fill="#fffaf0" stroke="#8a6d3b"/>
{{ text(card.name, B + 4, B + 45.5, TW - 8, 7, size=5, bold=True, field="name") }}
{{ text(card.text, B + 5, B + 57, TW - 10, 26, size=3.4, min_size=2.4) }}
{% endblock %}
"""
TEXTS = [
    "Worth 2. **Draw** a card, *then* gain :coins: and :shield-halved:.",
    "[blood]**Curse**[/]: every other player loses 1~:heart:. *Once per turn.*",
    "Spend 3 :coins: to bury a rival's relic. ***Unstoppable***.",
    "Gain :star: for each [gold]gold[/] relic you hold.|*The pharaoh remembers.*",
]


def make_pictures(folder: Path) -> list[str]:
    import numpy as np
    import skimage.data
    from PIL import Image, ImageFilter

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    sources = [Image.fromarray(getattr(skimage.data, n)()).convert("RGB") for n in SOURCES]
    names = []
    for i in range(PHOTOS):
        src = sources[i % len(sources)]
        w, h = src.size
        # a different cut, turn and tint of a sample photograph each time
        zoom = 0.55 + 0.4 * rng.random()
        cw, ch = int(w * zoom), int(min(h, w * zoom * 1.4))
        x0, y0 = int(rng.integers(0, max(1, w - cw))), int(rng.integers(0, max(1, h - ch)))
        im = src.crop((x0, y0, x0 + cw, y0 + ch)).resize((1500, 2100), Image.LANCZOS)
        if i % 3 == 1:
            im = im.transpose(Image.FLIP_LEFT_RIGHT)
        tint = np.array([1.0, 0.9 + 0.2 * rng.random(), 0.85 + 0.3 * rng.random()])
        pixels = np.clip(np.asarray(im, dtype=np.float32) * tint, 0, 255).astype(np.uint8)
        name = f"art/photo-{i:02d}.jpg"
        Image.fromarray(pixels).save(folder.parent / name, quality=90)
        names.append(name)
    for i in range(CUTOUTS):
        src = sources[(i * 3) % len(sources)]
        w, h = src.size
        side = min(w, h)
        im = src.crop(((w - side) // 2, (h - side) // 2, (w + side) // 2, (h + side) // 2)).resize((900, 900))
        mask = Image.new("L", (900, 900), 0)
        from PIL import ImageDraw

        ImageDraw.Draw(mask).ellipse((40 + 6 * i, 40, 860 - 6 * i, 860), fill=255)
        im.putalpha(mask.filter(ImageFilter.GaussianBlur(12)))
        name = f"art/cutout-{i:02d}.png"
        im.save(folder.parent / name)
        names.append(name)
    return names


def make_data(root: Path, cards: int, pictures: list[str], with_art: bool) -> Path:
    import csv

    data = root
    game = data / "templates" / "bench"
    game.mkdir(parents=True, exist_ok=True)
    (game / "game.toml").write_text(MANIFEST, encoding="utf-8")
    (game / "relic.svg.j2").write_text(TEMPLATE, encoding="utf-8")
    with (data / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["game", "deck", "id", "name", "count", "color", "text", "art"])
        for i in range(cards):
            w.writerow(["bench", "relic", f"r{i:03d}", f"Relic {i}", 1, "gold" if i % 2 else "blood",
                        TEXTS[i % len(TEXTS)], pictures[i % len(pictures)] if with_art else ""])
    return data


CHILD = """
import resource, sys, time, json
from pathlib import Path
sys.path.insert(0, {repo!r})
start = time.perf_counter()
from pnp.cli import main
try:
    main(["build", "bench", "--data", {data!r}, "--out", {out!r}])
except SystemExit as exc:
    code = exc.code
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                   "children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}}))
"""


def cold_build(data: Path, out: Path) -> dict:
    """One `pnp build` from an empty cache in a fresh process: seconds and peak memory."""
    import shutil

    shutil.rmtree(out, ignore_errors=True)
    code = CHILD.format(repo=str(REPO), data=str(data), out=str(out))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if not line.startswith("{"):
        raise SystemExit(f"the build failed:\n{done.stdout}\n{done.stderr}")
    found = json.loads(line)
    import hashlib

    pdf = out / "bench" / "bench-cards.pdf"
    found["pdf"] = hashlib.sha256(pdf.read_bytes()).hexdigest() if pdf.exists() else None
    return found


def pdf_figures(pdf: Path) -> tuple[int, int, int]:
    """(bytes, image objects, soft masks) of a PDF (reportlab writes no object streams:
    each object's dictionary is in the file as it is)."""
    import re

    raw = pdf.read_bytes()
    images = len(re.findall(rb"/Subtype /Image", raw))
    masks = len(re.findall(rb"/SMask \d+ 0 R", raw))
    return len(raw), images, masks


def watch_replace(data: Path, out: Path, pictures: list[str], repeat: int) -> list[float]:
    """Inside pnp watch: replace one picture file, time until the rewritten cards PDF is in place."""
    from PIL import Image

    from preview.session import Session
    from preview.watch import watch

    session = Session(data, ["bench"], out)
    session.build(workers=os.cpu_count() or 1)
    pdf = out / "bench" / "bench-cards.pdf"
    builds: list = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(session, builds.append, stop), daemon=True)
    thread.start()
    time.sleep(1.0)
    target = data / pictures[3]
    original = Image.open(target).convert("RGB")
    times = []
    for i in range(repeat):
        tinted = original.point(lambda v, k=i: min(255, v + 3 + k))
        fresh = target.with_suffix(".tmp")
        tinted.save(fresh, "JPEG", quality=90)
        before = os.stat(pdf).st_ino
        n = len(builds)
        start = time.perf_counter()
        os.replace(fresh, target)  # as an image editor saves
        while os.stat(pdf).st_ino == before:
            time.sleep(0.002)
        times.append(time.perf_counter() - start)
        while len(builds) == n:
            time.sleep(0.002)
        if builds[-1].errors:
            raise SystemExit("\n".join(builds[-1].errors))
        time.sleep(0.3)
    stop.set()
    thread.join(timeout=5)
    session.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-watch", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        pictures = make_pictures(tmp / "with" / "art")
        print(f"made {PHOTOS} photographs and {CUTOUTS} PNG cut-outs in {time.perf_counter() - t:.1f} s")
        with_art = make_data(tmp / "with", args.cards, pictures, True)
        without = make_data(tmp / "without", args.cards, pictures, False)
        photos = make_data(tmp / "photos", args.cards, pictures[:PHOTOS], True)
        (photos / "art").mkdir()
        for name in pictures[:PHOTOS]:
            os.link(with_art / name, photos / name)
        total = sum((with_art / p).stat().st_size for p in pictures)
        runs: dict[str, list[dict]] = {"with": [], "without": [], "photos": []}
        for _ in range(args.repeat):  # side by side, alternating
            runs["without"].append(cold_build(without, tmp / "out-without"))
            runs["with"].append(cold_build(with_art, tmp / "out-with"))
            runs["photos"].append(cold_build(photos, tmp / "out-photos"))
        best = {k: min(r["seconds"] for r in v) for k, v in runs.items()}
        load = " ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"cold build of {args.cards} cards, empty cache, best of {args.repeat} "
              f"(load average {load}, {os.cpu_count()} cores)")
        for key, label in (("without", "without pictures"), ("with", "with all 70 pictures"),
                           ("photos", "with the 50 photographs only")):
            print(f"  {label + ':':30s} {best[key]:.2f} s (median "
                  f"{statistics.median(r['seconds'] for r in runs[key]):.2f})"
                  + ("" if key == "without" else f", ratio {best[key] / best['without']:.2f} (target: at most 1.5)"))
        made = {r["pdf"] for r in runs["with"]}
        print(f"cards PDF of the {args.repeat} cold builds with pictures: "
              + ("the same bytes every time" if len(made) == 1 else f"{len(made)} DIFFERENT files"))
        size, images, masks = pdf_figures(tmp / "out-with" / "bench" / "bench-cards.pdf")
        print(f"cards PDF: {size / 1e6:.1f} MB for {total / 1e6:.1f} MB of picture files "
              f"({size / total:.2f} times; target at most 1.1); {images - masks} images and {masks} soft masks "
              f"for {len(pictures)} picture files ({CUTOUTS} with transparency)")
        print("peak memory of the building process (and of its worker processes):")
        for n in (args.cards // 2, args.cards, args.cards * 2):
            data = make_data(tmp / "with", n, pictures, True)
            r = cold_build(data, tmp / f"out-mem-{n}")
            print(f"  {n:4d} cards: {r['rss_mb']:.0f} MB (workers {r['children_mb']:.0f} MB), {r['seconds']:.2f} s")
        make_data(tmp / "with", args.cards, pictures, True)
        if not args.skip_watch:
            times = watch_replace(with_art, tmp / "out-watch", pictures, max(3, args.repeat * 2))
            print(f"inside pnp watch, one picture file replaced -> new cards PDF in place: "
                  f"median {statistics.median(times):.3f} s, best {min(times):.3f} s (target: under 0.3 s)")


if __name__ == "__main__":
    main()
