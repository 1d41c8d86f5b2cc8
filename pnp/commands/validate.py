"""``pnp validate``: simulate games with bots and write a deck-validation report.

A thin shell over ``validator.validate``: it parses options, refuses clashes,
shows a progress bar and a summary table, and turns the verdict into the exit
code (0 on PASS or WARN, 1 on FAIL).
"""

from __future__ import annotations

import sys

import click

from model.errors import CommandLineError, EngineFailure, PnpError
from validator.validate import Options

from ..console import err, hear_ctrl_c, out, progress_bar
from ..options import (data_option, expansion_option, explicit, move_timeout_option, out_option, rule_option,
                       scheduler_option, seed_option, thresholds_option, until_sure_options, workers_option)

_FLAGS = {"n_games": "--games", "out_dir": "--out", "skill_games": "--skill-games"}


def refuse_budget(ctx, until_sure: bool, compare, replay, conformance: bool, games: int, max_games) -> None:
    """--until-sure's budget only with --until-sure, and --until-sure only where games are played for a report."""
    if until_sure:
        for given, flag in ((compare is not None, "--compare (both sides must play the same games)"),
                            (replay is not None, "--replay"), (conformance, "--conformance")):
            if given:
                raise CommandLineError(f"--until-sure cannot be combined with {flag}")
    refuse_budget_flags(ctx, until_sure, games, max_games, ", the first look")


def refuse_budget_flags(ctx, until_sure: bool, games: int, max_games, suffix: str = "") -> None:
    """--max-games and --max-seconds only with --until-sure, and --max-games no fewer than --games (``suffix``
    ends that line)."""
    for name, flag in (("max_games", "--max-games"), ("max_seconds", "--max-seconds")):
        if explicit(ctx, name) and not until_sure:
            raise CommandLineError(f"{flag} is the budget of --until-sure; add --until-sure or leave {flag} out")
    if until_sure and max_games is not None and max_games < games:
        raise CommandLineError(f"--max-games {max_games} is fewer than --games {games}{suffix}")


def parse_players(text: str) -> tuple[int, tuple[int, ...]]:
    """``4`` or ``2,4,6``: the main run's count and the further counts."""
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"'{text}' is not a player count or a list such as 2,4,6",
                                 param_hint="'--players'") from None
    if not counts:
        raise click.BadParameter("give a player count, e.g. 4", param_hint="'--players'")
    return counts[0], tuple(dict.fromkeys(counts[1:]))


def announce_rules(project, slugs) -> None:
    """Say, first, that a game's own rules engine - Python from its data folder - is about to run."""
    from validator.kit.registry import folder_rules_of

    for slug in slugs:
        rules = folder_rules_of(project.games[slug]) if slug in project.games else None
        if rules is None:
            continue
        files = sorted(p.relative_to(rules).as_posix() for p in rules.rglob("*.py")
                       if not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(rules).parts))
        err.print(f"running the rules engine of {slug} from {rules}{'/'} ({', '.join(files)}): Python from the data "
                  "folder, with your permissions", markup=False, highlight=False)


@click.command()
@click.argument("slugs", nargs=-1, metavar="[GAME]...")
@data_option
@click.option("--games", "n_games", type=click.IntRange(min=1), default=Options.games, show_default=True,
              help="Games to simulate per game title.")
@click.option("--players", "players_text", default=str(Options.players), show_default=True, metavar="N[,N...]",
              help="Players per game; several counts (e.g. 2,4,6) add the seat balance of each further count, with "
                   "its own verdict (--games games each), the first count being the main run.")
@seed_option("Master seed; every game's seed derives from it.")
@workers_option
@scheduler_option
@click.option("--bots", default=Options.bots,
              help="Bots of the main games: one name for every seat or one per player (random, greedy, search, "
                   "and the game's own bots)  [default: the game's own choice, greedy for most]")
@click.option("--skill-games", type=click.IntRange(min=0), default=None,
              help="Games per bot pairing for the skill matrix (0: skip it)  [default: the game's own: 60, or more "
                   "for a fast engine]")
@click.option("--strict", is_flag=True, help="Check every invariant after every action; stop at the first violation.")
@click.option("--replay", type=int, metavar="SEED", default=None,
              help="Play the game with this game seed move by move and print it (no report).")
@click.option("--conformance", is_flag=True,
              help="Check the rules engine instead of the deck: random games under --strict, same seed same game "
                   "for any worker count, clones, hidden information, zones; a table of what held (no report).")
@rule_option("Set a rules option (repeatable); see docs/rules-notes.md.")
@thresholds_option
@click.option("--compare", "compare", metavar="REF", default=None,
              help="Compare with a reference on the same game seeds: another data folder, a git revision of the "
                   "data, or a saved summary.json; exit 1 when a verdict got worse.")
@until_sure_options("Play --games, then twice as many, four times ... until every verdict's interval is clear of "
                    "its thresholds (5% error over all the looks), or --max-games / --max-seconds is spent.",
                    "per player count")
