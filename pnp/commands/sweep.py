"""``pnp sweep GAME --vary SPEC ...``: variants of a deck on the same game seeds.

A thin shell over ``validator.sweep``: it parses options, shows a progress bar, prints
one line per variant and a summary, and writes ``OUT/<game>/sweep/``.  Every mistake
in ``--vary`` and the other options is one line and exit 2, before any game is played.
"""

from __future__ import annotations


import click

from model.errors import CommandLineError
from validator.sweep import SweepOptions

from ..console import hear_ctrl_c, out, progress_bar
from ..options import (data_option, expansion_option, explicit, move_timeout_option, out_option, rule_option,
                       scheduler_option, seed_option, thresholds_option, until_sure_options, workers_option)
from .validate import announce_rules, refuse_budget_flags


def common_play_options(f):
    """The options ``pnp sweep`` and ``pnp tune`` share (most of them with ``pnp validate``); the command
    receives them as ``**common`` and hands them to :func:`load_game`."""
    for option in reversed([
        click.option("--players", type=int, default=SweepOptions.players, show_default=True,
                     help="Players per game (vary them with --vary players=3..5)."),
        seed_option("Master seed: game i has the same seed in every variant."),
        workers_option,
        scheduler_option,
        click.option("--bots", default=None, help="Bots of every variant (vary them with --vary bots=...)  "
                                                  "[default: the game's own choice]"),
        rule_option("Set a rules option for every variant (repeatable)."),
        thresholds_option,
        until_sure_options("Each variant plays on (twice the games, four times ...) until what it is judged on is "
                           "sure (5% error over all the looks), or --max-games / --max-seconds is spent.",
                           "per variant"),
        move_timeout_option, data_option, expansion_option, out_option,
    ]):
        f = option(f)
    return f


def load_game(ctx, slug: str, common: dict, make, **own):
    """The game's data and the run's options: ``make`` (``SweepOptions`` or ``TuneOptions``) of the
    :func:`common_play_options` (``common``) and the command's ``own``; option clashes are exit 2."""
    from model.sheets import load_project
    from validator.kit import get_spec
    from validator.thresholds import find_thresholds, load_thresholds

    hear_ctrl_c()
    data = common["data"]
    if common["scheduler"] and explicit(ctx, "workers"):
        raise CommandLineError("--workers and --scheduler cannot be combined: the Dask cluster decides its workers")
    refuse_budget_flags(ctx, common["until_sure"], own["games"], common["max_games"])
    project = load_project(data, [slug])
    announce_rules(project, [slug])
    spec = get_spec(project.games[slug])
    boxes = project.select_expansions(common["expansions"], strict=True)[slug]
    parsed = spec.parse_options(list(common["rules"]))  # a mistake there: the command line's (exit 2)
    th = load_thresholds(find_thresholds(data, common["thresholds"]))
    return project.games[slug], make(players=common["players"], seed=common["seed"], workers=common["workers"],
                                     scheduler=common["scheduler"], bots=common["bots"], rules=parsed, thresholds=th,
                                     out=common["out_dir"] or (data / "output"), expansions=boxes,
                                     until_sure=common["until_sure"], max_games=common["max_games"],
                                     max_seconds=common["max_seconds"], move_timeout=common["move_timeout"], **own)


@click.command()
@click.argument("slug", metavar="GAME")
@click.option("--vary", "vary", multiple=True, required=True, metavar="SPEC",
              help="What to vary: count:ID=1..4, COLUMN:ID=2,3, rule:KEY=a,b, players=3..5, bots=greedy,random "
                   "(repeatable: a grid of every combination).")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=SweepOptions.games, show_default=True,
              help="Games per variant.")
@click.option("--sample", type=click.IntRange(min=1), default=None, metavar="N",
              help="Play a seeded random sample of N variants of the grid.")
@common_play_options
@click.pass_context
def sweep(ctx, slug, vary, n_games, sample, **common):
    """Play variants of GAME's deck on the same game seeds and write output/<game>/sweep/ (sweep.csv,
    sweep.json, report.html): every headline figure with its interval, and every verdict, per variant."""
    from rich.progress import MofNCompleteColumn
    from rich.table import Table

    from validator.sweep import run_sweep

    game, opts = load_game(ctx, slug, common, SweepOptions, games=n_games, sample=sample)
    with progress_bar(MofNCompleteColumn()) as progress:
        task = progress.add_task(f"sweeping {slug}", total=None)
        result = run_sweep(game, list(vary), opts, lambda done, total: progress.update(task, completed=done,
                                                                                        total=total))
    styles = {"PASS": "green", "WARN": "yellow", "FAIL": "red"}
    count = len(result.results)
    which = (f"{count} of {result.grid} variants sampled" if count < result.grid
             else f"{count} variant{'s' if count != 1 else ''}")
    games = "" if opts.until_sure else f" x {n_games:,} games"
    table = Table(title=f"pnp sweep {slug}: {which}{games}", title_justify="left")
    table.add_column("#", justify="right", no_wrap=True)
    for a in result.axes:
        table.add_column(a.name, no_wrap=True)
    if opts.until_sure:
        table.add_column("games", justify="right")
        table.add_column("sure", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    shown = {"median-minutes": "median min", "seat-spread": "spread pts", "first-seat-edge": "edge pts"}
    from validator.figures import GENERIC, half_width

    for key in (result.results[0].headline if result.results else {}):  # the engine's own figures too
        if key not in GENERIC:
            shown[key] = key.replace("-", " ")
    for title in shown.values():
        table.add_column(title, justify="right")
    for r in result.results:
        v = r.variant
        figs = []
        for key in shown:
            f = r.headline[key]
            figs.append("-" if f["value"] is None else f"{f['value']:.1f} ±{half_width(f):.1f}")
        st = styles[r.status]
        sure = [f"{r.tally.games:,}", "no" if r.unsure else "yes"] if opts.until_sure else []
        table.add_row(str(v.index + 1) + (" *" if v.current else ""), *v.values, *sure, f"[{st}]{r.status}[/{st}]",
                      *figs)
    out.print(table)
    games = sum(r.tally.games for r in result.results)
    workers = f"{result.workers} worker{'s' if result.workers != 1 else ''}"
    out.print(f"{games:,} games in {result.seconds:.1f} s ({games / max(result.seconds, 1e-9):,.0f} games/s, "
              f"{workers}); * the deck as it is; ± the larger side of the 95% interval (sweep.csv holds both ends)",
              highlight=False)
    if count < result.grid:
        out.print(f"--sample {count}: a seeded random {count} of the grid's {result.grid} variants", highlight=False)
    for r in result.results:
        if r.unsure:
            out.print(f"variant {r.variant.index + 1} still unsure after {r.tally.games:,} games: "
                      + "; ".join(f"{u['check']}: {u['why']}" for u in r.unsure), highlight=False)
    for f in result.files:
        out.print(f"wrote {f}", highlight=False)
