"""``pnp validate SLUG --conformance``: the printing side of ``validator.harness``.

One table per game - each check, whether it held, what was played or the
failure with its game seed - then every failure in full, with the command that
replays it.  Exit 1 when any check failed."""

from __future__ import annotations

import sys

from rich.markup import escape
from rich.table import Table

from ..console import err, out

STYLES = {"held": "green", "FAILED": "red", "not checked": "yellow", "stopped": "yellow"}


def check_engines(project, targets, boxes, data, thresholds, rules, seed, bots, workers, games, players,
                  move_timeout=None) -> None:
    from validator.harness import HarnessOptions, run_conformance
    from validator.kit import get_spec
    from validator.thresholds import find_thresholds, load_thresholds

    th = load_thresholds(find_thresholds(data, thresholds))
    failed = False
    for slug in targets:
        game = project.games[slug]
        opts = HarnessOptions(players=tuple(players), seed=seed, rules=get_spec(game).parse_options(list(rules)),
                              bots=bots, thresholds=th, expansions=boxes[slug])
        if move_timeout:
            opts.move_timeout = move_timeout
        if workers:
            opts.workers = max(2, workers)
        if games:
            opts.playouts = games
        with err.status(f"checking the rules of {slug}") as status:
            result = run_conformance(game, opts, lambda name: status.update(f"{slug}: {name}"))
        table = Table(title=f"{result.title}: conformance of the rules engine ({_players(result.players)}, seed {seed})",
                      title_justify="left")
        table.add_column("check", no_wrap=True)
        table.add_column("result", no_wrap=True)
        table.add_column("what was played", overflow="fold")
        for c in result.checks:
            style = STYLES[c.status]
            detail = c.detail if c.status != "FAILED" else f"game seed {c.seed}" if c.seed is not None else "see below"
            table.add_row(c.name, f"[{style}]{c.status}[/{style}]", escape(detail))
        out.print(table)
        for c in result.checks:
            if c.status == "FAILED":
                failed = True
                out.print(f"[red]FAILED[/red] {escape(c.name)}: {escape(c.detail)}", highlight=False)
        verdict = "every check held" if result.ok else "the engine breaks the protocol"
        out.print(f"{slug}: {verdict} ({result.seconds:.1f} s)", highlight=False)
    if failed:
        sys.exit(1)


def _players(counts) -> str:
    if not counts:
        return "no game played"
    counts = list(counts)
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]} players"
    return f"{', '.join(map(str, counts))} player{'s' if counts != [1] else ''}"
