"""The greedy judgement for the generic bots: best immediate VP, sensible resource gathering.

``scores(observation, actions)`` reads only the observation (the seat's hand and
the public table).  Its unit is the victory point (times ``SCALE``): a build
scores what it earns now (tile, columns, neighbours, the builder's -1, the rise
of the end bonus) plus a premium, so a build that pays is taken; gathering
scores the expected rise of the player's *readiness* - a column is ready when
the player holds a card and a cube of its colour, and four ready columns with a
card of the level's value make an upper tile.  ``evaluate(state, player)`` rates a (determinized)
position for the search bot: VP, the end bonus already secured, and part of the
readiness.
"""

from __future__ import annotations

from bisect import bisect_left

from validator.kit import Heuristic

from . import geometry as geo
from .building import column_points
from .constants import (BUILD, CARDS, COLOUR, COLOUR_CARD, CUBE, CUBES, DEST, DISCARD_CARD, EMPTY_DRAW, END_BONUS,
                        FORCED, KEEP, KEEP_SET, MAIN, MARKET, MARKET_KIND, MOVE, MOVE_KIND, MOVING, OFFER, OFFER_KIND,
                        PLACE, REFRESH, REFRESHED, RESPOND, RETURN, RETURN_CUBE, SYMBOL, SYMBOL_CARD, TILE, TILE_OF)

LEVEL, SUPPORT, COLUMN_NEIGHBOURS, TOP = geo.LEVEL, geo.SUPPORT, geo.COLUMN_NEIGHBOURS, geo.LEVELS
LEVEL_POSITIONS = geo.LEVEL_POSITIONS
BUILD_PREMIUM = 2.0  # a build that earns nothing still beats gathering: it moves the game on
ENDING_BONUS = 10.0  # building the top tile when it wins the game
NO_NEIGHBOURS = ((), (), (), ())


_WORTH: dict = {}


def card_worth(g) -> tuple:
    """A card's base worth by design: a little for being a card, more for its value."""
    worth = _WORTH.get(g.d_val)
    if worth is None:
        worth = _WORTH[g.d_val] = tuple(0.35 + 0.12 * v for v in g.d_val)
    return worth


class Need:
    """The player's resources as the heuristic weighs them (built once per decision)."""

    __slots__ = ("g", "hc", "cb", "pairs", "target", "hand_n", "limit", "short", "memo", "worth", "_held")

    def __init__(self, obs):
        g = self.g = obs.game
        p = obs.player
        self.hc = hc = obs.hand_col
        self.cb = cb = obs.cubes[p]
        pairs = 0
        for c in range(g.K):
            pairs += hc[c] if hc[c] < cb[c] else cb[c]
        self.pairs = pairs
        self.short = pairs < 4
        self.target = obs.open_top
        self.hand_n = obs.hand_n[p]
        self.limit = g.hand_limit
        self._held = {}
        self.worth = card_worth(g)
        self.memo = {}  # best tiles by (level, neighbours), shared by the build actions of one decision

    def swap(self, got: int, *lost: int) -> float:
        """The change in ready columns (in VP-like units) from receiving a cube of ``got`` and handing over
        cubes of ``lost``: exact, so a trade and its reverse never both look good."""
        hc, cb = self.hc, self.cb
        before = after = 0
        changed = {got, *lost}
        for c in changed:
            k = cb[c]
            before += hc[c] if hc[c] < k else k
            k += (c == got) - lost.count(c)
            after += hc[c] if hc[c] < k else k
        return (after - before) * (1.0 if self.short else 0.5)

    def card(self, d: int) -> float:
        """A new card's worth: its value, and whether a cube of its colour waits for it."""
        g = self.g
        c = g.d_col[d]
        u = self.worth[d]
        if self.cb[c] > self.hc[c]:
            u += 0.7 if self.short else 0.35
        if g.d_val[d] >= self.target > 1:
            u += 0.2
        return u

    def held(self, d: int) -> float:
        """A card in hand's worth (it may be the one that pairs with a cube)."""
        u = self._held.get(d)
        if u is None:
            g = self.g
            c = g.d_col[d]
            u = self.worth[d]
            if self.cb[c] >= self.hc[c]:
                u += 0.7 if self.pairs <= 4 else 0.35
            if g.d_val[d] >= self.target > 1:
                u += 0.2
            self._held[d] = u
        return u


