"""``pnp watch``: build again after every save of the sheets or templates."""

from __future__ import annotations

import os
import signal

import click

from generator.build import BuildOptions

from ..console import err, out
from ..options import data_option, expansion_option, no_cache_option, out_option, page_option, port_option


def print_build(snap) -> None:
    """One line per game built (what changed, time, warnings), or the error lines."""
    from preview.session import summary

    lines = summary(snap)
    stream = err if snap.errors else out
    for line in lines:
        style = "red" if line.startswith("error") else "yellow" if line.lstrip().startswith("warning") else None
        stream.print(line, style=style, markup=False, highlight=False)


def start_session(data, games, out_dir, page, expansions, no_cache):
    from preview.session import Session

    from ..findings import game_checks

    session = Session(data, list(games) or None, out_dir or (data / "output"), BuildOptions(page=page),
                      expansions, cache=not no_cache, checks=game_checks)
    # the first build may use every core; later ones are small and run beside the watcher
    print_build(session.build(workers=os.cpu_count() or 1))
    return session


def serve(session, port: int) -> None:
    from preview.server import PreviewServer

    try:
        server = PreviewServer(session, port, print_build)
    except OSError as exc:
        raise click.UsageError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    out.print(f"preview at {server.url}  (Ctrl-C stops)", markup=False, highlight=False)
    try:
        server.serve()
    finally:
        session.close()
    out.print("stopped watching.")


@click.command()
@click.argument("games", nargs=-1)
@data_option
@out_option
@page_option
@expansion_option
@click.option("--serve", "serve_page", is_flag=True, help="Also serve the preview page (as pnp preview does).")
@port_option("Port of the preview page on 127.0.0.1, with --serve (0: any free port).")
@no_cache_option
def watch(games, data, out_dir, page, expansions, serve_page, port, no_cache):
    """Build, then build again whenever a sheet, template or manifest is saved.

    Prints one line per build: what changed, how long it took, warnings; or the
    data errors, keeping the last good PDFs. Ctrl-C stops."""
    session = start_session(data, games, out_dir, page, expansions, no_cache)
    if serve_page:
        serve(session, port)
        return
    from preview.watch import watch as watch_loop

    # SIGTERM stops as Ctrl-C does; one that comes while the line saying so is printed waits for the line
    # (ending the process there would leave its helper running, interrupting the print would repeat the line)
    asked: list = []
    previous = signal.signal(signal.SIGTERM, lambda sig, frame: asked.append(sig))
    try:
        out.print(f"watching {data.resolve()} for saves (Ctrl-C stops)", markup=False, highlight=False)
        signal.signal(signal.SIGTERM, _interrupt)
        if asked:
            raise KeyboardInterrupt
        watch_loop(session, print_build)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        session.close()
    out.print("stopped watching.")


def _interrupt(sig, frame):
    raise KeyboardInterrupt
