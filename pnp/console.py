"""How the command line speaks: problems one per line, errors without tracebacks."""

from __future__ import annotations

import os
import signal
import sys
import threading

from rich.console import Console
from rich.markup import escape

from model.errors import InputErrors, PnpError, Problem

# emoji=False: ':tent:' in a message is an icon's name, printed as typed, never rich's emoji for it
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
out = Console(highlight=False, soft_wrap=True, emoji=False)


def report_problems(problems: list[Problem]) -> None:
    """One line per problem: ``error cards.csv:41:number: ...`` or ``warning ...``."""
    for p in problems:
        style = "red" if p.is_error else "yellow"
        label = "error" if p.is_error else "warning"
        err.print(f"[{style}]{label}[/{style}] {escape(str(p))}", markup=True, highlight=False)


def fail(exc: PnpError) -> None:
    """Print a library error the way users read it and exit with its code."""
    if isinstance(exc, InputErrors):
        report_problems(sorted(exc.problems + exc.warnings))
        n = len(exc.problems)
        err.print(f"{n} error{'s' if n != 1 else ''}; nothing was written.")
    else:
        err.print(f"[red]error[/red] {escape(str(exc))}")
    sys.exit(exc.exit_code)


#: Exit code of a bug in pnp (an exception that is not a named error).
BUG_EXIT = 3
#: Exit code after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED_EXIT = 130


def bug(exc: BaseException) -> None:
    """An exception that is no mistake of the user's: its traceback (a worker
    process's own, when it happened in one), then a line saying it is a bug and
    how to report it; exit 3."""
    import traceback

    from model import __version__
    from model.workers import WorkerCrash

    if isinstance(exc, WorkerCrash):
        trace, kind, message = exc.trace, exc.kind, exc.message
    else:
        trace, kind, message = "".join(traceback.format_exception(exc)), type(exc).__name__, str(exc)
    err.print(trace.rstrip(), markup=False, highlight=False)
    err.print(f"[red]bug[/red] {escape(kind)}: {escape(str(message))}", highlight=False)
    err.print(f"This is a bug in pnp {__version__}, not a mistake in your files. Please report it on the pnp issue "
              "tracker with the traceback above, the command you ran and, if you can, the files it read.",
              markup=False, highlight=False)
    sys.exit(BUG_EXIT)


def interrupted() -> None:
    """Ctrl-C: one line, no traceback (builds write nothing until they are done)."""
    _STOPPED_SAID.set()
    err.print(STOPPED, markup=False, highlight=False)
    sys.exit(INTERRUPTED_EXIT)


STOPPED = "stopped (Ctrl-C); nothing more was written."
_STOPPED_SAID = threading.Event()  # (the line is said once, by whichever of the two hears Ctrl-C first)


def hear_ctrl_c() -> None:
    """For the commands that run a game's rules engine: Ctrl-C stops them within two seconds whatever the
    engine does (``model.workers.hear_ctrl_c``), with the same one line."""
    import click

    from model.workers import hear_ctrl_c as hear

    def last_words() -> None:
        if not _STOPPED_SAID.is_set():
            os.write(2, (STOPPED + "\n").encode())

    before = signal.getsignal(signal.SIGINT)
    hear(last_words)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:  # (a command run inside another program leaves its Ctrl-C as it found it)
        ctx.call_on_close(lambda: signal.signal(signal.SIGINT, before))


def progress_bar(*columns):
    """A rich progress bar on stderr, shown only on a terminal."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), *columns, TimeElapsedColumn(),
                    console=err, transient=True, disable=not err.is_terminal)