# ------------------------------------------------------------------ columns
_PATTERN: dict = {}


def best_columns(avail, neighbours, fixed: tuple = ()) -> float:
    """VP of the best four columns: the best colour pattern completing ``fixed`` (the colours named for
    the first quarters) with ``avail[c]`` more columns of colour c, plus the same-colour neighbours of
    each quarter (``neighbours[k]``: the colours next to quarter k; for the quarters still open, the
    best one the player could name, a slight overestimate).  -99: four columns cannot be named."""
    k = len(fixed)
    r = 4 - k
    if k:
        key = tuple(sorted([(a if a < r else r, fixed.count(c)) for c, a in enumerate(avail)]))
    else:
        key = tuple(sorted([a if a < 4 else 4 for a in avail]))
    v = _PATTERN.get(key)
    if v is None:
        if k:
            v = _best([a for a, _ in key], [c for c, (_, f) in enumerate(key) for _ in range(f)])
        else:
            v = _best(list(key), [])
        _PATTERN[key] = v
    if v < 0 or neighbours is NO_NEIGHBOURS:
        return v
    for q in range(4):
        nb = neighbours[q]
        if nb:
            if q < k:
                v += nb.count(fixed[q])
            else:
                v += max([nb.count(c) for c in nb if avail[c] > 0], default=0)
    return v


def _best(avail: list[int], fixed: list[int]) -> int:
    """The best colour pattern completing ``fixed`` to four columns (exhaustive; results are cached)."""
    if len(fixed) == 4:
        return column_points(fixed)
    if sum(avail) < 4 - len(fixed):
        return -99
    best = -99
    for c in range(len(avail)):
        if avail[c]:
            avail[c] -= 1
            fixed.append(c)
            v = _best(avail, fixed)
            fixed.pop()
            avail[c] += 1
            if v > best:
                best = v
    return best


def column_neighbours(obs, pos: int) -> tuple:
    """Per support quarter of ``pos``: the colours of the columns already next to it."""
    col = obs.col
    out = tuple([tuple([col[q] for q in nb if col[q] >= 0]) for nb in COLUMN_NEIGHBOURS[pos]])
    return out if any(out) else NO_NEIGHBOURS


# ------------------------------------------------------------------ builds
def build_gain(obs, need: Need, pos: int) -> float:
    """The VP a build at ``pos`` earns now with the player's best choice of cards and colours."""
    g = obs.game
    p = obs.player
    level = LEVEL[pos]
    b = obs.builder[p]
    gain = 0.0 if (b >= 0 and b in g.near[pos]) else -1.0
    top = obs.top[p]
    if level > top:
        gain += END_BONUS[level] - END_BONUS[top]
    nbs = column_neighbours(obs, pos) if level > 1 else NO_NEIGHBOURS
    key = (level, nbs)
    memo = need.memo
    best = memo.get(key)
    if best is None:
        best = memo[key] = _best_tile(obs, need, level, nbs)
    if level > 1 and b >= 0 and obs.ncol[b] == 3 and any(q >> 2 == b for q in SUPPORT[pos]):
        gain -= 1.0  # the fourth column under one's own builder
    if level == TOP:
        # the top tile ends the game: a sure win is the best move there is
        vp, tops = obs.vp, obs.top
        mine = vp[p] + gain + best + END_BONUS[top]  # gain holds the rise of the end bonus to level 4
        best_other = max([vp[q] + END_BONUS[tops[q]] for q in range(len(vp)) if q != p], default=-99)
        if mine >= best_other:
            return gain + best + ENDING_BONUS
    return gain + best


