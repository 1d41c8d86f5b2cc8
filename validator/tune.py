"""``pnp tune GAME --goal ... --vary ...``: search the variants for the ones that best meet a goal.

Goals name headline figures (:mod:`validator.figures`) in their own units:
``seat-spread<5`` (points), ``median-minutes=20..30``, ``first-seat-edge<=3``,
``stall-rate<0.1``, ``worst-sips-p95<60``; ``verdicts`` asks for every verdict PASS
(the sample-size warning of the early rounds aside), ``no-fail`` for none FAIL.

The search is successive halving: every variant of the grid (or a ``sample`` of it),
and the deck as it is, plays ``start`` games; the best third (at least ``keep``) play
on, ``eta`` times as many games in all, and so on up to ``games``.  A variant's later
games continue its earlier ones (games ``n .. 3n-1`` after ``0 .. n-1``), and every
variant plays the same game seeds, so variants are compared on the same deals.  A
variant's score is how far its figures' estimates lie outside the goals (each in
units of the goal's own size), then how far the far ends of their 95% intervals do,
then how many changes it needs; a goal is met *surely* when the whole interval lies
inside it, and *by the estimate only* when the estimate does and the interval reaches
outside.  With ``until_sure`` the finalists play on after the last round, in looks of
twice the games (:mod:`validator.sure`), until each goal is surely met or surely missed.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from model.atomic import write_files
from model.errors import CommandLineError

from .figures import describe
from .runner import Pool
from .sweep import (Evaluated, SweepOptions, axes_record, evaluate, light_thresholds, play_variants, prepare,
                     variants_record, variants_until_sure)

_GOAL = re.compile(r"^\s*([a-z0-9][a-z0-9-]*)\s*(<=|>=|<|>|=)\s*(.+?)\s*$")
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
VERDICT_GOALS = {"verdicts": "every verdict PASS", "no-fail": "no verdict FAIL"}
IGNORED_CHECKS = ("sample",)  # the warning that a run is short: every early round has it
UNKNOWN = 1e6  # the distance from a goal of a figure the games could not measure


@dataclass(frozen=True)
class Goal:
    text: str
    key: str
    low: float | None = None
    high: float | None = None

    @property
    def scale(self) -> float:
        """The goal's own size: what one unit of distance from it is."""
        if self.low is not None and self.high is not None and self.high > self.low:
            return self.high - self.low
        bound = self.high if self.high is not None else self.low
        return max(abs(bound or 0.0), 1.0)


def parse_goal(text: str, spec) -> Goal:
    """``seat-spread<5``, ``median-minutes=20..30``, ``verdicts`` ...; a mistake is one line (exit 2)."""
    t = text.strip()
    if t in VERDICT_GOALS:
        return Goal(t, t)
    m = _GOAL.match(t)
    known = list(describe(spec)) + list(VERDICT_GOALS)
    if not m:
        raise CommandLineError(f"--goal {text}: expected FIGURE<X, FIGURE>X, FIGURE=A..B or verdicts, e.g. "
                               "seat-spread<5 or median-minutes=20..30")
    key, op, raw = m.groups()
    if key not in describe(spec):
        import difflib

        close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise CommandLineError(f"--goal {text}: unknown figure '{key}'{hint}; known: {', '.join(known)}")
    if op == "=":
        r = re.fullmatch(rf"({_NUMBER})\s*\.\.\s*({_NUMBER})", raw)
        if not r:
            raise CommandLineError(f"--goal {text}: expected a range such as {key}=20..30")
        lo, hi = float(r.group(1)), float(r.group(2))
        if hi < lo:
            raise CommandLineError(f"--goal {text}: the range {raw} is empty (write the smaller number first)")
        return Goal(t, key, lo, hi)
    if not re.fullmatch(_NUMBER, raw):
        raise CommandLineError(f"--goal {text}: '{raw}' is not a number")
    x = float(raw)
    return Goal(t, key, None, x) if op in ("<", "<=") else Goal(t, key, x, None)


def _outside(x: float, goal: Goal) -> float:
    out = 0.0
    if goal.low is not None and x < goal.low:
        out = goal.low - x
    if goal.high is not None and x > goal.high:
        out = x - goal.high
    return out / goal.scale


def judge_goal(goal: Goal, e: Evaluated) -> dict:
    """How far a variant is from one goal: ``distance`` (its estimate), ``far`` (the farther end of its 95%
    interval), ``met`` (the estimate inside), ``sure`` (the whole interval inside)."""
    if goal.key in VERDICT_GOALS:
        bad = [v for v in e.verdicts if v.check not in IGNORED_CHECKS and
               (v.status == "FAIL" or v.status == "WARN" and goal.key == "verdicts")]
        d = float(sum(2 if v.status == "FAIL" else 1 for v in bad))
        return {"goal": goal.text, "distance": d, "far": d, "met": not bad, "sure": not bad,
                "value": ", ".join(f"{v.check} {v.status}" for v in bad) or "all PASS"}
    f = e.headline.get(goal.key) or {}
    v, lo, hi = f.get("value"), f.get("low"), f.get("high")
    if v is None:
        return {"goal": goal.text, "distance": UNKNOWN, "far": UNKNOWN, "met": False, "sure": False, "value": None}
    lo = v if lo is None else lo
    hi = v if hi is None else hi
    return {"goal": goal.text, "distance": _outside(v, goal), "far": max(_outside(lo, goal), _outside(hi, goal)),
            "met": _outside(v, goal) == 0, "sure": _outside(lo, goal) == 0 and _outside(hi, goal) == 0,
            "value": v, "low": lo, "high": hi}


