"""``pnp sweep`` as a library: every variant of a grid played on the same game seeds.

:func:`prepare` parses the ``--vary`` specs and compiles every variant before a game
is played (:mod:`validator.variants`: any mistake is one line, exit 2).
:func:`play_variants` plays games ``first .. first+games-1`` of every variant through
one pipeline of batches - a local process pool or a Dask cluster - so no worker idles
between variants; game *i* has the same seed in every variant (common random
numbers), and the tallies are merged in batch order, so the figures are the same
for any worker count.  :func:`evaluate` turns a variant's tally into its headline
figures and verdicts (the side games an engine's statistics play are skipped: see
``GameSpec.side_games``).  :func:`run_sweep` does it all and writes
``<out>/<game>/sweep/``: ``sweep.csv`` (one row per variant), ``sweep.json`` and
``report.html`` (a plot of each figure against each varied parameter, and a verdict
map).  ``pnp tune`` (:mod:`validator.tune`) reuses the same pieces.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from model.atomic import write_files
from model.errors import CommandLineError
from validator.kit import get_spec

from .bots import parse_bots
from .failures import replay_args
from .figures import describe
from .runner import PlayOptions, Pool, Stream, run_streams
from .sweep_report import check_names
from .thresholds import Thresholds
from .summary import summarize
from .validate import RunOptions, planned_games, run_record, static_problems, time_model, with_expansions
from .verdicts import judged, worst
from .variants import Axis, Variant, compile_variants, grid, make_variants, parse_vary


@dataclass
class SweepOptions(RunOptions):
    sample: int | None = None  # play a seeded random sample of this many grid points


@dataclass
class Evaluated:
    """A variant's figures after the games played so far."""

    variant: Variant
    tally: object
    summary: dict
    verdicts: list
    headline: dict
    unsure: list | None = None  # with --until-sure: the checks still unsure ({"check", "why"}), [] when all sure

    @property
    def status(self) -> str:
        return worst(v.status for v in self.verdicts)


@dataclass
class SweepResult:
    slug: str
    title: str
    axes: list[Axis]
    results: list[Evaluated]
    files: list[Path]
    seconds: float
    workers: int
    grid: int = 0  # the variants of the whole grid (more than ``results`` when --sample chose some)


# ------------------------------------------------------------------ the pieces
def prepare(data, vary: list[str], players: int, rules: dict, bots: str | None, expansions=None,
            sample: int | None = None, seed: int = 1, base: bool = False):
    """``(spec, axes, variants)``: every ``--vary`` spec checked and every variant compiled; nothing played.
    With ``base`` the deck and options as they are come first when the grid does not hold them."""
    spec = get_spec(data)
    data = with_expansions(data, expansions)
    if not vary:
        raise CommandLineError("give at least one --vary, e.g. --vary count:ID=1..4 or --vary rule:KEY=a,b")
    if not spec.min_players <= players <= spec.max_players:
        raise CommandLineError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {players}")
    axes = [parse_vary(text, data, spec, players) for text in vary]
    points = grid(axes, sample, seed)
    variants = make_variants(data, spec, axes, points, players, rules, bots)
    if base and not any(v.current for v in variants):
        as_is = make_variants(data, spec, [], [()], players, rules, bots)[0]
        variants.insert(0, as_is)
        for i, v in enumerate(variants):
            v.index = i
    compile_variants(variants, spec)
    return spec, axes, variants


def light_thresholds(th: Thresholds, spec) -> Thresholds:
    """The thresholds for many variants: the engine's side games (``GameSpec.side_games``) set to 0."""
    bound = th.bind(spec)
    out = Thresholds(copy.deepcopy(bound.values), bound.source, bound.overrides)
    for section, key in getattr(spec, "side_games", ()):
        out.values[section][key] = 0
    return out