def _best_tile(obs, need: Need, level: int, nbs) -> float:
    g = obs.game
    hand = obs.hand
    left = obs.tiles_left
    if level == 1:
        return max([(1.0 if left[g.d_sym[d]] else 0.0) - 0.3 * need.held(d) for d in range(g.D) if hand[d]],
                   default=-9.0)
    hc, cb = need.hc, need.cb
    best = -9.0
    seen = set()
    for d in range(g.D):
        if not hand[d] or g.d_val[d] < level:
            continue
        c = g.d_col[d]
        matched = left[g.d_sym[d]] > 0
        if (c, matched) in seen:
            continue
        seen.add((c, matched))
        avail = [min(hc[x] - (x == c), cb[x]) for x in range(g.K)]
        v = (level if matched else 0) + best_columns(avail, nbs)
        if v > best:
            best = v
    return best


def nearness(obs, t: int) -> float:
    """How many empty places a builder on tile ``t`` could build next to without the -1."""
    near = obs.game.near
    level = LEVEL[t]
    tile = obs.tile
    score = 0.0
    for x in obs.open:
        if t in near[x]:
            score += 1.0 if LEVEL[x] >= level else 0.3
    if level < TOP:
        for x in LEVEL_POSITIONS[level + 1]:
            if tile[x] < 0 and t in near[x]:
                score += 0.2
    return score - (0.5 if obs.ncol[t] == 3 else 0.0)


# ------------------------------------------------------------------ the scores
SCALE = 4.0  # scores are VP x 4: the kit's search bot looks again at calls closer than its margin (4): 1 VP here


def scores(obs, actions: list[int]) -> list[float]:
    """The greedy rating of each action (VP-like units, times SCALE)."""
    return [SCALE * v for v in _scores(obs, actions)]


def _scores(obs, actions: list[int]) -> list[float]:
    ph = obs.phase
    if ph == MAIN:
        return _main_scores(obs, actions)
    if ph == PLACE:
        b = obs.builder[obs.player]
        here = nearness(obs, b) if b >= 0 and obs.ncol[b] < 4 else -1.0
        return [nearness(obs, obs.b_pos) + 0.1, here]
    if ph == FORCED:
        return [nearness(obs, a - DEST) for a in actions]
    if ph == MOVING:
        return [nearness(obs, a - MOVE) for a in actions]
    if ph == TILE:
        return [float(obs.tiles_left[a - TILE_OF]) for a in actions]
    need = Need(obs)
    if ph == COLOUR:
        return _colour_scores(obs, need, actions)
    if ph == KEEP:
        return _keep_scores(obs, need, actions)
    if ph == RETURN:
        # put back a cube no card waits for, of a colour the player has many of
        hc, cb, pend = need.hc, need.cb, obs.pend_cubes
        hi = 1.0 if need.short else 0.5
        out = []
        for a in actions:
            c = a - RETURN_CUBE
            k = cb[c] + pend[c]
            out.append(-(hi if hc[c] >= k else 0.0) - 0.01 * k)
        return out
    if ph == SYMBOL:
        return [_symbol_value(obs, need, a - SYMBOL_CARD) for a in actions]
    if ph == RESPOND:
        _, give, take = obs.offer  # this player would receive ``give`` and hand over ``take``
        return [need.swap(give, take) - 0.05, 0.0]
    g = obs.game
    out = []
    for a in actions:
        if a >= MARKET:
            out.append(_market_value(g, need, a) - (1.0 if ph == REFRESHED else 0.0))
        elif a >= OFFER:
            out.append(_offer_value(obs, need, a))
        elif a >= DISCARD_CARD:
            out.append(-need.held(a - DISCARD_CARD))
        else:  # END after a refresh
            out.append(0.0)
    return out


