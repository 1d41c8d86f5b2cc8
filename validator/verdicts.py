"""The verdicts of a validation: each summary figure judged against its thresholds (PASS, WARN, FAIL)."""

from __future__ import annotations

from validator.kit import Verdict
from validator.kit.stats import diff_interval

from .figures import share_intervals, spread_interval
from .summary import outcome_sets
from .thresholds import Thresholds, above, below

PASS, WARN, FAIL = "PASS", "WARN", "FAIL"
RANK = {PASS: 0, WARN: 1, FAIL: 2}


def worst(statuses) -> str:
    out = PASS
    for s in statuses:
        if RANK[s] > RANK[out]:
            out = s
    return out


def judge(s: dict, th: Thresholds, spec=None) -> list[Verdict]:
    """PASS/WARN/FAIL lines: the generic checks, the engine's (``GameSpec.verdicts``)
    after the stall check, then skill and decisions.  A WARN follows the point
    estimate; a FAIL needs 95% confidence (the interval itself beyond the
    threshold), so a small run warns rather than fails on noise."""
    out: list[Verdict] = []
    games = s["run"]["games"]
    errors = [p for p in s["static"] if p["severity"] == "error"]
    warnings = [p for p in s["static"] if p["severity"] != "error"]
    if errors:
        n = len(errors)
        out.append(Verdict(FAIL, "static checks", f"{n} error{'s' if n != 1 else ''} in the deck, first: "
                                                  f"{errors[0]['where']}: {errors[0]['message']}"))
    elif warnings:
        n = len(warnings)
        out.append(Verdict(WARN, "static checks", f"{n} warning{'s' if n != 1 else ''}, first: "
                                                  f"{warnings[0]['where']}: {warnings[0]['message']}"))
    else:
        out.append(Verdict(PASS, "static checks", "counts, distributions and conditions are consistent"))

    least = int(th.get("sample", "min_games"))
    if games < least:
        out.append(Verdict(WARN, "sample", f"{games} games are few: intervals are wide and rare events unseen; run "
                                           f"--games {least} or more for firm verdicts"))

    med = s["length"]["minutes"]["median"]
    box = s["length"]["box_minutes"]
    if box and med is not None:
        f = th.get("length", "fail_factor")
        lo, hi = box
        m = s["length"]["minutes"]
        text = f"median {med:.1f} min (5-95%: {m['p5']:.0f}-{m['p95']:.0f}) against the box's {lo:g}-{hi:g} min"
        if not below(med, lo) and not above(med, hi):
            out.append(Verdict(PASS, "game length", text))
        elif not below(med, lo * (1 - f)) and not above(med, hi * (1 + f)):
            out.append(Verdict(WARN, "game length", text))
        else:
            out.append(Verdict(FAIL, "game length", text + f" (beyond {lo * (1 - f):g}-{hi * (1 + f):g})"))

    seats = s["outcome"]["seats"]
    spread = s["outcome"]["seat_spread"]
    if spread is not None and all(r["rate"] is not None for r in seats):
        out.append(_seat_balance(s["outcome"], th))
    for block in s.get("players") or ():  # the further player counts of --players 2,3,4
        if block["players"] != len(seats) and block["games"]:
            v = _seat_balance(block, th, f"seat balance, {block['players']} players")
            out.append(Verdict(v.status, v.check, f"{block['games']:,} games; {v.message}"))
    ties = s["outcome"]["ties"]
    warn, fail = th.get("balance", "tie_rate_warn"), th.get("balance", "tie_rate_fail")
    out.append(Verdict(FAIL if above(ties["low"], fail) else WARN if above(_share(ties), warn) else PASS, "ties",
                       f"{ties['rate'] * 100:.1f}% of games end in a tie"))
    stall = s["outcome"]["stalls"]
    warn, fail = th.get("stalls", "stall_rate_warn"), th.get("stalls", "stall_rate_fail")
    stopped = f"{stall['count']} game{'s' if stall['count'] != 1 else ''}"
    out.append(Verdict(FAIL if above(_share(stall), fail) else WARN if above(_share(stall), warn) else PASS, "stalls",
                       f"{stopped} stopped without a result ({stall['rate'] * 100:.2f}%: turn cap, loops, stuck "
                       "positions)"))
    if spec is not None and spec.verdicts is not None:
        for v in spec.verdicts(s, th):
            out.append(v if isinstance(v, Verdict) else
                       Verdict(**v) if isinstance(v, dict) else Verdict(v.status, v.check, v.message))
    m = s["skill"]["matrix"]
    names = s["skill"]["bots"]
    if len(names) >= 2 and names[0] in m.get(names[1], {}):
        weak, strong = names[0], names[1]
        g, r = m[strong][weak], m[weak][strong]
        gap = _share(g) - _share(r)
        need = th.get("skill", "skill_gap_warn")
        _, low, high = diff_interval(g["count"], g["of"], r["count"], r["of"])
        line = (f"{strong} wins {g['rate'] * 100:.0f}% of its seats against {weak}'s {r['rate'] * 100:.0f}% "
                f"(the difference {low * 100:+.1f} to {high * 100:+.1f} points, 95%, over {g['games']:,} games)")
        if len(names) >= 3 and strong in m.get(names[2], {}):
            sg, gs = m[names[2]][strong], m[strong][names[2]]
            line += f"; {names[2]} {sg['rate'] * 100:.0f}% against {strong}'s {gs['rate'] * 100:.0f}%"
        if not above(gap, need):  # the gap a designer asks for is not there: for sure, or too few games to tell
            line += (": luck dominates" if not above(high, need) else
                     f": too few games to tell whether the gap reaches {need * 100:.0f} points; "
                     "raise --skill-games")
        out.append(Verdict(PASS if above(gap, need) else WARN, "skill", line))
    ri = s["skill"]["richness"]
    turns = ri["turns_with_choice"]
    if turns["rate"] is not None:
        out.append(Verdict(WARN if below(_share(turns), th.get("richness", "choice_share_warn")) else PASS,
                           "decisions", richness_text(ri)))
    return out


