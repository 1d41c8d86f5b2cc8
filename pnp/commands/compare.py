"""The ``--compare REF`` part of ``pnp validate``: this deck against a reference on the same game seeds.

Kept beside the ``validate`` command, which hands over to :func:`run_compare` when
``--compare`` is given.  The work is ``validator.compare``'s; this prints the figures
side by side, the verdicts that changed, and exits 1 when a verdict got worse (0
otherwise), 2 for a reference that is none of a data folder, a git revision and a
summary.
"""

from __future__ import annotations

import sys

from model.errors import CommandLineError
from validator.figures import gate_interval, unpaired_reasons

from ..console import err, out, progress_bar
from ..options import explicit

#: the validate options a reference summary sets when they are not given (click parameter names)
GIVEN = {"players_text": "players", "n_games": "games", "seed": "seed", "skill_games": "skill_games", "bots": "bots",
         "rules": "rules"}


def run_compare(ctx, ref_text: str, slug: str, project, data, opts) -> None:
    from rich.progress import MofNCompleteColumn

    from validator.compare import adopt_summary, compare_game, resolve_ref
    from validator.kit import get_spec

    spec = get_spec(project.games[slug])
    ref = resolve_ref(ref_text, data)
    try:
        if ref.kind == "summary":
            given = {name for param, name in GIVEN.items() if explicit(ctx, param)}
            mine = opts
            opts = adopt_summary(ref, slug, opts, given, spec)
            taken = [f"--{flag.replace('_', '-')} {getattr(opts, name)}" for name, flag in
                     (("games", "games"), ("players", "players"), ("seed", "seed"), ("skill_games", "skill_games"),
                      ("bots", "bots")) if getattr(opts, name) != getattr(mine, name)
                     and not (name == "bots" and opts.bots == (mine.bots or spec.default_bots))]
            taken += [f"--rule {k.replace('_', '-')}={v}" for k, v in opts.rules.items()
                      if mine.rules.get(k, spec.params[k].default) != v]
            if taken:
                err.print("playing the summary's games: " + " ".join(taken), highlight=False)
        with progress_bar(MofNCompleteColumn()) as progress:
            task = progress.add_task(f"comparing {slug}", total=None)

            def advance(_slug, done, total):
                progress.update(task, completed=done, total=total)

            c = compare_game(project.games[slug], ref, opts, advance)
    finally:
        ref.close()
    styles = {"PASS": "green", "WARN": "yellow", "FAIL": "red", None: "dim"}
    out.print(f"[bold]{c.title}[/bold]: this deck against {c.ref.label}", highlight=False)
    width = max(len(k) for k in c.figures) if c.figures else 10
    for k, f in c.figures.items():
        unit = f" {f['unit']}" if f["unit"] else ""
        interval = "" if f["low"] is None else f" [{f['low']:+.2f}, {f['high']:+.2f}]"
        sure = "" if f["low"] is None or f["low"] <= 0 <= f["high"] else "  *"
        mark = "" if f.get("paired") else " (unpaired)"
        out.print(f"  {k:<{width}}  {f['reference']:>8.2f} -> {f['value']:>8.2f}{unit}  "
                  f"{f['difference']:+.2f}{interval}{mark}{sure}", highlight=False)
    changed = [v for v in c.verdicts if v["change"] != "same"]
    for v in changed:
        a, b = v["reference"], v["now"]
        out.print(f"  [{styles[a]}]{a or '-'}[/{styles[a]}] -> [{styles[b]}]{b or '-'}[/{styles[b]}] {v['check']} "
                  f"({_change(v, c.figures)}): {v['message'] or v['reference_message']}", highlight=False)
    if not changed:
        out.print("  no verdict changed", highlight=False)
    for r in c.cards[:5]:
        if r["difference"] is not None and r["clear"]:
            out.print(f"  card {r['name']} ({r['id']}): {r['difference']:+.1f} "
                      f"[{r['low']:+.1f}, {r['high']:+.1f}] {r['measure']}", highlight=False)
    if any(f["low"] is not None and not f["low"] <= 0 <= f["high"] for f in c.figures.values()):
        out.print("  * the 95% interval leaves out 0", highlight=False)
    for why, keys in unpaired_reasons(c.figures).items():
        out.print(f"  unpaired ({', '.join(keys)}): {why}; each difference comes from the two runs' own intervals, "
                  "wider than a paired one", highlight=False)
    for f in c.files:
        out.print(f"{slug}: {f}", highlight=False)
    if c.worse:
        err.print(f"{len(c.worse)} verdict{'s' if len(c.worse) != 1 else ''} got worse than the reference: "
                  + ", ".join(v["check"] for v in c.worse))
        sys.exit(1)


def _change(v: dict, figures: dict) -> str:
    """A verdict's change as the terminal says it: with the figure behind a worse-looking flip and the interval
    the exit code reads (the checks a figure measures share its 5% error)."""
    f = figures.get(v["figure"]) if v.get("figure") else None
    if f is not None:
        low, high = gate_interval(f)
        interval = f"{f['difference']:+.2f}, {f.get('gate', 0.95) * 100:.1f}% interval [{low:+.2f}, {high:+.2f}]"
    if v["change"] == "within noise":
        if f is None:
            return "within noise: no headline figure measures it, so its flip is not counted"
        return f"within noise: {v['figure']} {interval} holds 0, so its flip is not counted"
    if v["change"] == "worse" and f is not None:
        return f"worse: {v['figure']} moved {interval}"
    return v["change"]


def refuse_clashes(slugs, replay) -> None:
    """``--compare`` plays one game against one reference: a clash is one line, exit 2."""
    if replay is not None:
        raise CommandLineError("--compare cannot be combined with --replay")
    if len(slugs) != 1:
        raise CommandLineError("--compare needs one game, e.g. pnp validate pyramid-scheme --compare HEAD~1")
