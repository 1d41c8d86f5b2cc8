"""summary.json's figures from a run's tallies: the seats (shares of the wins, spread, the start
player's edge, per player count), length, ends, skill, drama and the engine's own blocks."""

from __future__ import annotations

from model.errors import Problem
from validator.kit.stats import rate as _rate
from validator.kit.stats import rounded

from .bots import known_bots
from .figures import edge_interval, headline, share_intervals, spread_interval, win_sets
from .metrics import Tally, hist_summary
from .thresholds import Thresholds

SKILL_BOTS = ("random", "greedy", "search")


def players_summary(tallies: dict) -> list[dict]:
    """Seat balance per player count: each seat's win rate and share of the wins, the spread between the best
    and the worst seat and the start player's edge over the mean seat, with 95% intervals."""
    out = []
    for n in sorted(tallies):
        t = tallies[n]
        sets = win_sets(t)
        block = {"players": n, "games": t.games, **seat_block(t, n, sets)}
        edge = edge_interval(sets, n) if t.games else None
        block["first_edge"] = None if edge is None else dict(zip(("value", "low", "high"), map(rounded, edge)))
        out.append(block)
    return out


def seat_block(t: Tally, players: int, sets: dict[int, int]) -> dict:
    """Each seat's win rate (a shared win counts for each winner) and share of the wins (a shared win split
    evenly, with its interval), the mean seat's share, the spread of the shares with its interval, and the
    games' winning-seat sets (what the intervals are computed from)."""
    seats = []
    shares = share_intervals(sets, players)
    for s in range(players):
        r = _rate(t.seat_wins[s], t.seat_games[s])
        r["seat"] = s + 1
        r["solo_wins"] = t.seat_solo[s]
        r["share"] = dict(zip(("value", "low", "high"), map(rounded, shares[s])))
        seats.append(r)
    spread = spread_interval(sets, players) if t.games else (None, None, None)
    decided = t.games - sets.get(0, 0)
    return {"seats": seats,
            "seat_spread": rounded(spread[0]),
            "seat_spread_interval": [rounded(spread[1]), rounded(spread[2])],
            "fair_share": round(decided / (t.games * players), 4) if t.games else round(1 / players, 4),
            "win_sets": [{"seats": [s + 1 for s in range(players) if mask >> s & 1], "games": sets[mask]}
                         for mask in sorted(sets)]}


def outcome_sets(block: dict) -> tuple[dict[int, int], int]:
    """The winning-seat sets and the players of a summary's seat block (``outcome``, or a ``players`` row);
    a summary made before they were kept gives them from its seats' counts."""
    from .figures import sets_from_seats

    seats = block["seats"]
    if "win_sets" in block:
        return {sum(1 << (x - 1) for x in row["seats"]): row["games"] for row in block["win_sets"]}, len(seats)
    return sets_from_seats([r["count"] for r in seats], seats[0]["of"] if seats else 0), len(seats)


def skill_bots(spec) -> tuple[str, ...]:
    """The bots of the skill matrix, weakest first: the spec's (random, greedy and search
    unless the engine names its own), those the engine can play."""
    known = known_bots(spec)
    return tuple(b for b in getattr(spec, "skill_bots", SKILL_BOTS) if b in known)


def pairs_of(names):
    return [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]


def pair_patterns(a: str, b: str, players: int) -> list[tuple]:
    """Alternating seats, swapped every other game: A B A B / B A B A."""
    one = tuple(a if p % 2 == 0 else b for p in range(players))
    two = tuple(b if p % 2 == 0 else a for p in range(players))
    return [one, two]