def score(goals: list[Goal], e: Evaluated) -> tuple:
    judged = [judge_goal(g, e) for g in goals]
    return (round(sum(j["distance"] for j in judged), 6), round(sum(j["far"] for j in judged), 6),
            len(e.variant.changes), e.variant.index), judged


@dataclass
class TuneOptions(SweepOptions):
    """A sweep's options, and the search's: the games a finalist plays (``games``), the games of the first round
    (``start``), the share kept and the growth of the games per round (``eta``) and the finalists (``keep``)."""

    games: int = 2000
    start: int = 200
    eta: int = 3
    keep: int = 3


@dataclass
class Tuned:
    """A variant's last evaluation and how it stands against the goals."""

    evaluated: Evaluated
    score: tuple
    goals: list[dict]
    round: int  # the last round it played in (0: the first)
    unsure: list | None = None  # with --until-sure: the goals still unsure ({"check", "why"}) after its looks

    @property
    def met(self) -> bool:
        return all(g["met"] for g in self.goals)

    @property
    def sure(self) -> bool:
        return all(g["sure"] for g in self.goals)


@dataclass
class TuneResult:
    slug: str
    title: str
    goals: list[Goal]
    axes: list
    ranked: list[Tuned]  # every variant, best first (the finalists first)
    rounds: list[dict]
    files: list[Path]
    seconds: float
    games_played: int
    workers: int

    keep: int = 3

    @property
    def best(self) -> list[Tuned]:
        """The finalists, best first (the deck as it is among them when it ranks there)."""
        last = self.rounds[-1]["variants"]
        return [t for t in self.ranked if t.evaluated.variant.index in last][:self.keep] or self.ranked[:1]

    @property
    def as_is(self) -> Tuned | None:
        return next((t for t in self.ranked if t.evaluated.variant.current), None)


def tune(data, vary: list[str], goal_texts: list[str], opts: TuneOptions,
         progress: Callable[[int, int], None] | None = None) -> TuneResult:
    started = time.perf_counter()
    from validator.kit import get_spec

    spec = get_spec(data)  # the goals are checked before any variant is compiled
    if not goal_texts:
        raise CommandLineError("give at least one --goal, e.g. --goal seat-spread<5 or --goal verdicts")
    goals = [parse_goal(t, spec) for t in goal_texts]
    if opts.start < 1 or opts.games < opts.start:
        raise CommandLineError(f"--games {opts.games} must be at least --start-games {opts.start} (and both 1 or "
                               "more)")
    if opts.eta < 2:
        raise CommandLineError("--eta must be 2 or more")
    spec, axes, variants = prepare(data, vary, opts.players, opts.rules, opts.bots, opts.expansions, opts.sample,
                                   opts.seed, base=True)
    th = light_thresholds(opts.thresholds, spec)
    plan = _plan(len(variants), opts)
    total = sum(n_games * alive for n_games, alive in plan)
    done = {"n": 0}

    def advance(n: int) -> None:
        done["n"] += n
        if progress:
            progress(done["n"], total)

    tallies: dict[int, object] = {}
    last: dict[int, Tuned] = {}
    rounds = []
    alive = list(variants)
    played = 0
    with Pool(opts.workers, opts.scheduler, opts.connect_timeout, opts.move_timeout) as pool:
        workers = pool.workers
        if opts.write:
            from .plotters import warm

            warm()  # (the report's charts: matplotlib is imported while the variants play)
        for r, (n, _) in enumerate(plan):
            fresh = play_variants(pool, spec, alive, played, n - played, opts.seed, th, advance)
            for v in alive:
                if v.index in tallies:
                    tallies[v.index].merge(fresh[v.index])
                else:
                    tallies[v.index] = fresh[v.index]
                e = evaluate(spec, v, tallies[v.index], th, opts.seed)
                key, judged = score(goals, e)
                last[v.index] = Tuned(e, key, judged, r)
            ranked = sorted(alive, key=lambda v: last[v.index].score)
            rounds.append({"round": r + 1, "games": n, "variants": [v.index for v in ranked]})
            if r + 1 < len(plan):
                keep = plan[r + 1][1]
                base = [v for v in ranked if v.current]
                chosen = [v for v in ranked if not v.current][:keep - len(base)]
                alive = sorted(base + chosen, key=lambda v: v.index)
            played = n
        if opts.until_sure:
            sure = variants_until_sure(pool, spec, alive, tallies, th, opts, _goals_judge(goals, spec, th),
                                       advance, started)
            texts = {g.text for g in goals}
            for v in alive:
                e = evaluate(spec, v, tallies[v.index], th, opts.seed)
                key, judged = score(goals, e)
                unsure = sure["unsure_by"][v.index]
                for j in judged:  # surely met only at the looks' confidence (a verdict goal: its checks sure)
                    j["sure"] = j["sure"] and not any(u["check"] == j["goal"] or (j["goal"] in VERDICT_GOALS and
                                                                                 u["check"] not in texts)
                                                      for u in unsure)
                last[v.index] = Tuned(e, key, judged, len(plan) - 1, unsure)
    ranked_all = sorted(last.values(), key=lambda t: (-t.round, t.score))
    files = []
    result = TuneResult(data.slug, data.title, goals, axes, ranked_all, rounds, files, 0.0, done["n"], workers,
                        opts.keep)
    if opts.write:
        from .sweep_report import render_tune

        out_dir = Path(opts.out) / data.slug / "tune"
        record = tune_record(data, spec, axes, goals, opts, plan)
        result.files = write_files({out_dir / "tune.csv": tune_csv(axes, goals, result),
                                    out_dir / "tune.json": json.dumps(tune_json(record, result), indent=2) + "\n",
                                    out_dir / "report.html": render_tune(record, spec, result)})
    result.seconds = time.perf_counter() - started
    return result


