"""``pnp preview``: a local page of every card, rebuilt and refreshed on save."""

from __future__ import annotations

import click

from generator.build import BuildOptions

from ..options import data_option, expansion_option, out_option, page_option
from .watch import serve, start_session


@click.command()
@click.argument("games", nargs=-1)
@data_option
@out_option
@page_option
@expansion_option
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port of the page on 127.0.0.1 (0: any free port; the address is printed).")
@click.option("--no-cache", is_flag=True, help="Do not read or write the build cache (OUT/.pnp-cache).")
def preview(games, data, out_dir, page, expansions, port, no_cache):
    """Serve a page of every card (front and back, by deck, with warnings) on
    127.0.0.1, rebuilt on every save and refreshed by itself; same as
    pnp watch --serve. Ctrl-C stops."""
    session = start_session(data, games, out_dir, page, expansions, no_cache)
    serve(session, port)
