"""How the command line speaks: problems one per line, errors without tracebacks."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape

from model.errors import InputErrors, PnpError, Problem

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


def report_problems(problems: list[Problem]) -> None:
    """One line per problem: ``error cards.csv:41:number: ...`` or ``warning ...``."""
    for p in problems:
        style = "red" if p.is_error else "yellow"
        label = "error" if p.is_error else "warning"
        err.print(f"[{style}]{label}[/{style}] {escape(str(p))}", markup=True, highlight=False)


def fail(exc: PnpError) -> None:
    """Print a library error the way users read it and exit with its code."""
    if isinstance(exc, InputErrors):
        report_problems(exc.problems)
        n = len(exc.problems)
        err.print(f"{n} error{'s' if n != 1 else ''}; nothing was written.")
    else:
        err.print(f"[red]error[/red] {escape(str(exc))}")
    sys.exit(exc.exit_code)


def progress_bar(*columns):
    """A rich progress bar on stderr, shown only on a terminal."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), *columns, TimeElapsedColumn(),
                    console=err, transient=True, disable=not err.is_terminal)
