"""``pnp preview``: a local page of every card, rebuilt and refreshed on save."""

from __future__ import annotations

import click

from ..options import data_option, expansion_option, no_cache_option, out_option, page_option, port_option
from .watch import serve, start_session


@click.command()
@click.argument("games", nargs=-1)
@data_option
@out_option
@page_option
@expansion_option
@port_option("Port of the page on 127.0.0.1 (0: any free port; the address is printed).")
@no_cache_option
def preview(games, data, out_dir, page, expansions, port, no_cache):
    """Serve a page of every card (front and back, by deck, with warnings) on
    127.0.0.1, rebuilt on every save and refreshed by itself; same as
    pnp watch --serve. Ctrl-C stops."""
    session = start_session(data, games, out_dir, page, expansions, no_cache)
    serve(session, port)
