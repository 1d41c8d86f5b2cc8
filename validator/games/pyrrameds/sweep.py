"""Small in-process playouts for the comparisons the report makes across
configurations (game length by player count and box, greedy with and without
memory) and for tests and measurements: one game is ``play(game, seed, bots)``."""

from __future__ import annotations

import math
import zlib
from collections import Counter

from validator.kit import Chance, View

from .heuristics import ForgetfulBot, GreedyBot, RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "forgetful": ForgetfulBot}
TURN_CAP = 400


def play(game, seed: int, bots=("greedy",), turn_cap: int = TURN_CAP, strict: bool = False, log: bool = False):
    """One game from ``seed`` with one bot name per seat (one name: every seat); the final state."""
    n = game.players
    names = tuple(bots) * n if len(bots) == 1 else tuple(bots)
    state = game.new_initial_state(Chance(seed))
    if log:
        state.log = []
    players = [BOTS[name](Chance(seed * 7919 + 17 + p), game) for p, name in enumerate(names)]
    views = [View(state, p) for p in range(n)]
    while not state.is_terminal():
        if state.turns > turn_cap:
            state.stop("turn-cap")
            break
        p = state.current_player()
        actions = state.legal_actions()
        a = actions[0] if len(actions) == 1 else players[p].step(views[p], actions)
        state.apply_unchecked(a) if not strict else state.apply_action(a)
        if strict:
            state.check_invariants()
    return state


def _seed(*parts) -> int:
    return zlib.crc32(repr(parts).encode()) * 1_000_003


def _options(game, **over) -> dict:
    o = dict(game.o)
    o.update(over)
    return o


def box_parts(game, games: int) -> list[tuple]:
    """One part of the comparison of boxes per box selection and player count."""
    from .checks import selections

    SPEC = game.spec

    out = []
    for boxes in selections(game.data):
        label = "+".join(b for b in game.data.manifest.expansions if b in boxes)
        for players in range(SPEC.min_players, SPEC.max_players + 1):
            out.append((game, label, players, games))
    return out


def play_boxes(part: tuple) -> dict:
    """One row of the comparison of boxes: ``games`` greedy games of one box selection and player count."""
    from model.errors import PnpError

    game, label, players, games = part
    SPEC = game.spec
    row = {"boxes": label, "players": players, "games": games}
    try:
        g = SPEC.make(game.data, players, **_options(game, boxes=label, row=game.o["row"]))
    except PnpError as exc:
        row["error"] = str(exc).splitlines()[0]
        return row
    lengths, wins, ends = [], [0.0] * players, Counter()
    for i in range(games):
        s = play(g, _seed("boxes", label, players, i))
        lengths.append(s.turns)
        ends[s.end] += 1
        for w in s.winners:
            wins[w] += 1.0 / len(s.winners)
    lengths.sort()
    rates = [w / games for w in wins]
    row.update({
        "row": g.row,
        "turns_mean": round(sum(lengths) / games, 2),
        "turns_median": lengths[games // 2],
        "turns_p10": lengths[games // 10],
        "turns_p90": lengths[min(games - 1, (9 * games) // 10)],
        "seat_rates": [round(r, 4) for r in rates],
        "seat_spread": round(max(rates) - min(rates), 4),
        "stalemates": ends.get("stalemate", 0) + ends.get("stalemate-tie", 0),
        "no_result": sum(ends.get(e, 0) for e in ("turn-cap", "loop", "stuck")),
    })
    return row


#: games of greedy against forgetful per part of the value of information
INFORMATION_PART = 25


def information_parts(game, games: int) -> list[tuple]:
    return [(game, start, min(INFORMATION_PART, games - start)) for start in range(0, games, INFORMATION_PART)]


def play_information(part: tuple) -> tuple:
    """Games ``start .. start+count-1`` of the value of information: (seats, wins, cards shown)."""
    game, start, count = part
    n = game.players
    seats, wins = Counter(), Counter()
    shown = 0
    for i in range(start, start + count):
        first, second = ("greedy", "forgetful") if i % 2 == 0 else ("forgetful", "greedy")
        bots = tuple(first if p % 2 == 0 else second for p in range(n))
        s = play(game, _seed("information", n, game.boxes, i), bots)
        shown += s.counts["shown"] + s.counts["swaps"]
        for p, b in enumerate(bots):
            seats[b] += 1
            if p in s.winners:
                wins[b] += 1.0 / len(s.winners)
    return seats, wins, shown, count


def information(parts: list[tuple]) -> dict:
    """The value of information from its parts' counts (added in the parts' order)."""
    seats, wins = Counter(), Counter()
    shown = games = 0
    for part_seats, part_wins, part_shown, count in parts:
        seats.update(part_seats)
        for b, w in part_wins.items():
            wins[b] += w
        shown += part_shown
        games += count
    rates = {b: wins[b] / seats[b] for b in seats}
    diff = rates["greedy"] - rates["forgetful"]
    se = math.sqrt(sum(r * (1 - r) / seats[b] for b, r in rates.items()))
    return {
        "games": games,
        "greedy": {"seats": seats["greedy"], "wins": round(wins["greedy"], 2), "rate": round(rates["greedy"], 4)},
        "forgetful": {"seats": seats["forgetful"], "wins": round(wins["forgetful"], 2),
                      "rate": round(rates["forgetful"], 4)},
        "difference": round(diff, 4),
        "difference_ci": [round(diff - 1.96 * se, 4), round(diff + 1.96 * se, 4)],
        "cards_seen_per_game": round(shown / max(1, games), 2),
    }


def studies(game, th) -> list:
    """The comparison of boxes and the value of information, as parts for the run's pool (``GameSpec.studies``)."""
    from validator.kit import Study

    from .stats import th_get

    out = []
    sweep_games = int(th_get(th, "pyrrameds", "sweep_games", 40))
    info_games = int(th_get(th, "pyrrameds", "info_games", 200))
    if sweep_games:
        out.append(Study(box_parts(game, sweep_games), play_boxes, lambda rows: {"pyrrameds": {"by_box": rows}},
                         cost=0.01 * sweep_games))
    if info_games:
        out.append(Study(information_parts(game, info_games), play_information,
                         lambda parts: {"pyrrameds": {"information": information(parts)}},
                         cost=0.012 * INFORMATION_PART))
    return out