def summarize(game, spec, t: Tally, skill: dict, problems: list[Problem], meta: dict, th: Thresholds,
              playtime: tuple[float, float] | None, studies: list[dict] = ()) -> dict:
    """summary.json: the generic blocks from the tallies, the engine's stats
    extension's blocks (``GameSpec.stats``) and what its studies found (``studies``: each one's keys), the
    counters it declares.  ``playtime``: the box's playing time as the manifest was read
    (``Manifest.playtime_minutes``)."""
    n_games = t.games
    players = meta["players"]
    box = th.box(playtime)
    length = {
        "turns": hist_summary(t.turns),
        "rounds": hist_summary(t.rounds),
        "actions": hist_summary(t.actions),
        "minutes": hist_summary(t.tenths, 0.1),
        "box_minutes": list(box) if box else None,
        "turns_histogram": {str(k): v for k, v in sorted(t.turns.items())},
        "minutes_histogram": {f"{k / 10:.1f}": v for k, v in sorted(t.tenths.items())},
    }
    if box:
        inside = sum(c for k, c in t.tenths.items() if box[0] <= k / 10 <= box[1])
        length["inside_box"] = _rate(inside, n_games)
    stall_reasons = tuple(spec.stalls)
    stalls = sum(t.ends[k] for k in stall_reasons)
    outcome = {
        **seat_block(t, players, win_sets(t)),
        "ties": _rate(t.ties, n_games),
        "completed": _rate(n_games - stalls, n_games),
        "turn_cap": _rate(t.ends["turn-cap"], n_games),
        "stalls": _rate(stalls, n_games),
        "ends": {k: {"count": t.ends[k], "rate": round(t.ends[k] / n_games, 4), "label": spec.end_reasons.get(k, k)}
                 for k in spec.end_reasons if t.ends[k] or k not in stall_reasons},
        "eliminations": {k: {"count": t.elim[k], "per_game": round(t.elim[k] / n_games, 4),
                             "mean_turn": round(t.elim_turns[k] / t.elim[k], 2) if t.elim[k] else None,
                             "label": spec.elimination_causes.get(k, k),
                             "by_seat": [t.elim_seat[(k, s)] for s in range(players)]}
                         for k in spec.elimination_causes},
    }
    matrix = {}
    for (a, b), st in skill.items():
        for x, y in ((a, b), (b, a)):
            r = _rate(st.bot_wins[x], st.bot_seats[x])
            r["games"] = st.games
            matrix.setdefault(x, {})[y] = r
    richness = {
        "decisions": t.decisions,
        "legal_actions_mean": round(t.legal_sum / t.decisions, 3) if t.decisions else None,
        "forced_share": round(1 - t.choices / t.decisions, 4) if t.decisions else None,
        "turns_with_choice": _rate(t.turns_with_choice, t.turns_total),
    }
    failures = []
    sources = [("main", t, lambda i: tuple(meta["bots"]))]
    for (a, b), st in skill.items():
        patterns = pair_patterns(a, b, players)
        sources.append((f"skill {a} vs {b}", st, lambda i, patterns=patterns: patterns[i % len(patterns)]))
    for stream, tally, bots_of in sources:
        for kind, (count, examples) in sorted(tally.failures.items()):
            failures.append({"kind": kind, "count": count, "label": spec.end_reasons.get(kind, kind),
                             "stream": stream,
                             "examples": [{"game": i, "seed": s, "bots": _bots_arg(bots_of(i))}
                                          for i, s in examples]})
    static = [{"severity": p.severity, "where": _where(p), "message": p.message} for p in problems]
    summary = {
        "run": meta,
        "static": static,
        "length": length,
        "outcome": outcome,
        "drama": drama_summary(t, spec),
    }
    for found in ([t.ext.summarize(game, t, th)] if t.ext is not None else []) + list(studies):
        for key, value in found.items():
            if isinstance(summary.get(key), dict) and isinstance(value, dict):
                summary[key].update(value)  # figures added to a generic block (or to the engine's own)
            else:
                summary[key] = value
    summary["counts"] = {k: t.counts[k] for k in sorted(set(spec.counters) | set(t.counts))}
    if spec.per_player:
        summary["per_player"] = {
            name: {"label": label, "total": sum(t.per_player.get(name, {}).values()),
                   "per_game": round(sum(t.per_player.get(name, {}).values()) / n_games, 4),
                   "by_seat": [t.per_player.get(name, {}).get(s, 0) for s in range(players)]}
            for name, label in spec.per_player.items()}
    summary["skill"] = {"matrix": matrix, "bots": list(skill_bots(spec)), "richness": richness}
    summary["failures"] = failures
    summary["headline"] = headline(t, spec)
    return summary


def drama_summary(t: Tally, spec) -> dict | None:
    """Lead changes, comebacks and when games were decided (see metrics.game_quality),
    over the games that read their standings (the first ``DRAMA_GAMES`` of the
    run); None when the rules engine reports no standings."""
    if not t.q_games:
        return None
    n = t.q_decisive
    return {
        "standing": spec.standing,
        "games": t.q_games,
        "sample": f"the first {t.q_games:,} of {t.games:,} games" if t.q_games < t.games else "every game",
        "lead_changes": {
            **hist_summary(t.q_lead_changes),
            "games_with_a_change": _rate(t.q_games - t.q_lead_changes[0], t.q_games),
            "per_round": round(sum(k * c for k, c in t.q_lead_changes.items()) / t.q_transitions, 4)
            if t.q_transitions else None,
            "histogram": {str(k): v for k, v in sorted(t.q_lead_changes.items())},
        },
        "games_with_one_winner": n,
        "comebacks": {
            "winner_behind": _rate(t.q_behind_games, n),
            "rounds_behind_share": round(t.q_behind_rows / t.q_rows, 4) if t.q_rows else None,
            "winner_worst_place": {str(k): v for k, v in sorted(t.q_worst_place.items())},
            "deficit_overcome": hist_summary(t.q_deficit, 0.1) if t.q_deficit else None,
        },
        "decided": {
            "percent_of_game": hist_summary(t.q_decided) if t.q_decided else None,
            "first_half": _rate(sum(c for k, c in t.q_decided.items() if k <= 50), n),
            "led_throughout": _rate(t.q_wire, n),
            "not_before_the_end": _rate(t.q_late, n),
            "histogram": {str(k): v for k, v in sorted(t.q_decided.items())},
        },
    }


def _bots_arg(bots) -> str:
    return bots[0] if len(set(bots)) == 1 else ",".join(bots)


def _where(p: Problem) -> str:
    s = p.file
    if p.row is not None:
        s += f":{p.row}"
    if p.column:
        s += f":{p.column}"
    return s


# ------------------------------------------------------------------ verdicts
