"""How the generic bots judge Tiny Tombs.

Every card in a hand is played before the expedition ends, so greedy asks *when*:
a curse while the hoard is poor, valuable relics late (out of reach of curses,
scarabs and ankhs), a scarab or an ankh when there is something worth taking."""

from validator.kit import Heuristic


def scores(seen, actions):
    g, me = seen.game, seen.me
    best_mine = max((g.value[d] for d in seen.hoards[me]), default=0)
    out = []
    for a in actions:
        if seen.choosing == "steal":
            out.append(g.value[a - g.steal0])
        elif seen.choosing == "swap":
            out.append(0 if a == g.keep else g.value[(a - g.swap0) % g.designs] - g.value[g.power.index("swap")])
        elif g.power[a] == "curse":
            out.append(10 - best_mine)
        elif g.power[a] in ("steal", "swap"):
            owners = [(me + 1) % g.players] if g.power[a] == "steal" else [q for q in range(g.players) if q != me]
            prize = max((g.value[d] for q in owners for d in seen.hoards[q] if g.power[d] != "guarded"), default=0)
            out.append(prize - g.value[a])
        else:
            out.append((2 if g.power[a] == "draw" and seen.tomb else 0) - g.value[a])
    return out


def evaluate(state, player):
    """The search bot's view of a position: this player's points against the best other's."""
    points = state.standings()
    return points[player] - max(x for p, x in enumerate(points) if p != player)


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)
