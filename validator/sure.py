"""``--until-sure``: play in batches until every verdict is sure, or the budget is spent.

A verdict is *sure* when the interval of the figure behind it lies inside one band of its
thresholds (PASS, WARN or FAIL), so that the truth cannot be on the other side of a threshold
unless the interval misses it.  The games come in *looks* planned before the first game: the
games asked for (``--games``), then twice as many, four times ... up to ``--max-games``.  Looking
K times at one verdict gives it K chances to be called sure on the wrong side, so the 5% error is
spent over the planned looks (Bonferroni's alpha spending: 5%/K per look, whatever look the run
stops at), and every look's intervals are at confidence 1 - 0.05/K: the chance that any look
calls a verdict sure on the wrong side stays under 5%.

Only the checks a headline figure measures can be waited for (game length, seat balance - of
every player count played -, ties, stalls, decisions); the skill matrix plays its own fixed games
(``--skill-games``), and an engine's own verdicts have no interval: the record says so rather
than playing for them.  The games played depend only on the counts the looks see, so the same
seed gives the same games and verdicts for any worker count or a Dask cluster; a ``--max-seconds``
budget is the one exception (how many looks fit depends on the machine's speed).

:func:`plan` and :func:`level` set the looks; :func:`unsure_main` and :func:`unsure_seats` say which
checks a tally leaves unsure; :func:`play_until_sure` plays the looks on the runner's streams.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable

from .figures import quantile_interval, spread_interval, win_sets, z_two
from validator.kit.stats import wilson
from .runner import Pool, Stream, run_streams
from .thresholds import Thresholds, above

ALPHA = 0.05  # the error every verdict's sureness may spend over all its looks
GROWTH = 2  # each look plays up to this many times the games of the one before
MAX_FACTOR = 32  # --max-games by default: this many times --games
WAITED = ("game length", "seat balance", "ties", "stalls", "decisions")  # the checks a figure's interval settles


def plan(first: int, most: int | None = None) -> list[int]:
    """The games played by the end of each look: ``first``, then doubling, the last one ``most`` (by
    default :data:`MAX_FACTOR` times ``first``)."""
    most = max(first, most or first * MAX_FACTOR)
    looks = [first]
    while looks[-1] < most:
        looks.append(min(most, looks[-1] * GROWTH))
    return looks


def level(looks: list[int]) -> float:
    """The confidence of every look's intervals: 1 - ALPHA / (planned looks)."""
    return 1 - ALPHA / len(looks)


def _unsure(check: str, low: float, high: float, edges: list[float], what: str, unit: str, scale: float,
            conf: float) -> dict | None:
    crossed = [e for e in edges if above(low, e) != above(high, e)]
    if not crossed:
        return None
    return {"check": check, "why": f"{what} {low * scale:.1f} to {high * scale:.1f}{unit} at {conf * 100:.1f}% "
                                   "confidence reaches both sides of "
                                   + ", ".join(f"{round(e * scale, 6):g}{unit}" for e in crossed)}


def unsure_main(t, th: Thresholds, box: tuple[float, float] | None, conf: float) -> list[dict]:
    """The checks of a main run's tally whose figure's interval (at ``conf``) reaches across a threshold:
    ``{"check", "why"}`` each."""
    out = []
    z = z_two(conf)
    if box and t.games:
        f = th.get("length", "fail_factor")
        _, lo, hi = quantile_interval(t.tenths, 0.5, conf)
        edges = [box[0] * (1 - f) * 10 - 1e-8, box[0] * 10 - 1e-8, box[1] * 10, box[1] * (1 + f) * 10]  # (tenths;
        # a median on the box's lower end is inside it)
        out.append(_unsure("game length", lo, hi, edges, "the median's interval", " min", 0.1, conf))
    out.extend(unsure_seats(t, th, conf))
    n = t.games
    if n:
        stalls = sum(t.ends[k] for k in t.stalls)
        for check, k, warn, fail, what in (
                ("ties", t.ties, th.get("balance", "tie_rate_warn"), th.get("balance", "tie_rate_fail"),
                 "the tie rate's interval"),
                ("stalls", stalls, th.get("stalls", "stall_rate_warn"), th.get("stalls", "stall_rate_fail"),
                 "the stall rate's interval")):
            lo, hi = wilson(k, n, z)
            out.append(_unsure(check, lo, hi, [warn, fail], what, "%", 100, conf))
    if t.turns_total:
        lo, hi = wilson(t.turns_with_choice, t.turns_total, z)
        warn = th.get("richness", "choice_share_warn")
        edges = [warn - 1e-8]  # a share at the threshold passes
        out.append(_unsure("decisions", lo, hi, edges, "the share of turns with a choice", "%", 100, conf))
    return [u for u in out if u]


