"""``pnp build``: the print-ready PDFs of one or more games."""

from __future__ import annotations

import os
import time

import click
from rich.table import Table

from generator.build import BuildOptions
from generator.layout import DUPLEX_MODES, LAYOUTS, MAX_PRINTER_MARGIN, PAGE_SIZES

from ..console import err, out, progress_bar, report_problems
from ..options import data_option, expansion_option, explicit, out_option


def parse_offset(value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"'{value}' is not X,Y in millimetres, e.g. 0.5,-1") from None
    return x, y


@click.command()
@click.argument("games", nargs=-1)
@data_option
@click.option("--page", type=click.Choice(sorted(PAGE_SIZES)), default=BuildOptions.page, show_default=True,
              help="Paper size.")
@out_option
@click.option("--duplex", type=click.Choice(list(DUPLEX_MODES)), default=BuildOptions.duplex, show_default=True,
              help="How the printer turns the sheet for backs; none: backs in their own file.")
@click.option("--back-offset", default="{},{}".format(*(f"{v:g}" for v in BuildOptions.back_offset)),
              show_default=True, metavar="X,Y",
              help="Shift the backs by X (right) and Y (down) millimetres to correct a printer.")
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default=BuildOptions.layout, show_default=True,
              help="grid: fronts and backs on facing pages (duplex); gutterfold: each front beside its back on "
                   "one page, to fold and cut (single-sided printers).")
@click.option("--printer-margin", type=click.FloatRange(0, MAX_PRINTER_MARGIN), default=BuildOptions.printer_margin,
              show_default=True, metavar="MM",
              help="The edge of the paper the printer cannot print, in mm; artwork, crop marks and footers stay "
                   "inside it.")
@click.option("--proof", is_flag=True,
              help="Also write <game>-proof.pdf: trim line, safe area and overflowing text outlined on every card.")
@expansion_option
@click.option("--no-cache", is_flag=True,
              help="Render and parse every design again, without reading or writing the build cache "
                   "(OUT/.pnp-cache).")
@click.pass_context
def build(ctx, games, data, page, out_dir, duplex, back_offset, layout, printer_margin, proof, expansions, no_cache):
    """Build print-ready PDFs: output/<game>/<game>-cards.pdf and -reference.pdf."""
    from generator.build import build_games
    from generator.diskcache import DiskCache, cache_folder
    from model.sheets import load_project

    from ..findings import project_checks

    start = time.perf_counter()
    if layout == "gutterfold":
        for name, flag in (("duplex", "--duplex"), ("back_offset", "--back-offset")):
            if explicit(ctx, name):
                raise click.UsageError(f"{flag} does not apply to --layout gutterfold: fronts and backs share a page")
    offset = parse_offset(back_offset)
    project = load_project(data, list(games) or None)
    if not games:
        for slug in project.drop_empty():
            err.print(f"skipped {slug}: no rows in the sheets yet")
    boxes = project.select_expansions(expansions, strict=bool(games))
    out_dir = out_dir or (data / "output")
    cache = None if no_cache else DiskCache(cache_folder(out_dir))
    found = checked(project, cache)
    targets = BuildOptions.targets + (("proof",) if proof else ())
    jobs = [(game, BuildOptions(page, duplex, offset, out_dir, boxes[slug], targets=targets, layout=layout,
                                printer_margin=printer_margin))
            for slug, game in project.games.items()]
    from rich.progress import TextColumn

    with progress_bar(TextColumn("{task.completed}/{task.total}")) as progress:
        task = progress.add_task("building", total=len(jobs))
        results = build_games(jobs, workers=os.cpu_count() or 1, done=lambda r: progress.advance(task, 1),
                              cache=cache)
    for r in results:
        report_problems(r.warnings)
        for note in r.notes:
            err.print(f"note {r.game}: {note}", highlight=False)
    how = "gutterfold" if layout == "gutterfold" else f"duplex {duplex}"
    out.print(summary_table(f"pnp build ({page}, {how}, printer margin {printer_margin:g} mm)", results, found))
    for r in results:
        for f in r.files:
            out.print(f"wrote {f}")
    out.print(f"Done in {time.perf_counter() - start:.2f} s.{warnings_line(results, found)}")


def checked(project, cache=None):
    """The project's further findings (``pnp check``'s deck and palette checks),
    printed; their errors stop the command as the sheets' do.  Returns
    (sheet-wide problems, {slug: the game's own})."""
    from model.errors import InputErrors

    from ..findings import project_checks

    general, by_game = project_checks(project, cache)
    if cache is not None:
        cache.flush()
    found = sorted(general + [p for own in by_game.values() for p in own])
    if any(p.is_error for p in found):
        raise InputErrors(found)
    report_problems(found)
    return general, by_game


def summary_table(title: str, results, found) -> Table:
    """One row per game: what was built and every warning it got (its rows', its
    checks' and the build's own)."""
    _, by_game = found
    table = Table(title=title, title_justify="left", caption_justify="left",
                  caption="copies: components printed; card pages: fronts and backs; ref. pages: the reference "
                          "sheet; warnings: the sheets', the checks' and the build's")
    for col in ("game", "designs", "copies", "card pages", "ref. pages", "warnings", "seconds"):
        table.add_column(col, justify="left" if col == "game" else "right", no_wrap=col == "game",
                         min_width=max(len(w) for w in col.split()))
    for r in results:
        sheets = sum(n for name, n in r.target_pages.items() if name != "reference")
        table.add_row(r.game, str(sum(d.designs for d in r.decks)), str(r.components), str(sheets),
                      str(r.target_pages.get("reference", 0)),
                      str(len(by_game.get(r.game, [])) + len(r.warnings)), f"{r.seconds:.2f}")
    return table


def warnings_line(results, found) -> str:
    """`` 3 warnings (above).`` after the last line, or nothing."""
    general, by_game = found
    n = len(general) + sum(len(v) for v in by_game.values()) + sum(len(r.warnings) for r in results)
    return f" {n} warning{'s' if n != 1 else ''} (above)." if n else ""
