"""Options shared by several commands."""

from __future__ import annotations

from pathlib import Path

import click


def data_option(f):
    return click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
                        show_default=True, help="Folder with cards.csv, goals.csv and templates/.")(f)


def out_option(f):
    return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help="Output folder  [default: DATA/output]")(f)


def expansion_option(f):
    return click.option("--expansion", "expansions", multiple=True,
                        help="Use only the base game plus this expansion (repeatable).")(f)


def explicit(ctx: click.Context, name: str) -> bool:
    """Whether the user gave option ``name`` on the command line."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