def variant_streams(spec, variants: list[Variant], first: int, games: int, master: int, th: Thresholds) \
        -> list[Stream]:
    """Games ``first .. first+games-1`` of every variant as the runner's streams (keyed by variant index)."""
    turn_cap = int(th.get("stalls", "turn_cap"))
    model = time_model(th)
    defaults = spec.options()
    return [Stream(v.index, v.game, "main", master, games,
                   [parse_bots(v.bots or spec.default_bots, v.players, spec)],
                   PlayOptions(turn_cap=turn_cap, replay=replay_args(v.data, v.rules, defaults)), model, first=first)
            for v in variants]  # (one group: the variants take turns, batch by batch)


def play_variants(pool: Pool, spec, variants: list[Variant], first: int, games: int, master: int, th: Thresholds,
                  on_progress: Callable[[int], None] | None = None) -> dict:
    """Games ``first .. first+games-1`` of every variant, through one pipeline: variant index -> Tally."""
    return run_streams(pool, variant_streams(spec, variants, first, games, master, th), on_progress)


def variants_until_sure(pool: Pool, spec, variants: list[Variant], tallies: dict, th: Thresholds, opts,
                        judge=None, on_progress: Callable[[int], None] | None = None, started: float | None = None) \
        -> dict:
    """``--until-sure`` for a sweep or a tune: further looks of each variant whose verdicts (or ``judge``'s
    goals) are not all sure, its first look being ``tallies``; the record of :func:`validator.sure.play_until_sure`
    (``unsure_by``: variant index -> what stayed unsure)."""
    from .sure import play_until_sure, unsure_main

    boxes = {v.index: th.box(v.data.manifest.playtime_minutes) for v in variants}
    first = min(tallies[v.index].games for v in variants)
    streams = variant_streams(spec, variants, 0, first, opts.seed, th)
    judge = judge or (lambda key, tally, conf: unsure_main(tally, th, boxes[key], conf))
    return play_until_sure(pool, streams, tallies, judge, opts.max_games, opts.max_seconds, started, on_progress)


def evaluate(spec, variant: Variant, tally, th: Thresholds, seed: int) -> Evaluated:
    """A variant's summary (the generic figures and the engine's, without skill matrix or drama), headline
    figures and verdicts from its tally."""

    bots = parse_bots(variant.bots or spec.default_bots, variant.players, spec)
    problems = static_problems(spec, variant.data, variant.players)
    rules = spec.options(variant.rules)
    meta = run_record(variant.data, spec, rules, variant.players, tally.games, seed, bots, 0,
                      int(th.get("stalls", "turn_cap")), False, th, None)
    summary = summarize(variant.game, spec, tally, {}, problems, meta, th, variant.data.manifest.playtime_minutes)
    return Evaluated(variant, tally, summary, judged(summary, th, spec), summary["headline"])


# ------------------------------------------------------------------ the run
def run_sweep(data, vary: list[str], opts: SweepOptions, progress: Callable[[int, int], None] | None = None) \
        -> SweepResult:
    """Play every variant ``opts.games`` games on the same seeds and write the sweep folder."""
    started = time.perf_counter()
    if opts.games < 1:
        raise CommandLineError("--games must be 1 or more")
    spec, axes, variants = prepare(data, vary, opts.players, opts.rules, opts.bots, opts.expansions, opts.sample,
                                   opts.seed)
    th = light_thresholds(opts.thresholds, spec)
    total = planned_games(opts, opts.games) * len(variants)
    done = {"n": 0}

    def advance(n: int) -> None:
        done["n"] += n
        if progress:
            progress(done["n"], total)

    sure = None
    plotters = None
    if opts.write:  # (the report's charts: matplotlib is imported while the variants play)
        from .plotters import Plotters

        plotters = Plotters(len(describe(spec)) * len(axes))
    try:
        with Pool(opts.workers, opts.scheduler, opts.connect_timeout, opts.move_timeout) as pool:
            tallies = play_variants(pool, spec, variants, 0, opts.games, opts.seed, th, advance)
            if opts.until_sure:
                sure = variants_until_sure(pool, spec, variants, tallies, th, opts, on_progress=advance,
                                           started=started)
            workers = pool.workers
        results = [evaluate(spec, v, tallies[v.index], th, opts.seed) for v in variants]
        if sure is not None:
            for r in results:
                r.unsure = sure["unsure_by"][r.variant.index]
        files = []
        if opts.write:
            out_dir = Path(opts.out) / data.slug / "sweep"
            record = sweep_record(data, spec, axes, opts)
            from .sweep_report import render_sweep

            texts = {
                out_dir / "sweep.csv": sweep_csv(spec, axes, results),
                out_dir / "sweep.json": json.dumps(sweep_json(record, spec, results), indent=2) + "\n",
                out_dir / "report.html": render_sweep(record, spec, axes, results, plotters),
            }
            files = write_files(texts)
    except BaseException:
        if plotters is not None:
            plotters.abort()
        raise
    return SweepResult(data.slug, data.title, axes, results, files, time.perf_counter() - started, workers,
                       grid_size(axes))