def _main_scores(obs, actions: list[int]) -> list[float]:
    """Main actions come sorted by kind: the kinds below CUBES, then cubes, one cube, cards (one per card
    design in hand each) and the builds; each block is rated in one pass."""
    g = obs.game
    need = Need(obs)
    hc, cb = need.hc, need.cb
    val, col, worth = g.d_val, g.d_col, need.worth
    i1 = bisect_left(actions, CUBES)
    i2 = bisect_left(actions, CUBE, i1)
    i3 = bisect_left(actions, CARDS, i2)
    i4 = bisect_left(actions, BUILD, i3)
    out = [_kind_value(obs, need, a) for a in actions[:i1]]
    if i4 > i3:
        paired = 0.7 if need.pairs <= 4 else 0.35
        target = need.target
        hi = 1.0 if need.short else 0.5
        # what each card in hand is worth (every held design has a CARDS action)
        u = {}
        for a in actions[i3:i4]:
            d = a - CARDS
            c = col[d]
            u[d] = worth[d] + (paired if cb[c] >= hc[c] else 0.0) + (0.2 if val[d] >= target > 1 else 0.0)
        q, bag_n, room = _cube_terms(obs, need)
        for a in actions[i1:i2]:  # draw the value in cubes, keep half rounded up
            d = a - CUBES
            v = val[d] if val[d] < bag_n else bag_n
            keep = (v + 1) // 2
            good = v * q * 1.3
            if good > keep:
                good = keep
            out.append(good * hi + (keep - good) * 0.2 - u[d])
        for a in actions[i2:i3]:  # one cube of the card's colour
            d = a - CUBE
            c = col[d]
            out.append((hi if hc[c] - 1 > cb[c] else 0.2) - u[d] + 0.15)
        for a in actions[i3:i4]:  # draw value + 1 cards, keep three
            d = a - CARDS
            v = val[d]
            k = v + 1 if v < 2 else 3
            if k > room:
                k = room
            out.append(0.55 * k + (0.1 * (v - 2) if v > 2 else 0.0) - u[d])
    if i4 < len(actions):
        out += [BUILD_PREMIUM + build_gain(obs, need, a - BUILD) for a in actions[i4:]]
    return out


def _kind_value(obs, need: Need, a: int) -> float:
    if a == MOVE_KIND:
        if need.target > 1 and need.short:
            return -1.0  # not ready for an upper tile: no point placing the builder yet
        return _move_value(obs, obs.player)
    if a == OFFER_KIND:
        return 0.5 * _best_offer(obs, need)
    if a == MARKET_KIND:
        return _best_market(obs, need)
    if a == REFRESH:
        return -0.6
    if EMPTY_DRAW <= a < EMPTY_DRAW + 2:
        return 0.6 * (a - EMPTY_DRAW + 1)
    return 0.0  # PASS


def _cube_terms(obs, need: Need) -> tuple:
    """Shared terms of the card actions: the chance a drawn cube is wanted, the bag's size and the cards
    that may be kept after playing one."""
    bag = obs.bag
    bag_n = sum(bag)
    hc, cb = need.hc, need.cb
    wanted = 0
    for c in range(len(bag)):
        if hc[c] > cb[c]:
            wanted += bag[c]
    room = need.limit - need.hand_n + 1
    return (wanted / bag_n if bag_n else 0.0), bag_n, (room if room > 0 else 0)


def _move_value(obs, p: int) -> float:
    """Moving is worth a turn only when the builder is near no empty place."""
    b = obs.builder[p]
    here = nearness(obs, b)
    if here >= 1.0:
        return -1.0
    best = here
    tile, ncol, builders = obs.tile, obs.ncol, obs.builder
    for t in LEVEL_POSITIONS[LEVEL[b]]:
        if t != b and tile[t] >= 0 and ncol[t] < 4 and t not in builders:
            v = nearness(obs, t)
            if v > best:
                best = v
    return 0.25 * (best - here) - 0.3


def _colour_scores(obs, need: Need, actions: list[int]) -> list[float]:
    """The best columns reachable when this card names the next one (cards of one colour alike), less a
    little for the card's value: the player keeps his high cards."""
    g = obs.game
    nbs = column_neighbours(obs, obs.b_pos)
    hc, cb = need.hc, need.cb
    fixed = tuple(obs.b_cols)
    by_colour = {}
    out = []
    for a in actions:
        d = a - COLOUR_CARD
        c = g.d_col[d]
        v = by_colour.get(c)
        if v is None:
            avail = [min(hc[x] - (x == c), cb[x] - (x == c)) for x in range(g.K)]
            v = by_colour[c] = best_columns(avail, nbs, fixed + (c,))
        out.append(v - 0.05 * g.d_val[d])
    return out


