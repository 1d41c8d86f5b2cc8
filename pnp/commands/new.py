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
    from model.scaffold import write_plan

    _check_slug(slug)
    plan = game_plan(data, slug, title)
    for part in parts:
        part(plan)
    return plan, write_plan(plan)


def _check_slug(slug: str) -> None:
    """BadSlug for a slug that cannot name a game, or that a bundled game's rules engine has."""
    from model.scaffold import check_slug
    from validator.kit import engines

    check_slug(slug, {s: "a bundled game with a rules engine has it" for s in engines()})


@click.command()
@click.argument("slug")
@data_option
@click.option("--title", default=None, help="The game's title  [default: from the slug: tiny-tombs -> Tiny Tombs]")
@click.option("--rules", is_flag=True,
              help="Also start a rules engine in templates/SLUG/rules/: a placeholder game that pnp validate "
                   "--conformance accepts at once (docs/engine-tutorial.md); for a game that exists already, "
                   "only the engine.")
def new(slug, data, title, rules):
    """Start a game: templates/SLUG/ with a manifest, a front and a back template for
    one deck, and sample rows added to cards.csv (made when the folder has none);
    with --rules, a rules engine skeleton too. Never overwrites anything."""
    where = "" if data == Path(".") else f" --data {data}"
    if rules and (data / "templates" / slug / "game.toml").is_file():
        return _rules_only(data, slug, title, where)
    parts = ()
    if rules:
        from validator.skeleton import add_rules

        parts = (add_rules,)
    plan, written = write_game(data, slug, title, parts)
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
    if rules:
        _next_for_rules(slug, where)


def _rules_only(data: Path, slug: str, title: str | None, where: str) -> None:
    """``pnp new SLUG --rules`` for a game that exists: its rules engine skeleton alone."""
    from validator.skeleton import write_rules

    _check_slug(slug)
    for path in write_rules(data / "templates" / slug, slug, title):
        out.print(f"wrote {path}", markup=False, highlight=False)
    _next_for_rules(slug, where)


def _next_for_rules(slug: str, where: str) -> None:
    out.print(f"Rules: pnp validate {slug}{where} --conformance checks the engine, pnp validate {slug}{where} "
              "writes its report; replace the placeholder game in templates/"
              f"{slug}/rules/game.py with your rules (docs/engine-tutorial.md).", markup=False, highlight=False)
