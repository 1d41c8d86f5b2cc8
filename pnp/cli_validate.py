"""``pnp validate``: simulate games with bots and write a deck-validation report."""

from __future__ import annotations

from pathlib import Path

import click

from .errors import PnpError


@click.command()
@click.argument("games", nargs=-1)
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Folder with cards.csv, goals.csv and templates/.")
def validate(games, data):
    """Simulate games with bots and write a deck-validation report."""
    raise PnpError("the rules validator is not available yet")