def _goals_judge(goals: list[Goal], spec, th):
    """What ``--until-sure`` waits for in a finalist: each goal surely met or surely missed (the figure's
    interval, at the look's confidence, wholly inside or wholly outside it); a verdict goal, its verdicts'
    figures sure."""
    from .figures import headline
    from .sure import unsure_main

    def judge(key, tally, conf):
        out = []
        figures = headline(tally, spec, conf)
        if any(g.key in VERDICT_GOALS for g in goals):
            out += unsure_main(tally, th, None, conf)
        for g in goals:
            f = figures.get(g.key) or {}
            if g.key in VERDICT_GOALS or f.get("value") is None:
                continue
            low, high = f["low"], f["high"]
            met = _outside(low, g) == 0 and _outside(high, g) == 0
            missed = (g.high is not None and low > g.high) or (g.low is not None and high < g.low)
            if not (met or missed):
                out.append({"check": g.text, "why": f"{g.key}'s interval {f['low']:.2f} to {f['high']:.2f} at "
                                                    f"{conf * 100:.1f}% confidence reaches both inside and outside "
                                                    "the goal"})
        return out

    return judge


def _plan(n: int, opts: TuneOptions) -> list[tuple[int, int]]:
    """The rounds: (games each variant has played by its end, variants playing it).  A round keeps a third
    (1/eta) of the variants, never fewer than ``keep`` (plus the deck as it is), until the finalists play
    ``games``."""
    plan = []
    games, alive = opts.start, n
    while True:
        plan.append((games, alive))
        if games >= opts.games:
            break
        alive = max(min(alive, opts.keep + 1), math.ceil(alive / opts.eta))
        games = min(opts.games, games * opts.eta)
    return plan


def tune_record(data, spec, axes, goals, opts: TuneOptions, plan) -> dict:
    return {"game": data.slug, "title": data.title, "players": opts.players, "bots": opts.bots or spec.default_bots,
            "master_seed": opts.seed, "games": opts.games, "start": opts.start, "eta": opts.eta, "keep": opts.keep,
            **variants_record(spec, opts), "goals": [g.text for g in goals],
            "plan": [{"games": g, "variants": n} for g, n in plan], "axes": axes_record(axes)}


def tune_csv(axes, goals: list[Goal], result: TuneResult) -> str:
    import csv
    import io

    keys = list(dict.fromkeys(g.key for g in goals if g.key not in VERDICT_GOALS))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "variant"] + [a.name for a in axes] + ["as_is", "round", "games", "distance", "met", "sure",
                                                               "verdict"]
               + [x for k in keys for x in (k, f"{k}_low", f"{k}_high")] + ["changes"])
    for rank, t in enumerate(result.ranked, 1):
        v = t.evaluated.variant
        row = [rank, v.index + 1] + (list(v.values) or [""] * len(axes)) + ["yes" if v.current else "", t.round + 1, t.evaluated.tally.games,
                                              t.score[0], "yes" if t.met else "", "yes" if t.sure else "",
                                              t.evaluated.status]
        for k in keys:
            f = t.evaluated.headline.get(k) or {}
            row += ["" if f.get(x) is None else f[x] for x in ("value", "low", "high")]
        w.writerow(row + ["; ".join(v.changes)])
    return buf.getvalue()


def tune_json(record: dict, result: TuneResult) -> dict:
    return {"tune": record, "rounds": [{**r, "variants": [i + 1 for i in r["variants"]]} for r in result.rounds],
            "ranked": [{"variant": t.evaluated.variant.index + 1, "point": list(t.evaluated.variant.point),
                        "as_is": t.evaluated.variant.current, "changes": t.evaluated.variant.changes,
                        "round": t.round + 1, "games": t.evaluated.tally.games, "met": t.met, "sure": t.sure,
                        "goals": t.goals, "verdict": t.evaluated.status, "headline": t.evaluated.headline}
                       for t in result.ranked]}
