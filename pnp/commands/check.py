"""``pnp check``: load and check the sheets, manifests and decks, and render
every design and reference sheet without writing anything."""

from __future__ import annotations

import os
import sys

import click
from rich.table import Table

from ..console import err, out, report_problems
from ..options import data_option


@click.command()
@click.argument("games", nargs=-1)
@data_option
def check(games, data):
    """Check the sheets, templates and decks without writing anything; exit 1 on any error.

    Besides every cell, it renders every design and reference sheet (template
    mistakes, text that does not fit), checks counts against the rulebook,
    whether colour-blind players can tell the palette's colours apart (or the
    cards give another cue) and, for games with one of pnp's rules engines, the deck
    itself (conditions no arrangement can meet ...).  A rules engine in the game's own
    folder is Python and is not run here: pnp validate runs its deck checks."""
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