def _share(r: dict) -> float:
    """A rate block's share from its counts (exact), or its rounded rate when it has none."""
    return r["count"] / r["of"] if r.get("of") else (r.get("rate") or 0.0)


def judged(summary: dict, th: Thresholds, spec) -> list[Verdict]:
    """The summary's verdicts (:func:`judge`), kept in it too: its overall ``verdict`` and its ``verdicts``."""
    verdicts = judge(summary, th, spec)
    summary["verdict"] = worst(v.status for v in verdicts)
    summary["verdicts"] = [v.as_dict() for v in verdicts]
    return verdicts


def richness_text(ri: dict) -> str:
    """Decision richness in one sentence: per turn (a turn with at least one real choice) and per decision
    (a choice or forced), so the two shares read together."""
    turns = ri["turns_with_choice"]
    text = f"{turns['rate'] * 100:.0f}% of turns hold at least one real choice (two or more legal actions)"
    forced = ri.get("forced_share")
    if forced is not None and ri.get("decisions"):
        text += (f"; of the {ri['decisions']:,} decisions, {(1 - forced) * 100:.1f}% offered a choice and "
                 f"{forced * 100:.1f}% were forced (a single legal action)")
    if ri.get("legal_actions_mean") is not None:
        text += f"; {ri['legal_actions_mean']:.1f} legal actions per decision on average"
    return text


def _seat_balance(block: dict, th: Thresholds, check: str = "seat balance") -> Verdict:
    """Seat balance: each seat's share of the wins (a shared win split evenly) and the spread between the best
    and the worst seat, with an interval for the true spread that allows for having picked those two seats
    after seeing the games (``figures.spread_interval``).  A WARN follows the estimate; a FAIL needs the
    interval's lower end above the FAIL threshold; a WARN says whether the interval rules out even seats and
    whether it stays above the warning."""
    warn, fail = th.get("balance", "seat_spread_warn"), th.get("balance", "seat_spread_fail")
    sets, players = outcome_sets(block)
    shares = share_intervals(sets, players)
    spread, low, high = spread_interval(sets, players)
    best = max(range(players), key=lambda i: shares[i][0])
    worst = min(range(players), key=lambda i: shares[i][0])
    text = (f"share of the wins by seat {', '.join(f'{v * 100:.1f}%' for v, _, _ in shares)}: spread "
            f"{spread * 100:.1f} points between seat {best + 1} and seat {worst + 1} (95% interval "
            f"{low * 100:.1f} to {high * 100:.1f})")
    status = FAIL if above(low, fail) else WARN if above(spread, warn) else PASS
    if status == WARN and low <= 0:
        text += (f"; above the {warn * 100:g}-point warning, but the interval does not rule out even seats: "
                 "more games will tell")
    elif status == WARN and not above(low, warn):
        text += (f"; above the {warn * 100:g}-point warning: the seats are uneven, and whether by more than "
                 f"{warn * 100:g} points more games will tell")
    elif status == WARN:
        text += f"; above the {warn * 100:g}-point warning with 95% confidence"
    elif status == FAIL:
        text += f"; above {fail * 100:g} points with 95% confidence"
    return Verdict(status, check, text)


# ------------------------------------------------------------------ replay
