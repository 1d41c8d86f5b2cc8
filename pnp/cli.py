"""The ``pnp`` command: a thin shell over the library.

Every user mistake ends as one clear line per problem and a non-zero exit;
tracebacks are for bugs only.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from model.errors import InputErrors, PnpError, Problem

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


def report_problems(problems: list[Problem]) -> None:
    for p in problems:
        style = "red" if p.is_error else "yellow"
        label = "error" if p.is_error else "warning"
        err.print(f"[{style}]{label}[/{style}] {escape(str(p))}", markup=True, highlight=False)


def fail(exc: PnpError) -> None:
    if isinstance(exc, InputErrors):
        report_problems(exc.problems)
        n = len(exc.problems)
        err.print(f"{n} error{'s' if n != 1 else ''}; nothing was written.")
    else:
        err.print(f"[red]error[/red] {escape(str(exc))}")
    sys.exit(exc.exit_code)


class PnpGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            fail(exc)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main():
    """Print-and-play toolchain: spreadsheets to print-ready PDFs, plus a rules validator.

    Run it in the folder that holds cards.csv, goals.csv and templates/.
    """


def data_option(f):
    return click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
                        show_default=True, help="Folder with cards.csv, goals.csv and templates/.")(f)


def _parse_offset(value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"'{value}' is not X,Y in millimetres, e.g. 0.5,-1") from None
    return x, y


@main.command()
@click.argument("games", nargs=-1)
@data_option
def check(games, data):
    """Check the sheets without building; exit 1 on any error.

    Besides every cell, it checks counts against the rulebook and, for games with
    a rules engine, the deck itself (conditions no arrangement can meet ...)."""
    from validator.core import deck_checks

    from model.sheets import load_project

    project = load_project(data, list(games) or None)
    # each game's problems: its rows' and templates' warnings, then its deck checks
    by_game = {}
    for slug, game in project.games.items():
        rows = {(c.sheet, c.row) for c in game.cards}
        own = [p for p in project.warnings
               if (p.file, p.row) in rows or p.file.startswith(f"templates/{slug}/")]
        by_game[slug] = own + deck_checks(game)
    mine = {id(p) for found in by_game.values() for p in found}
    problems = [p for p in project.warnings if id(p) not in mine] + [p for f in by_game.values() for p in f]
    report_problems(sorted(problems))
    table = Table(title="pnp check", title_justify="left")
    for col in ("game", "decks", "designs", "components", "warnings"):
        table.add_column(col, justify="right" if col != "game" else "left")
    for slug, game in project.games.items():
        warns = [p for p in by_game[slug] if not p.is_error]
        table.add_row(slug, str(len({c.deck for c in game.cards})), str(len(game.cards)),
                      str(sum(c.count for c in game.cards)), str(len(warns)))
    out.print(table)
    errors = [p for p in problems if p.is_error]
    if errors:
        err.print(f"{len(errors)} error(s).")
        sys.exit(1)
    out.print("All sheets are fine." if not problems else f"No errors, {len(problems)} warning(s).")


@main.command()
@click.argument("games", nargs=-1)
@data_option
@click.option("--page", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="Paper size.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder  [default: DATA/output]")
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True,
              help="How the printer turns the sheet for backs; none: backs in their own file.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Shift the backs by X (right) and Y (down) millimetres to correct a printer.")
@click.option("--expansion", "expansions", multiple=True,
              help="Build only the base game plus this expansion (repeatable).")
def build(games, data, page, out_dir, duplex, back_offset, expansions):
    """Build print-ready PDFs: output/<game>/<game>-cards.pdf and -reference.pdf."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from generator.build import BuildOptions, build_games

    from model.sheets import load_project

    start = time.perf_counter()
    offset = _parse_offset(back_offset)
    project = load_project(data, list(games) or None)
    report_problems(project.warnings)
    if not games:
        for slug in [s for s, g in project.games.items() if not g.cards]:
            err.print(f"skipped {slug}: no rows in the sheets yet")
            del project.games[slug]
    for game in project.games.values():
        known = set(game.manifest.expansions)
        bad = [e for e in expansions if e not in known]
        if bad and (games or len(project.games) == 1):
            raise PnpError(f"unknown expansion '{bad[0]}' for {game.slug}; known: {', '.join(sorted(known))}")
    out_dir = out_dir or (data / "output")
    jobs = []
    for game in project.games.values():
        wanted = None
        if expansions:
            wanted = {"base", *expansions} & set(game.manifest.expansions)
        jobs.append((game, BuildOptions(page, duplex, offset, out_dir, wanted)))
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("building", total=len(jobs))
        results = build_games(jobs, workers=os.cpu_count() or 1, done=lambda r: progress.advance(task, 1))
    for r in results:
        report_problems(r.warnings)
    table = Table(title=f"pnp build ({page}, duplex {duplex})", title_justify="left")
    for col in ("game", "components", "designs", "pages", "warnings", "seconds"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in results:
        table.add_row(r.game, str(r.components), str(sum(d.designs for d in r.decks)), str(r.pages),
                      str(len(r.warnings)), f"{r.seconds:.2f}")
    out.print(table)
    for r in results:
        for f in r.files:
            out.print(f"wrote {f}")
    out.print(f"Done in {time.perf_counter() - start:.2f} s.")


def _register_subcommands() -> None:
    from .cli_validate import validate

    main.add_command(validate)


_register_subcommands()


if __name__ == "__main__":
    main()
