"""``pnp new``: start a game that ``pnp check`` and ``pnp build`` accept at once."""

from __future__ import annotations

from pathlib import Path

import click

from ..console import out
from ..options import data_option


def write_game(data: Path, slug: str, title: str | None = None, parts=()):
    """Plan and write a new game; returns (plan, written).  ``parts``: functions
    that add further files of the game to the plan (a rules engine's) before it
    is written, all together and over nothing."""
    from generator.scaffold import game_plan
    from model.scaffold import check_slug, write_plan
    from validator.kit import engines

    check_slug(slug, {s: "a bundled game with a rules engine has it" for s in engines()})
    plan = game_plan(data, slug, title)
    for part in parts:
        part(plan)
    return plan, write_plan(plan)


@click.command()
@click.argument("slug")
@data_option
@click.option("--title", default=None, help="The game's title  [default: from the slug: tiny-tombs -> Tiny Tombs]")
def new(slug, data, title):
    """Start a game: templates/SLUG/ with a manifest, a front and a back template for
    one deck, and sample rows added to cards.csv (made when the folder has none).
    Never overwrites anything."""
    plan, written = write_game(data, slug, title)
    where = "" if data == Path(".") else f" --data {data}"
    for path in written.files:
        out.print(f"wrote {data / path}", markup=False, highlight=False)
    sheet = data / written.sheet
    out.print(f"{'wrote' if written.new_sheet else 'added'} {written.rows} sample rows "
              f"{'in' if written.new_sheet else 'to'} {sheet}", markup=False, highlight=False)
    if written.left_out:
        out.print(f"note: {sheet} has no {', '.join(written.left_out)} column; the sample rows leave "
                  f"{'it' if len(written.left_out) == 1 else 'them'} out", markup=False, highlight=False)
    out.print(f"Next: pnp check {slug}{where}, then pnp build {slug}{where} (or pnp preview {slug}{where}); "
              "docs/custom-game.md shows how to grow it.", markup=False, highlight=False)