@move_timeout_option
@expansion_option
@out_option
@click.pass_context
def validate(ctx, slugs, data, n_games, players_text, seed, workers, scheduler, bots, skill_games, strict, replay,
             conformance, rules, thresholds, compare, until_sure, max_games, max_seconds, move_timeout, expansions,
             out_dir):
    """Simulate games with bots and write output/<game>/validation/ (report.html, summary.json, games.csv
    and the game's own tables).  Exit 1 when a verdict is FAIL; with --compare REF, also compare.html and
    compare.json, and exit 1 when a verdict got worse than the reference's."""
    from model.sheets import load_project
    from validator.kit import get_spec, has_rules
    from validator.thresholds import find_thresholds, load_thresholds

    hear_ctrl_c()
    players, sweep = parse_players(players_text)
    refuse_budget(ctx, until_sure, compare, replay, conformance, n_games, max_games)
    if compare is not None:
        from .compare import refuse_clashes

        refuse_clashes(slugs, replay)
    if scheduler and explicit(ctx, "workers"):
        raise CommandLineError("--workers and --scheduler cannot be combined: the Dask cluster decides its workers")
    if replay is not None:
        for name in ("scheduler", "workers", "n_games", "skill_games", "out_dir", "conformance"):
            if explicit(ctx, name):
                raise CommandLineError(f"--replay plays one game; it cannot be combined with {_FLAGS.get(name, '--' + name)}")
    if conformance:
        for name in ("scheduler", "skill_games", "out_dir", "compare"):
            if explicit(ctx, name):
                raise CommandLineError(f"--conformance checks the engine and writes nothing; it cannot be combined with "
                               f"{_FLAGS.get(name, '--' + name)}")

    project = load_project(data, list(slugs) or None)
    # the mistakes that need no rules engine are said before any engine runs
    boxes = project.select_expansions(expansions, strict=bool(slugs))
    if compare is not None:
        from validator.compare import resolve_ref

        resolve_ref(compare, data, read=False)
    announce_rules(project, list(slugs) or list(project.games))
    if slugs:
        targets = list(slugs)
        for slug in targets:
            get_spec(project.games[slug])  # a clear error for a game without a rules engine (or rules that do not load)
    else:
        targets = [slug for slug in project.games if has_rules(project.games[slug])]
        if not targets:
            raise PnpError("none of the games here has a rules engine yet; nothing to validate")
        waiting = [slug for slug in project.games if slug not in targets]
        if waiting and replay is None:
            err.print(f"skipped {', '.join(waiting)}: no rules engine yet")

    if replay is not None:
        if len(targets) != 1:
            raise CommandLineError(f"--replay needs one game; name it, e.g. pnp validate {targets[0]} --replay {replay}")
        from validator.validate import replay as run_replay

        slug = targets[0]
        th = load_thresholds(find_thresholds(data, thresholds))
        try:
            lines = run_replay(project.games[slug], replay, players, bots,
                               get_spec(project.games[slug]).parse_options(list(rules)), strict=True,
                               expansions=boxes[slug], thresholds=th)
        except EngineFailure as exc:
            for line in exc.lines:  # the moves up to the failure, then the failure's own line
                click.echo(line)
            raise
        for line in lines:
            click.echo(line)
        return

    if conformance:
        from .conformance import check_engines

        check_engines(project, targets, boxes, data, thresholds, rules, seed, bots, workers,
                      n_games if explicit(ctx, "n_games") else None, (players, *sweep) if explicit(ctx, "players_text")
                      else (), move_timeout)
        return

    from rich.markup import escape
    from rich.progress import MofNCompleteColumn
    from rich.table import Table

    from validator.failures import blame
    from validator.sure import lines as sure_lines
    from validator.validate import validate_game

    th = load_thresholds(find_thresholds(data, thresholds))

    def options(slug: str) -> Options:
        return Options(games=n_games, players=players, seed=seed, workers=workers, scheduler=scheduler,
                       strict=strict, bots=bots, skill_games=skill_games,
                       rules=get_spec(project.games[slug]).parse_options(list(rules)), thresholds=th,
                       out=out_dir or (data / "output"), expansions=boxes[slug], sweep=sweep, sweep_games=n_games,
                       until_sure=until_sure, max_games=max_games, max_seconds=max_seconds, move_timeout=move_timeout)

    if compare is not None:
        from .compare import run_compare

        return run_compare(ctx, compare, targets[0], project, data, options(targets[0]))
    results = []
    with progress_bar(MofNCompleteColumn()) as progress:
        for slug in targets:
            spec = get_spec(project.games[slug])
            task = progress.add_task(f"simulating {slug}", total=None)

            def advance(_slug, done, total, task=task):
                progress.update(task, completed=done, total=total)

            opts = options(slug)
            with blame(spec):  # a fault in the engine's own code: one line naming its file and line
                results.append(validate_game(project.games[slug], opts, advance))
            progress.remove_task(task)

    for r in results:
        for line in r.warnings:
            err.print(f"[yellow]warning[/yellow] {escape(line)}", highlight=False)
    styles = {"PASS": "green", "WARN": "yellow", "FAIL": "red"}
    for r in results:
        out.print(f"[bold]{r.title}[/bold]")
        for v in r.verdicts:
            st = styles[v.status]
            out.print(f"  [{st}]{v.status}[/{st}] {v.check}: {v.message}", markup=True, highlight=False)
        for line in sure_lines(r.summary):
            out.print("  " + line, highlight=False)
    table = Table(title="pnp validate", title_justify="left")
    for col in ("game", "games", "verdict", "median min", "seat spread", "games/s", "seconds"):
        table.add_column(col, justify="left" if col in ("game", "verdict") else "right", no_wrap=col == "game")
    for r in results:
        s = r.summary
        med = s["length"]["minutes"]["median"]
        spread = s["outcome"]["seat_spread"]
        table.add_row(r.slug, f"{s['run']['games']:,}", f"[{styles[r.status]}]{r.status}[/{styles[r.status]}]",
                      "-" if med is None else f"{med:.1f}", "-" if spread is None else f"{spread * 100:.1f} pts",
                      f"{s['timing']['games_per_second'] or 0:,.0f}", f"{r.seconds:.1f}")
    out.print(table)
    for r in results:
        report = next((f for f in r.files if f.name == "report.html"), None)
        if report is not None:
            out.print(f"{r.slug}: {report}", highlight=False)
    if any(r.status == "FAIL" for r in results):
        sys.exit(1)