def unsure_seats(t, th: Thresholds, conf: float, check: str = "seat balance") -> list[dict]:
    """The seat balance of a tally, when its spread's interval (at ``conf``) reaches across a threshold."""
    players = t.players or len(t.seat_games)
    if not t.games or players < 2:
        return []
    _, lo, hi = spread_interval(win_sets(t), players, conf)
    edges = [th.get("balance", "seat_spread_warn"), th.get("balance", "seat_spread_fail")]
    u = _unsure(check, lo, hi, edges, "the spread's interval", " points", 100, conf)
    return [u] if u else []


def play_until_sure(pool: Pool, streams: list[Stream], tallies: dict, judge: Callable[[object, object, float], list],
                    most: int | None = None, seconds: float | None = None, started: float | None = None,
                    on_progress: Callable[[int], None] | None = None) -> dict:
    """Play further looks of ``streams`` (whose first look, ``stream.games`` games, is in ``tallies``, which
    grow) until ``judge(key, tally, conf)`` finds nothing unsure in any of them, the looks planned up to
    ``most`` games are played, or ``seconds`` since ``started`` would be passed by the next look.

    Returns the record: the looks, their confidence, each stream's games, why it stopped and what stayed
    unsure (``{"check", "why"}``)."""
    started = time.perf_counter() if started is None else started
    looks = {st.key: plan(st.games, most) for st in streams}
    conf = {key: level(v) for key, v in looks.items()}
    unsure = {st.key: judge(st.key, tallies[st.key], conf[st.key]) for st in streams}
    stopped = "sure"
    k = 0
    # (seconds, games) of the last look, how long the next one may take: at first, the run so far
    last = (time.perf_counter() - started, sum(tallies[st.key].games for st in streams))
    while any(unsure.values()):
        more = [st for st in streams if unsure[st.key] and k + 1 < len(looks[st.key])]
        if not more:
            stopped = "max-games"
            break
        extra = sum(looks[st.key][k + 1] - looks[st.key][k] for st in more)
        if seconds is not None and time.perf_counter() - started + last[0] * extra / max(1, last[1]) > seconds:
            stopped = "max-seconds"
            break
        t0 = time.perf_counter()
        fresh = run_streams(pool, [replace(st, first=looks[st.key][k], games=looks[st.key][k + 1] - looks[st.key][k])
                                   for st in more], on_progress)
        last = (time.perf_counter() - t0, extra)
        for st in more:
            tallies[st.key].merge(fresh[st.key])
            unsure[st.key] = judge(st.key, tallies[st.key], conf[st.key])
        k += 1
        if seconds is not None and time.perf_counter() - started > seconds and any(unsure.values()):
            stopped = "max-seconds"
            break
    return {"looks": {_key(key): v for key, v in looks.items()}, "level": {_key(key): round(c, 5)
                                                                            for key, c in conf.items()},
            "games": {_key(st.key): tallies[st.key].games for st in streams}, "stopped": stopped,
            "unsure": [u for st in streams for u in unsure[st.key]],
            "unsure_by": {st.key: unsure[st.key] for st in streams}}


def _key(key) -> str:
    return ":".join(map(str, key)) if isinstance(key, tuple) else str(key)


def not_waited_for(verdicts, waited: set[str]) -> list[dict]:
    """The verdicts more main games cannot settle, with why: the skill matrix (its own fixed games) and the
    checks no headline figure measures (an engine's own); the static and sample checks need no interval."""
    out = []
    for v in verdicts:
        if v.check in waited or v.check in ("static checks", "sample") or v.check.startswith("seat balance"):
            continue
        why = ("the skill matrix plays its own games, as many as --skill-games says" if v.check == "skill"
               else "no headline figure gives it an interval")
        out.append({"check": v.check, "why": why})
    return out


def lines(summary: dict) -> list[str]:
    """What ``--until-sure`` did, for the terminal and the report: the games it took, the verdicts that stayed
    unsure (with why) and those it did not wait for."""
    sure = summary.get("until_sure")
    if not sure:
        return []
    games = " and ".join(f"{n:,}" for n in dict.fromkeys(sure["games"].values()))
    looks = max(len(v) for v in sure["looks"].values())
    conf = min(sure["level"].values()) * 100
    if sure["stopped"] == "sure":
        out = [f"until sure: every verdict an interval can settle is sure after {games} games ({looks} looks "
               f"planned, each at {conf:.1f}% confidence: 5% error over all of them)"]
    else:
        budget = {"max-games": "the --max-games budget",
                  "max-seconds": "the --max-seconds budget (the one result that depends on the machine's speed)"}
        out = [f"until sure: stopped by {budget[sure['stopped']]} after {games} games; still unsure:"]
        out += [f"  {u['check']}: {u['why']}" for u in sure["unsure"]]
    if sure["not_waited_for"]:
        out.append("not waited for: " + "; ".join(f"{u['check']}: {u['why']}" for u in sure["not_waited_for"]))
    return out


__all__ = ["lines", "ALPHA", "plan", "level", "unsure_main", "unsure_seats", "play_until_sure", "not_waited_for", "WAITED"]
