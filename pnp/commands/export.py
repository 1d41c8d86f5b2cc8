"""``pnp export``: pictures per card, Tabletop Simulator decks, print-shop uploads, PDF/X print files."""

from __future__ import annotations

import os
import time

import click
from rich.table import Table

from generator.defaults import DEFAULT_DPI

from ..console import err, out, progress_bar, report_problems
from ..options import data_option, expansion_option, out_option, profile_option
from .build import checked


@click.command()
@click.argument("games", nargs=-1)
@data_option
@click.option("--to", "to", required=True, metavar="png|tts|tgc|mpc|dtc|pdfx",
              help="What to export: png (a picture per card and side), tts (Tabletop Simulator sheets and saved "
                   "object), a print shop's upload: tgc (The Game Crafter), mpc (MakePlayingCards), "
                   "dtc (DriveThruCards, CMYK PDF/X-1a), or pdfx (CMYK PDF/X print files, one per deck).")
@click.option("--dpi", type=int, default=None, metavar="N",
              help=f"Resolution of png and tts pictures, or of print files flattened to pictures (dtc, pdfx "
                   f"--standard x-1a)  [default: {DEFAULT_DPI}; shops use their own]")
@click.option("--trim", is_flag=True, help="png: cut the bleed off (pictures of the trimmed card).")
@click.option("--base-url", default="", metavar="URL",
              help="tts: where the sheet images will be found  [default: the export folder, as a file:// address]")
@profile_option("pdfx, dtc: the print shop's CMYK output profile  [default: pnp's own, Generic CMYK 240% coated]")
@click.option("--standard", type=click.Choice(["x-4", "x-1a"]), default=None,
              help="pdfx: PDF/X-4 keeps vectors and text; PDF/X-1a flattens each card to a CMYK picture "
                   "(no transparency)  [default: x-4]")
@out_option
@expansion_option
def export(games, data, to, dpi, trim, base_url, profile, standard, out_dir, expansions):
    """Export cards as PNG pictures, Tabletop Simulator decks, print-shop uploads or CMYK PDF/X print
    files: output/<game>/png/, tts/, tgc/, mpc/, dtc/ or pdfx/, each with what to check it against."""
    from generator.export import ExportOptions, check_options, colour_note, export_games
    from model.sheets import load_project

    start = time.perf_counter()
    options = ExportOptions(to, out_dir or (data / "output"), dpi, trim, base_url, os.cpu_count() or 1, profile,
                            standard)
    check_options(options)  # refuse a bad request before loading anything
    project = load_project(data, list(games) or None)
    if not games:
        for slug in project.drop_empty():
            err.print(f"skipped {slug}: no rows in the sheets yet")
    _, by_game = checked(project)  # the warnings pnp check gives, shown and counted as pnp build does
    boxes = project.select_expansions(expansions, strict=bool(games))
    jobs = [(game, boxes[slug]) for slug, game in project.games.items()]
    from rich.progress import TextColumn

    with progress_bar(TextColumn("{task.completed}/{task.total}")) as progress:
        task = progress.add_task(f"exporting {to}", total=len(jobs))
        results = export_games(jobs, options, done=lambda r: progress.advance(task, 1))
    for r in results:
        report_problems(r.warnings)
        for note in r.notes:
            err.print(f"note {r.game}: {note}", markup=False, highlight=False)
    note = colour_note(to)
    if note:
        err.print(f"note: {note}", markup=False, highlight=False)
    table = Table(title=f"pnp export --to {to}", title_justify="left")
    for col in ("game", "files", "warnings", "seconds"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in results:
        table.add_row(r.game, str(len(r.files)), str(len(by_game.get(r.game, [])) + len(r.warnings)),
                      f"{r.seconds:.2f}")
    out.print(table)
    for r in results:
        folders = sorted({str(f.parent) for f in r.files})
        for folder in folders:
            out.print(f"wrote {sum(1 for f in r.files if str(f.parent) == folder)} files to {folder}")
    out.print(f"Done in {time.perf_counter() - start:.2f} s.")
