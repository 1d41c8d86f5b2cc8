"""Mutation check: would the tests notice a misprint?

Each mutation below is a small, named wrong change to the code that draws the
printed page, fits text, writes exports or draws the report's charts.  The
script copies the work tree into a scratch folder (the real files are never
edited), applies one mutation at a time there, runs the tests that guard that
code against the copy, and prints which mutations the tests caught (some test
failed) and which survived (every test passed), with the mutation score.

    python bench/mutations.py               # every mutation
    python bench/mutations.py --list        # names, and whether each still applies to the code
    python bench/mutations.py crop tts      # the mutations whose names contain any of these words

A mutation whose text is no longer in the code (the code was rewritten) is
reported as "does not apply" and left out of the score: update its text.
The unmutated copy is tested first; the run stops if that fails.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the tests that guard the printed page (the page tests, whatever their file names, count too)
PRINT = ("tests/test_printed_page.py", "tests/test_pdf.py", "tests/test_layout.py", "tests/test_gutterfold.py",
         "tests/test_duplex.py", "tests/test_shared_cuts.py", "tests/test_printable.py", "tests/test_targets.py",
         "tests/test_all_games.py", "tests/test_*page*.py")
#: the tests that guard text fitting
TEXT = ("tests/test_text_on_page.py", "tests/test_pdf.py", "tests/test_microtext.py", "tests/test_all_games.py",
        "tests/test_*page*.py")
#: the tests that guard the exports
EXPORT = ("tests/test_printed_page.py", "tests/test_export_tts.py", "tests/test_export_png.py", "tests/test_targets.py",
          "tests/test_*page*.py")
REPORT = ("tests/validator/test_validator_charts.py", "tests/validator/test_validator_cli.py",
          "tests/validator/test_validator_drama.py")

#: the build cache's tests, the property-based one first
CACHE = ("tests/test_cache_inputs.py", "tests/test_cache.py")

#: only the two closed-form figures, to show that they read the engine's outcomes
SHAMBO_CLOSED_FORMS = (
    "tests/games/test_pyramid_shambo_rules.py::test_first_throw_wins_two_thirds_with_uniform_throwers",
    "tests/games/test_pyramid_shambo_rules.py::test_two_player_first_challenge_win_rate_is_a_half")


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str
    edits: tuple[tuple[str, str, str], ...]  # (file, text in it, what it becomes)
    tests: tuple[str, ...] = PRINT
    listed: bool = False  # one of the misprints the tests were first found to miss


def guard(file: str) -> tuple[str, ...]:
    """The tests that guard a file."""
    if file == "generator/draw/text.py":
        return TEXT
    if file in ("generator/targets/tts.py", "generator/targets/png.py", "generator/targets/shop.py"):
        return EXPORT
    if file.startswith("validator/"):
        return REPORT
    return PRINT


def m(name, what, file, old, new, tests=None, listed=False):
    return Mutation(name, what, ((file, old, new),), tests or guard(file), listed)


MUTATIONS = [
    # ---------------------------------------------------------------- the six first found to survive
    m("crop-marks-never-drawn", "crop marks and cut lines never drawn", "generator/sheets/pdf.py",
      "        if page.marks:\n", "        if False and page.marks:\n", listed=True),
    m("backs-on-front-slots", "the backs page laid out with the fronts' slots (no back mirrored)",
      "generator/sheets/layout.py", "    return replace(sheet, slots=back_slots(sheet, duplex, offset), back_slots=[],",
      "    return replace(sheet, slots=list(sheet.slots), back_slots=[],", listed=True),
    m("backs-never-turned", "the 180° turn of short-edge backs and fold-across gutterfold backs ignored",
      "generator/sheets/layout.py", '    return (-rotation) % 360 if over == "vertical" else (180 - rotation) % 360\n',
      "    return (-rotation) % 360\n", listed=True),
    m("fit-ignores-width", "text fitting ignores the line width (a 49 mm word 'fits' a 20 mm box)",
      "generator/draw/text.py", "            too_wide = any(line.unit * s > width + 1e-9 for line in lines)\n",
      "            too_wide = False\n", listed=True),
    m("tts-column-by-column", "Tabletop Simulator faces written column by column",
      "generator/targets/tts.py", "                    r, c = divmod(slot, sheet.cols)\n",
      "                    c, r = divmod(slot, sheet.rows)\n", listed=True),
    m("turns-chart-zero", "the report's turns chart drawn with all-zero bars", "validator/report.py",
      "ax.bar([int(k) for k in hist], list(hist.values()), width=0.9, color=GREY)",
      "ax.bar([int(k) for k in hist], [0 for _ in hist.values()], width=0.9, color=GREY)", listed=True),

    # ---------------------------------------------------------------- backs
    m("short-edge-as-long", "short-edge backs mirrored like long-edge ones", "generator/sheets/layout.py",
      '    if duplex == "short":\n        x, y = r.x, sheet.page_h - r.top\n',
      '    if False:\n        x, y = r.x, sheet.page_h - r.top\n'),
    m("back-offset-ignored", "the back offset ignored", "generator/sheets/layout.py",
      "    return Rect(round(x + dx, 4), round(y - dy, 4), r.w, r.h)\n", "    return Rect(round(x, 4), round(y, 4), r.w, r.h)\n"),
    m("back-offset-y-upside-down", "the back offset's y taken upwards instead of down", "generator/sheets/layout.py",
      "    return Rect(round(x + dx, 4), round(y - dy, 4), r.w, r.h)\n",
      "    return Rect(round(x + dx, 4), round(y + dy, 4), r.w, r.h)\n"),
    m("back-offset-clip-forgotten", "the back offset moves the trim but not the artwork's clip", "generator/sheets/layout.py",
      "_turn_over(s.clip, sheet, duplex, offset)", "_turn_over(s.clip, sheet, duplex, (0.0, 0.0))"),
    m("quarter-turned-backs-not-turned", "backs of components turned a quarter left upright on the page",
      "generator/sheets/layout.py", "_turn_over(s.clip, sheet, duplex, offset), turned_back(s.rotation, over))",
      "_turn_over(s.clip, sheet, duplex, offset), 180 if over == \"horizontal\" else 0)"),
    m("gutterfold-back-turn-ignored", "gutterfold backs not turned as the fold turns them", "generator/sheets/layout.py",
      "                             turned_back(s.rotation, fold)) for s in sheet.slots]",
      "                             s.rotation) for s in sheet.slots]"),

    # ---------------------------------------------------------------- layout
    m("marks-on-the-bleed", "crop marks start inside the bleed instead of beyond it", "generator/sheets/layout.py",
      "    top_start = bleed.top + MARK_GAP\n", "    top_start = bleed.top - 2.0\n"),
    m("marks-side-on-artwork", "left crop marks start on the artwork", "generator/sheets/layout.py",
      "    left_start = bleed.x - MARK_GAP\n", "    left_start = bleed.x + 2.0\n"),
    m("marks-missing-bottom", "no crop marks below the grid", "generator/sheets/layout.py",
      "        if bottom_start - bottom_end >= MIN_MARK - 1e-3:\n",
      "        if False:\n"),
    m("grid-not-centred", "the grid sits at the left of the printable area", "generator/sheets/layout.py",
      "    x0 = area.x + (area.w - grid_w) / 2\n", "    x0 = area.x + 0.0 * (area.w - grid_w)\n"),
    m("gutter-too-narrow", "gutters only as wide as the minimum, whatever the bleed", "generator/sheets/layout.py",
      "        gutter = 0.0 if shared else round(max(2 * e, min_gutter), 4)\n",
      "        gutter = 0.0 if shared else round(min_gutter, 4)\n"),
    m("left-bleed-cut-off", "the first column's left bleed cut off at the trim", "generator/sheets/layout.py",
      "                ax.edge if c == 0 else ax.inner,\n", "                0.0 if c == 0 else ax.inner,\n"),
    m("never-turned-a-quarter", "components never turned a quarter, even where that fits more", "generator/sheets/layout.py",
      "    if turn is not False and (turn is True or abs(width - height) > 1e-9):\n", "    if turn is True:\n"),
    m("printer-margin-ignored", "artwork placed into the printer's unprintable margin", "generator/sheets/layout.py",
      "    area = area or _grid_area(page_w, page_h, m)\n", "    area = area or _grid_area(page_w, page_h, 0.0)\n"),
    m("gutterfold-backs-not-mirrored", "gutterfold backs placed by translation, not mirrored", "generator/sheets/layout.py",
      "    return Rect(round(2 * fold - r.right, 4), r.y, r.w, r.h)",
      "    return Rect(round(r.x + fold - 4, 4), r.y, r.w, r.h)"),

    # ---------------------------------------------------------------- the PDF writer
    m("artwork-not-clipped", "artwork not clipped to its slot's bleed", "generator/sheets/pdf.py",
      "            c.clipPath(path, stroke=0, fill=0)\n", "            pass\n"),
    m("form-at-trim-not-bleed", "each component placed at its trim corner, shifted by the bleed",
      "generator/sheets/pdf.py", "                c.translate((s.trim.x - bleed) * mm, (s.trim.y - bleed) * mm)\n",
      "                c.translate(s.trim.x * mm, s.trim.y * mm)\n"),
    m("fold-line-never-drawn", "gutterfold fold line never drawn", "generator/sheets/pdf.py",
      "        if sheet.folds:\n", "        if False:\n"),
    m("trimbox-is-bleedbox", "the TrimBox written as the bleed box", "generator/sheets/pdf.py",
      "        c.setTrimBox(_box(sheet.trim_box))\n", "        c.setTrimBox(_box(sheet.bleed_box))\n"),
    m("footer-missing", "no footer on the pages", "generator/sheets/pdf.py",
      "        c.drawCentredString(sheet.page_w / 2 * mm, baseline * mm, page.footer)\n", "        pass\n"),
    m("turn-ignored-when-drawing", "a slot's turn ignored when its design is drawn", "generator/sheets/pdf.py",
      "            if s.rotation:  # turned about the middle of its trim box\n", "            if False:\n"),
    m("proof-overflow-not-outlined", "proofs do not outline text that did not fit", "generator/sheets/pdf.py",
      "        for x, y, w, h in p.boxes:\n", "        for x, y, w, h in ():\n"),
    m("marks-drawn-white", "crop marks drawn in white", "generator/sheets/pdf.py",
      "            c.setStrokeColorRGB(0, 0, 0)\n", "            c.setStrokeColorRGB(1, 1, 1)\n"),

    # ---------------------------------------------------------------- text fitting
    m("wrap-ignores-width", "line breaking ignores the width (one long line)", "generator/draw/text.py",
      "                if w <= gap:\n", "                if True:\n"),
    m("fit-ignores-height", "shrinking ignores the box's height", "generator/draw/text.py",
      "        if needed <= height + 1e-6 and not too_wide:\n", "        if not too_wide:\n"),
    m("overflow-not-reported", "text that fits at no size is not reported", "generator/draw/text.py",
      "    return Fitted([ln.text for ln in kept], s, True,", "    return Fitted([ln.text for ln in kept], s, False,"),
    m("overflow-keeps-every-line", "text that fits at no size keeps every line", "generator/draw/text.py",
      "    kept = lines[:max_lines]\n", "    kept = lines[:]\n"),
    m("no-ellipsis", "cut text loses its ellipsis", "generator/draw/text.py",
      'segs[-1] = _seg(seg.face, seg.text.rstrip() + "…", seg.color)',
      'segs[-1] = _seg(seg.face, seg.text.rstrip(), seg.color)'),
    m("line-height-ignored", "lines set 1 em apart whatever the line height", "generator/draw/text.py",
      "        baseline = top + i * s * line_height + s * 0.8 + (line_height - 1) * s / 2\n",
      "        baseline = top + i * s + s * 0.8 + (line_height - 1) * s / 2\n"),
    m("valign-bottom-as-top", "bottom-aligned text set at the top", "generator/draw/text.py",
      '    elif valign == "bottom":\n        top = y + height - block\n',
      '    elif valign == "bottom":\n        top = y\n'),
    m("anchor-end-as-start", "right-aligned text starts at the right edge", "generator/draw/text.py",
      '    tx = {"start": x, "middle": x + width / 2, "end": x + width}[anchor]\n',
      '    tx = {"start": x, "middle": x + width / 2, "end": x + width}[anchor]\n'
      '    anchor = "start" if anchor == "end" else anchor\n'),

    # ---------------------------------------------------------------- exports
    m("tts-hidden-slot-elsewhere", "Tabletop Simulator's hidden card not in the last slot", "generator/targets/tts.py",
      "                r, c = divmod(sheet.hidden_slot, sheet.cols)\n", "                r, c = 0, 0\n"),
    m("tts-card-id-off-by-one", "Tabletop Simulator CardIDs one slot off", "generator/targets/tts.py",
      "                    card_id = sheet.number * 100 + slot\n", "                    card_id = sheet.number * 100 + slot + 1\n"),
    m("png-trim-keeps-bleed", "png --trim keeps the bleed", "generator/targets/png.py",
      "                if options.trim:\n", "                if False:\n"),
    m("png-copies-wrong", "the png manifest counts one copy of everything", "generator/targets/png.py",
      '"copies": copies,', '"copies": 1,'),

    # ---------------------------------------------------------------- the report's charts
    m("turns-chart-shifted", "turns bars one turn to the right", "validator/report.py",
      "ax.bar([int(k) for k in hist], list(hist.values()), width=0.9, color=GREY)",
      "ax.bar([int(k) + 1 for k in hist], list(hist.values()), width=0.9, color=GREY)"),
    m("minutes-bins-rounded", "minutes binned by rounding instead of by whole minute", "validator/report.py",
      "        bins[int(x)] = bins.get(int(x), 0) + y\n", "        bins[round(x)] = bins.get(round(x), 0) + y\n"),
    m("seats-chart-low-bound", "seat bars drawn at the interval's low end", "validator/report.py",
      '    ys = [r["rate"] or 0 for r in seats]\n', '    ys = [r["low"] or 0 for r in seats]\n'),
    m("drama-tenths-off", "'decided' bars binned by elevenths", "validator/report.py",
      "        tenths[int(k) // 10] += v\n", "        tenths[min(int(k) // 11, 10)] += v\n"),
    m("lead-changes-chart-zero", "lead-change bars all zero", "validator/report.py",
      "    left.bar(list(changes), list(changes.values()), width=0.8, color=GREY)\n",
      "    left.bar(list(changes), [0] * len(changes), width=0.8, color=GREY)\n"),
    m("box-band-wrong", "the playtime band drawn from 0 minutes", "validator/report.py",
      "        ax.axvspan(box[0], box[1], ", "        ax.axvspan(0, box[1], "),
    m("shambo-fee-bars-uniform", "Pyramid Shambo's simulated fee bars drawn from the uniform shares",
      "validator/games/pyramid_shambo/report.py", '[r["share"] for r in rows], width=0.4, color=BLUE',
      '[r["uniform_share"] for r in rows], width=0.4, color=BLUE'),
    m("shambo-places-not-stacked", "Pyramid Shambo's place bars drawn over each other, not stacked",
      "validator/games/pyramid_shambo/report.py", "        bottom = [b + v for b, v in zip(bottom, vals)]\n",
      "        bottom = list(bottom)\n"),
    m("drinking-bars-halved", "the drinking game's sip bars at half height", "validator/games/drinking_pyramid/report.py",
      "    ax.bar(xs, list(hist.values()), width=1.0, color=colour)\n",
      "    ax.bar(xs, [v / 2 for v in hist.values()], width=1.0, color=colour)\n"),

    # ---------------------------------------------------------------- the build cache's keys
    m("cache-key-id-and-name", "a design's input key covers only its id and name", "generator/stages/keys.py",
      '    h.update(repr(card).encode("utf-8"))\n', '    h.update(repr((card.id, card.name)).encode("utf-8"))\n',
      CACHE),
    m("cache-key-no-manifest", "the game's fingerprint leaves out its manifest", "generator/stages/keys.py",
      '    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):\n',
      '    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and p.suffix != ".toml"):\n', CACHE),
    m("cache-key-no-templates", "the game's fingerprint leaves out its templates", "generator/stages/keys.py",
      '    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):\n',
      '    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and p.suffix != ".j2"):\n', CACHE),

    # ---------------------------------------------------------------- rules read from the engine
    Mutation("rps-backwards", "Pyramid Shambo resolves rock-paper-scissors backwards (tested by the closed forms)",
             (("validator/games/pyramid_shambo/constants.py", "BEATS = (SCISSORS, ROCK, PAPER)",
               "BEATS = (PAPER, SCISSORS, ROCK)"),
              ("validator/games/pyramid_shambo/constants.py", "BEATEN_BY = (PAPER, SCISSORS, ROCK)",
               "BEATEN_BY = (SCISSORS, ROCK, PAPER)")),
             SHAMBO_CLOSED_FORMS),
    m("goals-chart-rate-reversed", "goal bars in the wrong order", "validator/games/pyramid_scheme/report.py",
      '    rates = [g["rate"] or 0 for g in goals][::-1]\n', '    rates = [g["rate"] or 0 for g in goals]\n'),
]


def tracked_files(root: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                         capture_output=True).stdout.decode()
    return [f for f in out.split("\0") if f and (root / f).is_file()]


def make_scratch(root: Path) -> Path:
    scratch = Path(tempfile.mkdtemp(prefix="pnp-mutations-"))
    for name in tracked_files(root):
        dest = scratch / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, dest)
    return scratch


def applies(mutation: Mutation, root: Path) -> str | None:
    """None when every edit finds its text exactly once, else why not."""
    for file, old, _ in mutation.edits:
        path = root / file
        if not path.exists():
            return f"{file} is gone"
        found = path.read_text(encoding="utf-8").count(old)
        if found != 1:
            return f"{file}: its text found {found} times"
    return None


def expand(tests: tuple[str, ...], root: Path) -> list[str]:
    out = []
    for pattern in tests:
        out += sorted(str(p.relative_to(root)) for p in root.glob(pattern)) if "*" in pattern else [pattern]
    return list(dict.fromkeys(out))


def _default_signals() -> None:
    """Ctrl-C back to its default in the tests' process (a job started in the background inherits it
    ignored, and the tests that stop a command with Ctrl-C would wait for it forever)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_tests(scratch: Path, tests: tuple[str, ...], timeout: float) -> tuple[int, str, float]:
    env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PNP_TEST_DATA", None)
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               *expand(tests, scratch)], cwd=scratch, env=env, capture_output=True, text=True,
                              timeout=timeout, preexec_fn=_default_signals)
        code, output = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        code, output = -1, "timed out"
    return code, output, time.perf_counter() - start


