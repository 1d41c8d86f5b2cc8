"""``pnp clean``: forget the build cache (and, with --outputs, the built files)."""

from __future__ import annotations

import shutil

import click

from ..console import out
from ..options import data_option, out_option


@click.command()
@data_option
@out_option
@click.option("--outputs", is_flag=True, help="Also remove every game's output folder (the built PDFs and exports).")
def clean(data, out_dir, outputs):
    """Remove the build cache (OUT/.pnp-cache): the next build renders every design again; and what a
    validation that was killed left behind (its temporary files)."""
    from generator.diskcache import clear
    from validator.gamesfile import remove_stale

    out_dir = out_dir or (data / "output")
    removed = clear(out_dir)
    out.print(f"removed {removed}" if removed else f"no build cache in {out_dir}", markup=False, highlight=False)
    if out_dir.is_dir():
        for folder in sorted(p for p in out_dir.glob("*/*") if p.is_dir()):
            for path in remove_stale(folder):
                out.print(f"removed {path}", markup=False, highlight=False)
    if outputs and out_dir.is_dir():
        templates = data / "templates"
        slugs = {p.name for p in templates.iterdir() if (p / "game.toml").is_file()} if templates.is_dir() else set()
        for folder in sorted(p for p in out_dir.iterdir() if p.is_dir() and p.name in slugs):
            shutil.rmtree(folder)
            out.print(f"removed {folder}", markup=False, highlight=False)