def _symbol_value(obs, need: Need, d: int) -> float:
    g = obs.game
    level = LEVEL[obs.b_pos]
    matched = obs.tiles_left[g.d_sym[d]] > 0
    v = (level if matched else 0) - 0.15 * g.d_val[d]
    if level == 1:
        return v - 0.5 * need.held(d)
    c = g.d_col[d]
    avail = [min(need.hc[x] - (x == c), need.cb[x]) for x in range(g.K)]
    return v + best_columns(avail, column_neighbours(obs, obs.b_pos))


def _keep_scores(obs, need: Need, actions: list[int]) -> list[float]:
    """Keep the best cards; those over the hand limit would only be discarded again."""
    vals = [need.card(d) for d in obs.pend_cards]
    room = need.limit - need.hand_n
    out = []
    for a in actions:
        mask = a - KEEP_SET
        kept = [v for i, v in enumerate(vals) if mask >> i & 1]
        over = len(kept) - room
        if over > 0:
            kept.sort()
            out.append(sum(kept[over:]) - 0.1 * over)
        else:
            out.append(sum(kept))
    return out


def _offer_value(obs, need: Need, a: int) -> float:
    K = obs.game.K
    q, rest = divmod(a - OFFER, K * K)
    give, take = divmod(rest, K)
    theirs = obs.cubes[q]
    # the partner is likelier to accept a colour it lacks, for one it has plenty of
    return need.swap(take, give) + 0.03 * theirs[take] - 0.05 * theirs[give]


def _best_offer(obs, need: Need) -> float:
    """Roughly the best offer: a wanted colour some partner holds for a cube the player can spare."""
    p = obs.player
    mine = obs.cubes[p]
    K = obs.game.K
    spare = [c for c in range(K) if mine[c] and need.hc[c] < mine[c]]
    if not spare:
        return -1.0
    wanted = [c for c in range(K) if need.hc[c] > mine[c]]
    best = -1.0
    for q in range(len(obs.cubes)):
        if q != p and not obs.offered >> q & 1:
            theirs = obs.cubes[q]
            for c in wanted:
                if theirs[c]:
                    v = need.swap(c, spare[0])
                    if v > best:
                        best = v
    return best


def _best_market(obs, need: Need) -> float:
    """The best 2:1 market trade, roughly: a wanted colour for two cubes no card waits for."""
    K = obs.game.K
    hc, cb = need.hc, need.cb
    gain = 1.0 if any(obs.market[c] and hc[c] > cb[c] for c in range(K)) else 0.0
    free = sum([cb[c] - hc[c] for c in range(K) if cb[c] > hc[c]])
    loss = 0.0 if free >= 2 else 2.0 - free
    return (gain - loss) * (1.0 if need.short else 0.5) - 0.1


def _market_value(g, need: Need, a: int) -> float:
    K = g.K
    take, rest = divmod(a - MARKET, K * K)
    give, out = divmod(rest, K)
    return need.swap(take, give, out) - 0.1


# ------------------------------------------------------------------ evaluation (search bot) and readiness
def readiness(state, p: int) -> float:
    """Resources in VP-like units: ready columns (card + cube of a colour), a card for the top open level,
    cards in hand."""
    g = state.g
    hc, cb = state.hand_col[p], state.cubes[p]
    pairs = 0
    for c in range(g.K):
        pairs += hc[c] if hc[c] < cb[c] else cb[c]
    target = max([LEVEL[t] for t in state.open], default=1)
    hand = state.hands[p]
    high = any(hand[d] and g.d_val[d] >= target for d in range(g.D))
    return (min(pairs, 4) + 0.4 * min(max(pairs - 4, 0), 4) + 0.12 * min(state.hand_n[p], g.hand_limit)
            + (0.8 if high else 0.0))


def evaluate(state, player: int) -> float:
    if state.is_terminal():
        won = player in state.winners
        return state.vp[player] + (20.0 / len(state.winners) if won else 0.0)
    return state.vp[player] + END_BONUS[state.top[player]] + 0.6 * readiness(state, player)


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)
