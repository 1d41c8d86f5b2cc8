"""``pnp check``: load and check the sheets, manifests and decks; build nothing."""

from __future__ import annotations

import sys

import click
from rich.table import Table

from ..console import err, out, report_problems
from ..options import data_option


@click.command()
@click.argument("games", nargs=-1)
@data_option
def check(games, data):
    """Check the sheets without building; exit 1 on any error.

    Besides every cell, it checks counts against the rulebook, whether colour-blind
    players can tell the palette's colours apart (or the cards give another cue),
    what the card templates make of every row (text too small or cut short,
    characters the fonts lack, markup, icons, pictures) and, for games with a
    rules engine, the deck itself (conditions no arrangement can meet ...)."""
    from generator.designs import template_problems
    from model.colour_vision import palette_warnings
    from model.sheets import load_project
    from validator.checks import deck_checks

    project = load_project(data, list(games) or None)
    general, by_game = project.attribute_warnings(
        lambda game: deck_checks(game) + palette_warnings(game.manifest) + template_problems(game))
    problems = general + [p for found in by_game.values() for p in found]
    report_problems(sorted(problems))
    table = Table(title="pnp check", title_justify="left")
    for col in ("game", "decks", "designs", "components", "warnings"):
        table.add_column(col, justify="right" if col != "game" else "left")
    for slug, game in project.games.items():
        warns = [p for p in by_game[slug] if not p.is_error]
        table.add_row(slug, str(len({c.deck for c in game.cards})), str(len(game.cards)),
                      str(sum(c.count for c in game.cards)), str(len(warns)))
    out.print(table)
    errors = [p for p in problems if p.is_error]
    if errors:
        err.print(f"{len(errors)} error(s).")
        sys.exit(1)
    out.print("All sheets are fine." if not problems else f"No errors, {len(problems)} warning(s).")
