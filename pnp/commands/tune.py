"""``pnp tune GAME --goal ... --vary ...``: search the variants for the ones that best meet a goal.

A thin shell over ``validator.tune``: successive halving over the grid of ``--vary``
(many variants on few games, more games for the promising ones), every variant on the
same game seeds.  Prints the best variants with their intervals and the rows and
options to change, writes ``OUT/<game>/tune/`` (tune.csv, tune.json, report.html),
and exits 0 when the best variant meets every goal, 1 when none does, 2 for a
mistake in the options (nothing run).
"""

from __future__ import annotations

import sys

import click

from validator.tune import TuneOptions

from ..console import out, progress_bar
from .sweep import common_play_options, load_game


@click.command()
@click.argument("slug", metavar="GAME")
@click.option("--goal", "goals", multiple=True, required=True, metavar="GOAL",
              help="What to reach: FIGURE<X, FIGURE>X, FIGURE=A..B (e.g. seat-spread<5, median-minutes=20..30), "
                   "verdicts (every verdict PASS) or no-fail; repeatable: all of them.")
@click.option("--vary", "vary", multiple=True, required=True, metavar="SPEC",
              help="What may change: count:ID=1..4, COLUMN:ID=2,3, rule:KEY=a,b, players=3..5, bots=...")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=TuneOptions.games, show_default=True,
              help="Games each finalist plays.")
@click.option("--start-games", "start", type=click.IntRange(min=1), default=TuneOptions.start, show_default=True,
              help="Games every variant plays in the first round.")
@click.option("--eta", type=click.IntRange(min=2), default=TuneOptions.eta, show_default=True,
              help="Each round keeps 1/ETA of the variants and plays ETA times the games.")
@click.option("--keep", type=click.IntRange(min=1), default=TuneOptions.keep, show_default=True,
              help="Finalists (the best variants reported).")
@click.option("--sample", type=click.IntRange(min=1), default=None, metavar="N",
              help="Start from a seeded random sample of N variants of the grid.")
@common_play_options
@click.pass_context
def tune(ctx, slug, goals, vary, n_games, start, eta, keep, sample, **common):
    """Search variants of GAME for those that best meet the goals, and write output/<game>/tune/."""
    from rich.progress import MofNCompleteColumn

    from validator.tune import tune as run_tune

    game, opts = load_game(ctx, slug, common, TuneOptions, games=n_games, start=start, eta=eta, keep=keep,
                           sample=sample)
    with progress_bar(MofNCompleteColumn()) as progress:
        task = progress.add_task(f"tuning {slug}", total=None)
        result = run_tune(game, list(vary), list(goals), opts,
                          lambda done, total: progress.update(task, completed=done, total=total))
    out.print(f"[bold]{result.title}[/bold]: {len(result.ranked)} variants, rounds of "
              + ", ".join(f"{r['games']:,} games x {len(r['variants'])}" for r in result.rounds)
              + f"; {result.games_played:,} games in {result.seconds:.1f} s", highlight=False)
    shown = list(result.best)
    if result.as_is is not None and result.as_is not in shown:
        shown.append(result.as_is)
    for t in shown:
        v = t.evaluated.variant
        state = ("meets every goal surely (every interval inside its goal)" if t.sure else
                 "meets every goal by the estimate only (an interval reaches outside its goal)" if t.met else
                 "does not meet the goals")
        name = "the deck as it is" + (f" ({v.label})" if v.point else "") if v.current else v.label
        out.print(f"  {name} ({t.evaluated.tally.games:,} games, {t.evaluated.status}): {state}"
                  + (": no change needed" if v.current and t is shown[0] and t.met else ""), highlight=False)
        for j in t.goals:
            how = "met surely" if j["sure"] else "met by the estimate only" if j["met"] else "not met"
            if isinstance(j.get("value"), (int, float)):
                out.print(f"    {j['goal']}: {j['value']:.2f} [{j['low']:.2f}, {j['high']:.2f}]: {how}",
                          highlight=False)
            else:
                out.print(f"    {j['goal']}: {j.get('value')}: {how}", highlight=False)
        for u in t.unsure or ():
            out.print(f"    still unsure after {t.evaluated.tally.games:,} games: {u['check']}: {u['why']}",
                      highlight=False)
        for change in v.changes:
            out.print(f"    change: {change}", highlight=False)
    for f in result.files:
        out.print(f"wrote {f}", highlight=False)
    if not (result.best and result.best[0].met):
        sys.exit(1)