def grid_size(axes: list[Axis]) -> int:
    """The variants of the whole grid of ``axes``."""
    return math.prod(len(a.values) for a in axes)


def sweep_record(data, spec, axes: list[Axis], opts: SweepOptions) -> dict:
    """What the sweep played, for its files: the same record gives the same files, whatever the workers."""
    return {"game": data.slug, "title": data.title, "games": opts.games, "players": opts.players,
            "bots": opts.bots or spec.default_bots, "master_seed": opts.seed, **variants_record(spec, opts),
            "grid": grid_size(axes), "axes": axes_record(axes)}


def variants_record(spec, opts: SweepOptions) -> dict:
    """The settings every variant of a sweep or a tune starts from, for their records."""
    return {"rules_options": {k.replace("_", "-"): v for k, v in spec.options(opts.rules).items()},
            "sample": opts.sample, "expansions": sorted(opts.expansions) if opts.expansions is not None else None,
            "thresholds_source": opts.thresholds.source,
            **({"until_sure": {"max_games": planned_games(opts, opts.games), "max_seconds": opts.max_seconds}}
               if opts.until_sure else {})}


def axes_record(axes: list[Axis]) -> list[dict]:
    """What was varied: each axis's name, values and value as it is."""
    return [{"name": a.name, "values": list(a.labels), "as_is": a.base_label} for a in axes]


def sweep_csv(spec, axes: list[Axis], results: list[Evaluated]) -> str:
    """One row per variant: its values of the varied parameters, whether it is the deck as it is, games, the
    overall verdict, every headline figure with its 95% interval, every check's verdict, and the changes."""
    figures = list(describe(spec))
    checks = check_names(results)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header = ["variant"] + [a.name for a in axes] + ["as_is", "games", "verdict"]
    for k in figures:
        header += [k, f"{k}_low", f"{k}_high"]
    header += [f"verdict:{c}" for c in checks] + ["changes"]
    sure = any(r.unsure is not None for r in results)
    if sure:
        header.append("unsure")
    w.writerow(header)
    for r in results:
        v = r.variant
        row = [v.index + 1] + (list(v.values) or [""] * len(axes)) + ["yes" if v.current else "", r.tally.games, r.status]
        for k in figures:
            f = r.headline.get(k) or {}
            row += ["" if f.get(x) is None else f[x] for x in ("value", "low", "high")]
        status = {x.check: x.status for x in r.verdicts}
        row += [status.get(c, "") for c in checks] + ["; ".join(v.changes)]
        if sure:
            row.append("; ".join(u["check"] for u in r.unsure or ()))
        w.writerow(row)
    return buf.getvalue()


def sweep_json(record: dict, spec, results: list[Evaluated]) -> dict:
    return {"sweep": record, "figures": {k: {"label": lab, "unit": unit} for k, (lab, unit, _) in
                                         describe(spec).items()},
            "variants": [{"variant": r.variant.index + 1, "point": list(r.variant.point), "as_is": r.variant.current,
                          "changes": r.variant.changes, "games": r.tally.games, "verdict": r.status,
                          "headline": r.headline, "verdicts": r.summary["verdicts"],
                          **({} if r.unsure is None else {"unsure": r.unsure})} for r in results]}