def first_failure(output: str) -> str:
    found = re.search(r"^(FAILED|ERROR) (\S+)", output, re.M)
    return found.group(2) if found else output.strip().splitlines()[-1] if output.strip() else ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("words", nargs="*", help="run only the mutations whose names contain one of these")
    parser.add_argument("--list", action="store_true", help="list the mutations and whether each applies")
    parser.add_argument("--timeout", type=float, default=900, help="seconds for one mutation's tests")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--tests", nargs="+", help="run these tests instead of each mutation's own (a path, a "
                                                   "node id or a glob)")
    args = parser.parse_args(argv)
    chosen = [mu for mu in MUTATIONS if not args.words or any(w in mu.name for w in args.words)]
    if args.tests:
        chosen = [Mutation(mu.name, mu.what, mu.edits, tuple(args.tests), mu.listed) for mu in chosen]
    if args.list:
        for mu in chosen:
            why = applies(mu, ROOT)
            print(f"{'*' if mu.listed else ' '} {mu.name:32} {'applies' if why is None else 'does not apply: ' + why}"
                  f"  ({mu.what})")
        return 0
    began = time.perf_counter()
    scratch = make_scratch(ROOT)
    print(f"scratch copy: {scratch}")
    try:
        groups = sorted({t for mu in chosen for t in mu.tests})
        code, output, seconds = run_tests(scratch, tuple(groups), args.timeout)
        if code != 0:
            print(f"the unmutated tests fail ({first_failure(output)}); fix that first")
            print(output[-3000:])
            return 2
        print(f"unmutated: the tests pass ({seconds:.0f} s)\n")
        results = []
        for mu in chosen:
            why = applies(mu, scratch)
            if why is not None:
                results.append((mu, "does not apply", why, 0.0))
                print(f"  {'does not apply':14} {mu.name:32} {why}", flush=True)
                continue
            originals = {}
            for file, old, new in mu.edits:
                path = scratch / file
                originals.setdefault(path, path.read_text(encoding="utf-8"))
                path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
            try:
                code, output, seconds = run_tests(scratch, mu.tests, args.timeout)
            finally:
                for path, text in originals.items():
                    path.write_text(text, encoding="utf-8")
            status = "caught" if code == 1 else "SURVIVED" if code == 0 else f"error {code}"
            detail = first_failure(output) if code != 0 else ""
            results.append((mu, status, detail, seconds))
            print(f"  {status:14} {mu.name:32} {seconds:5.0f} s  {detail}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    scored = [r for r in results if r[1] != "does not apply"]
    caught = [r for r in scored if r[1] == "caught"]
    listed = [r for r in scored if r[0].listed]
    print()
    print(f"mutation score: {len(caught)}/{len(scored)} caught ({100 * len(caught) / max(1, len(scored)):.0f} %)"
          f"; the six first found to survive: {sum(r[1] == 'caught' for r in listed)}/{len(listed)} caught"
          f" ({time.perf_counter() - began:.0f} s in all)")
    for mu, status, detail, _ in results:
        if status != "caught":
            print(f"  {status}: {mu.name}: {mu.what}" + (f" ({detail})" if status == "does not apply" else ""))
    return 0 if len(caught) == len(scored) else 1


if __name__ == "__main__":
    sys.exit(main())
