"""``pnp check``: load and check the sheets, manifests and decks, and render
every design and reference sheet without writing anything."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.table import Table

from ..console import err, out, report_problems
from ..options import data_option


@click.command()
@click.argument("games", nargs=-1)
@data_option
@click.option("--preflight", "preflight", multiple=True, metavar="FILE.pdf",
              type=click.Path(dir_okay=False, path_type=Path),
              help="Instead of the sheets, check print files (this one and any further arguments) as a print "
                   "shop's preflight does: PDF/X version and output intent, trim and bleed boxes, colour, "
                   "transparency, fonts, picture resolution, total ink.")
@click.option("--shop", default=None, metavar="NAME",
              help="--preflight: check against this shop's preset (e.g. dtc) rather than plain PDF/X.")
def check(games, data, preflight, shop):
    """Check the sheets, templates and decks without writing anything; exit 1 on any error.

    Besides every cell, it renders every design and reference sheet (template
    mistakes, text that does not fit), checks counts against the rulebook,
    whether colour-blind players can tell the palette's colours apart (or the
    cards give another cue) and, for games with one of pnp's rules engines, the deck
    itself (conditions no arrangement can meet ...).  A rules engine in the game's own
    folder is Python and is not run here: pnp validate runs its deck checks.  With
    --preflight it checks print files instead, one line per problem."""
    if preflight or shop:
        return check_print_files(games, preflight, shop)
    from generator.build import BuildOptions, build_games
    from generator.diskcache import DiskCache, cache_folder
    from model.errors import InputErrors
    from model.sheets import load_project

    from ..findings import project_checks

    try:
        project = load_project(data, list(games) or None)
    except InputErrors as exc:
        finish(exc.problems + exc.warnings)
    # what an earlier build kept is read (a design unchanged since is not rendered again); nothing is written
    cache = DiskCache(cache_folder(data / "output"), read_only=True)
    general, by_game = project_checks(project, cache)  # (a game's own rules/ are not loaded: pnp validate runs them)
    found = general + [p for own in by_game.values() for p in own]
    # every design and reference sheet made in memory: their problems, no files
    jobs = [(game, BuildOptions(targets=("pdf-sheets", "reference"))) for game in project.games.values() if game.cards]
    try:
        results = build_games(jobs, workers=os.cpu_count() or 1, cache=cache, write=False)
        made = [p for r in results for p in r.warnings]
    except InputErrors as exc:
        made = exc.problems + exc.warnings
    for slug, own in project.split(made)[1].items():  # each game's count in the table
        by_game[slug] += own
    found += made
    table = Table(title="pnp check", title_justify="left")
    for col in ("game", "decks", "designs", "components", "warnings"):
        table.add_column(col, justify="right" if col != "game" else "left", no_wrap=col == "game")
    for slug, game in project.games.items():
        warns = [p for p in by_game[slug] if not p.is_error]
        table.add_row(slug, str(len({c.deck for c in game.cards})), str(len(game.cards)),
                      str(sum(c.count for c in game.cards)), str(len(warns)))
    finish(found, table)


def check_print_files(games, files, shop) -> None:
    """``pnp check --preflight FILE ...``: one line per problem of each file; exit 1 on any.  Further
    arguments are more files (``--preflight output/g/dtc/*.pdf``)."""
    if not files:
        raise click.UsageError("--shop applies to --preflight FILE.pdf")
    files = [*files, *(Path(g) for g in games)]
    from generator.targets.preflight import expect_for, preflight
    from generator.targets.shops import PresetError, known_presets, load_preset
    from model.errors import CommandLineError

    preset = None
    if shop is not None:
        try:
            preset = load_preset(shop)
        except PresetError as exc:
            raise CommandLineError(str(exc)) from None
        if preset.pdfx is None:
            takes = [s for s in known_presets() if load_preset(s).pdfx is not None]
            raise CommandLineError(f"{preset.name} takes RGB pictures, not PDF print files; the shops with a "
                                   f"print-file preflight: {', '.join(takes)}")
    expect = expect_for(preset)
    found = []
    for path in files:
        found += preflight(path, str(path), expect)
    report_problems(found)
    spec = preset.pdfx if preset is not None else None
    if spec is not None and spec.not_checked:
        for item in spec.not_checked:
            out.print(f"not checked ({preset.name}): {item}", markup=False, highlight=False)
    checks = ", ".join(expect.checks)
    n = len(files)
    against = f"the {preset.name} preset" if preset is not None else "PDF/X"
    if found:
        err.print(f"{len(found)} problem{'s' if len(found) != 1 else ''} in {n} file{'s' if n != 1 else ''} "
                  f"checked against {against} ({checks}).")
        sys.exit(1)
    out.print(f"{n} file{'s' if n != 1 else ''} passed the preflight against {against} ({checks}).")


def finish(problems, table=None) -> None:
    """Every problem, one line each, the table, and a last line; exit 1 on errors."""
    report_problems(sorted(problems))
    if table is not None:
        out.print(table)
    errors = sum(p.is_error for p in problems)
    warnings = len(problems) - errors
    also = f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""
    if errors:
        err.print(f"{errors} error{'s' if errors != 1 else ''}{also}.")
        sys.exit(1)
    out.print("All sheets and templates are fine." if not problems else
              f"No errors, {warnings} warning{'s' if warnings != 1 else ''}.")
