"""What the hand-written picture code saves over the libraries it stands in for.

    python bench/handmade.py [--repeat N] [--cards N]

Figures, each the best of N runs, on the pictures benchmark's files (``bench/pictures.py``:
1500 x 2100 px photographs, 900 x 900 px PNGs with transparency):

- a PNG without transparency into a PDF: its compressed rows as they are (``art.formats.png_info``)
  against decoding it with Pillow and compressing it again as reportlab does (``zlib.compress``);
- a PNG with transparency: its filtered rows split into colours and transparency without
  decoding (``pdfimages._png_split``) against Pillow decoding it (``pdfimages._png_encode``'s
  other path);
- the cards PDF of the deck (``--cards`` cards, each with a picture): its pictures' data put in
  after reportlab wrote the file (``draw.splice``) against reportlab writing the data itself:
  the seconds and the peak memory of a fresh build process, and whether both write the same bytes;
  and what a PDF library doing the same would cost at the least: the file read and written again
  by pypdf and by qpdf.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def png_of(jpeg: Path, folder: Path) -> Path:
    """The same photograph as a PNG without transparency (what a designer's export often is)."""
    from PIL import Image

    path = folder / "photo.png"
    with Image.open(jpeg) as im:
        im.convert("RGB").save(path)
    return path


def pictures_figures(pictures: list[Path], repeat: int) -> None:
    from PIL import Image

    from generator.art import formats, pdfimages

    photo = next(p for p in pictures if p.suffix == ".jpg")
    cutout = next(p for p in pictures if p.suffix == ".png")
    png = png_of(photo, photo.parent)
    data = png.read_bytes()

    def as_is():
        info = formats.png_info(data)
        assert formats.png_as_is(info)
        return b"".join(info["idat"])

    def decoded():
        with Image.open(io.BytesIO(data)) as im:
            return zlib.compress(im.convert("RGB").tobytes())

    a, b = best(as_is, repeat), best(decoded, repeat)
    print(f"PNG {png.stat().st_size / 1e6:.1f} MB, 1500 x 2100 px, into a PDF: its rows as they are {a * 1e3:.1f} ms; "
          f"decoded by Pillow and compressed again {b * 1e3:.0f} ms ({b / a:.0f} times as long)")

    rgba = cutout.read_bytes()
    split = best(lambda: pdfimages._png_split(rgba), repeat)
    real = pdfimages._png_split
    pdfimages._png_split = lambda data: None  # Pillow decodes it instead
    try:
        pillow = best(lambda: pdfimages._png_encode(rgba), repeat)
    finally:
        pdfimages._png_split = real
    assert real(rgba) is not None
    print(f"PNG with transparency, 900 x 900 px: split without decoding {split * 1e3:.1f} ms; decoded by Pillow "
          f"and split {pillow * 1e3:.1f} ms ({pillow / split:.1f} times as long)")


CHILD = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
if {plain!r}:
    import generator.draw.splice as splice
    splice.spliced = lambda canvas: None  # reportlab writes every picture's data itself
from pnp.cli import main
start = time.perf_counter()
try:
    main(["build", "bench", "--data", {data!r}, "--out", {out!r}, "--no-cache"])
except SystemExit:
    pass
print(json.dumps({{"seconds": time.perf_counter() - start,
                   "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def splice_figures(data: Path, tmp: Path, repeat: int) -> None:
    import hashlib
    import shutil

    runs: dict[bool, list[dict]] = {False: [], True: []}
    digests = {}
    for _ in range(repeat):
        for plain in (False, True):
            out = tmp / f"out-{plain}"
            shutil.rmtree(out, ignore_errors=True)
            code = CHILD.format(repo=str(REPO), plain=plain, data=str(data), out=str(out))
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
            runs[plain].append(json.loads(done.stdout.strip().splitlines()[-1]))
            pdf = out / "bench" / "bench-cards.pdf"
            digests[plain] = hashlib.sha256(pdf.read_bytes()).hexdigest()
    size = (tmp / "out-False" / "bench" / "bench-cards.pdf").stat().st_size
    for plain, label in ((False, "spliced in (draw.splice)"), (True, "written by reportlab")):
        seconds = min(r["seconds"] for r in runs[plain])
        rss = min(r["rss_mb"] for r in runs[plain])
        print(f"cards PDF of {size / 1e6:.0f} MB, pictures {label + ':':27s} {seconds:.2f} s, peak memory {rss:.0f} MB")
    print("the same bytes either way" if digests[False] == digests[True] else "DIFFERENT bytes")
    # what a PDF library doing the splice would cost at least: reading the file and writing it again
    pdf = tmp / "out-False" / "bench" / "bench-cards.pdf"

    def pypdf_round_trip():
        import pypdf

        writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(pdf))
        writer.write(io.BytesIO())

    print(f"the same PDF read and written again by pypdf: {best(pypdf_round_trip, 1):.2f} s", end="")
    if shutil.which("qpdf"):
        qpdf = best(lambda: subprocess.run(["qpdf", str(pdf), str(tmp / "qpdf.pdf")], check=True), repeat)
        print(f"; by qpdf (pikepdf's engine): {qpdf:.2f} s", end="")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", type=int, default=70)
    args = parser.parse_args()
    import pictures as bench_pictures

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        names = bench_pictures.make_pictures(tmp / "deck" / "art")
        pictures_figures([tmp / "deck" / n for n in names], args.repeat)
        bench_pictures.make_data(tmp / "deck", args.cards, names, True)
        splice_figures(tmp / "deck", tmp, args.repeat)


if __name__ == "__main__":
    main()
