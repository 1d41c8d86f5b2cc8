"""Same inputs, same bytes: a digest of every file pnp makes, to compare two revisions.

    python bench/identical.py [--out MANIFEST.json] [--compare MANIFEST.json] [--cards N] [--keep DIR]

Each run below is a fresh ``pnp`` process writing into its own empty folder
(an empty build cache every time):

- every bundled game built on A4 (duplex long), with ``--layout gutterfold``,
  with ``--page letter --duplex none``, with ``--proof --bleed 1``, and
  ``--layout shared --duplex short --back-offset 0.5,-1``; one game with ``--only``;
- ``docs/example`` (a game of its own: pictures, icons, its own templates) built,
  and exported as png and tts;
- the pictures benchmark's deck (``bench/pictures.py``: photographs and PNGs with
  transparency; ``--cards`` of them, 24 unless told);
- a game ``pnp new`` starts, built;
- Pyramid Scheme exported to png (and ``--trim``), tts, tgc, mpc and dtc;
- the calibration sheets (A4 long edge, Letter short edge with an offset).

It prints a sha256 per output file (the build cache folders left out) and writes
them as JSON with ``--out``.  ``--compare FILE`` checks the files against a
manifest written by another revision and exits 1 on any difference (a file
changed, missing or new), naming each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

BASE_URL = "https://example.invalid/tts"  # a fixed address: the default names the (temporary) export folder

#: name -> (data folder key, or None for a command without --data; arguments after ``pnp``)
RUNS = {
    "build-a4": ("repo", ["build"]),
    "build-gutterfold": ("repo", ["build", "--layout", "gutterfold"]),
    "build-letter-simplex": ("repo", ["build", "--page", "letter", "--duplex", "none"]),
    "build-proof-bleed1": ("repo", ["build", "--proof", "--bleed", "1"]),
    "build-shared-short": ("repo", ["build", "--layout", "shared", "--duplex", "short", "--back-offset", "0.5,-1"]),
    "build-only": ("repo", ["build", "pyramid-scheme", "--only", "g01,g07"]),
    "example-build": ("example", ["build"]),
    "example-png": ("example", ["export", "tiny-tombs", "--to", "png", "--dpi", "100"]),
    "example-tts": ("example", ["export", "tiny-tombs", "--to", "tts", "--dpi", "100", "--base-url", BASE_URL]),
    "pictures-build": ("pictures", ["build", "bench"]),
    "new-build": ("new", ["build", "my-game"]),
    "export-png": ("repo", ["export", "pyramid-scheme", "--to", "png", "--dpi", "100"]),
    "export-png-trim": ("repo", ["export", "pyramid-scheme", "--to", "png", "--dpi", "100", "--trim"]),
    "export-tts": ("repo", ["export", "pyramid-scheme", "--to", "tts", "--dpi", "100", "--base-url", BASE_URL]),
    "export-tgc": ("repo", ["export", "pyramid-scheme", "--to", "tgc"]),
    "export-mpc": ("repo", ["export", "pyramid-scheme", "--to", "mpc"]),
    "export-dtc": ("repo", ["export", "pyramid-scheme", "--to", "dtc"]),
    "calibrate-a4": (None, ["calibrate"]),
    "calibrate-letter-short": (None, ["calibrate", "--page", "letter", "--duplex", "short",
                                        "--back-offset", "1,-0.5"]),
}

MAIN = "import sys\nfrom pnp.cli import main\nsys.argv[0] = 'pnp'\nmain()\n"


def pnp(args: list[str], cwd: Path) -> None:
    """Run ``pnp ARGS`` in a fresh process with this checkout's code; stop on a failure."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", MAIN, *args], cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"pnp {' '.join(args)} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")


def digests(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` by its relative path, build caches left out."""
    found = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if ".pnp-cache" in rel.split("/"):
            continue
        found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def data_folders(work: Path, cards: int) -> dict[str, Path]:
    """The data folders the runs read: this checkout, a copy of docs/example, the pictures
    benchmark's deck and a game ``pnp new`` started."""
    import pictures as bench_pictures

    example = work / "example"
    shutil.copytree(REPO / "docs" / "example", example)
    deck = work / "pictures"
    names = bench_pictures.make_pictures(deck / "art")
    bench_pictures.make_data(deck, cards, names, True)
    new = work / "new"
    new.mkdir()
    pnp(["new", "my-game", "--data", str(new)], REPO)
    return {"repo": REPO, "example": example, "pictures": deck, "new": new}


def make_manifest(work: Path, cards: int) -> dict[str, dict[str, str]]:
    folders = data_folders(work, cards)
    manifest = {"inputs": {k: v for k, v in digests(work).items() if not k.startswith("out/")}}
    for name, (data, args) in RUNS.items():
        out = work / "out" / name
        start = time.perf_counter()
        pnp([*args, *(["--data", str(folders[data])] if data else []), "--out", str(out)], REPO)
        manifest[name] = digests(out)
        print(f"{name:24s} {len(manifest[name]):4d} files  {time.perf_counter() - start:6.1f} s", flush=True)
    return manifest


def compare(mine: dict, theirs: dict) -> list[str]:
    """One line per difference between two manifests."""
    lines = []
    for run in sorted(set(mine) | set(theirs)):
        a, b = mine.get(run, {}), theirs.get(run, {})
        for rel in sorted(set(a) | set(b)):
            if rel not in a:
                lines.append(f"{run}: {rel}: missing here")
            elif rel not in b:
                lines.append(f"{run}: {rel}: new here")
            elif a[rel] != b[rel]:
                lines.append(f"{run}: {rel}: different bytes")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="write the manifest (JSON) here")
    parser.add_argument("--compare", type=Path, help="a manifest from another revision to check against")
    parser.add_argument("--cards", type=int, default=24, help="cards in the pictures deck (default 24)")
    parser.add_argument("--keep", type=Path, help="make the files here (an empty folder) and keep them")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        if any(args.keep.iterdir()):
            raise SystemExit(f"{args.keep} is not empty")
        manifest = make_manifest(args.keep, args.cards)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            manifest = make_manifest(Path(tmp), args.cards)
    total = sum(len(v) for k, v in manifest.items() if k != "inputs")
    print(f"{total} files in {len(manifest) - 1} runs")
    if args.out:
        args.out.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"manifest written to {args.out}")
    if args.compare:
        lines = compare(manifest, json.loads(args.compare.read_text(encoding="utf-8")))
        for line in lines:
            print(line)
        if lines:
            print(f"{len(lines)} differences against {args.compare}")
            sys.exit(1)
        print(f"every file has the same bytes as in {args.compare}")


if __name__ == "__main__":
    main()
