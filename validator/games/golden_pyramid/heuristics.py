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
from .columns import (COMPLETION, best_columns, compacted, completion_points, neighbour_points, pattern_points,
                      ready_columns)
from .constants import (BUILD, CARDS, COLOUR, COLOUR_CARD, CUBE, CUBES, DEST, DISCARD_CARD, EMPTY_DRAW, END_BONUS,
                        FORCED, KEEP, KEEP_LIMIT, KEEP_SET, MAIN, MARKET, MARKET_KIND, MOVE, MOVE_KIND, MOVING, OFFER,
                        OFFER_KIND, PLACE, REFRESH, REFRESHED, RESPOND, RETURN, RETURN_CUBE, STRIDE, SYMBOL, SYMBOL_CARD,
                        TILE, TILE_OF)
from .worth import SCALE, Need, tables

LEVEL, SUPPORT_SET, TOP, NO_NEIGHBOURS = geo.LEVEL, geo.SUPPORT_SET, geo.LEVELS, geo.NO_NEIGHBOURS
Neighbours = geo.Neighbours
LEVEL_POSITIONS = geo.LEVEL_POSITIONS
FIRST_UPPER = geo.OFFSET[1]  # the first position of level 2
MASK_PLACES = tuple(tuple(i for i in range(10) if mask >> i & 1) for mask in range(1 << 10))  # a keep mask's places
BUILD_PREMIUM = 2.0  # a build that earns nothing still beats gathering: it moves the game on
ENDING_BONUS = 10.0  # building the top tile when it wins the game


def _upper_candidates(g, held, hc, cb, ready, left, level: int) -> list:
    """The cards that can name an upper tile at ``level``, by colour (cards of one colour leave the same
    columns): the columns left and the tile's worth before neighbours (best pattern, plus the tile points
    when a card of the colour has tiles of its symbol left), for those that leave four columns."""
    val, col, sym = g.d_val, g.d_col, g.d_sym
    by_colour = {}
    for d in held:
        if val[d] >= level:
            c = col[d]
            if not by_colour.get(c):
                by_colour[c] = left[sym[d]] > 0
    out = []
    for c, matched in by_colour.items():
        avail = ready[:]
        if hc[c] <= cb[c]:  # the naming card was one of the ready columns
            avail[c] -= 1
        v = pattern_points(avail)
        if v >= 0:
            out.append((avail, v + level if matched else v))
    return out


def _upper_best(candidates, nbs) -> float:
    """The VP of the best upper tile: its tile points with the best card that can name it and the best
    columns the other cards and the cubes make, with their neighbours ``nbs`` (-9: no card can)."""
    best = -9.0
    if nbs is NO_NEIGHBOURS:
        for _, v in candidates:
            if v > best:
                best = v
        return best
    compact = nbs.compact if type(nbs) is Neighbours else compacted(nbs)
    if compact is None:
        for avail, v in candidates:
            v += neighbour_points(avail, nbs)
            if v > best:
                best = v
        return best
    for avail, v in candidates:
        for x, y, w in compact:
            if avail[x] > 0 or avail[y] > 0:
                v += w
        if v > best:
            best = v
    return best


def _best_level1(g, held, left, held_row, cb, hc, paired) -> float:
    """The best card in hand to name a level-1 tile: its tile point, less what it is worth (-9 with none)."""
    sym, col = g.d_sym, g.d_col
    best = -9.0
    first = True
    for d in held:
        c = col[d]
        x = (1.0 if left[sym[d]] else 0.0) - 0.3 * held_row[d][0 if cb[c] < hc[c] else paired]
        if first or x > best:
            best = x
            first = False
    return best


def _build_values(t, g, p: int, hc, held, cb, held_row, paired: int, builds) -> list[float]:
    """What each build earns now, plus BUILD_PREMIUM, times SCALE (``held_row[d]``: the worth of card d in
    hand without and with a cube waiting for it, ``paired`` the column of the latter)."""
    b = t.builder[p]
    top = t.top[p]
    near = g.near
    ncol = t.ncol
    nbs_at = t.nbs
    left = t.tiles_left
    best1 = ready = None
    by_level = {}  # the candidates for an upper tile by level
    out = []
    first = bisect_left(builds, BUILD + FIRST_UPPER)
    if first:  # level-1 tiles: alike but for where the builder stands
        best1 = _best_level1(g, held, left, held_row, cb, hc, paired)
        here, away = 0.0, -1.0
        if 1 > top:
            here += END_BONUS[1] - END_BONUS[top]
            away += END_BONUS[1] - END_BONUS[top]
        here = SCALE * (BUILD_PREMIUM + (here + best1))
        away = SCALE * (BUILD_PREMIUM + (away + best1))
        if b < 0:
            out = [away] * first
        else:
            # here where the builder stands near, away elsewhere
            out = list(map((away, here).__getitem__, map(g.near_builds[b].__contains__, builds[:first])))
        builds = builds[first:]
    for a in builds:
        pos = a - BUILD
        level = LEVEL[pos]
        gain = 0.0 if (b >= 0 and b in near[pos]) else -1.0
        if level > top:
            gain += END_BONUS[level] - END_BONUS[top]
        if level == 1:
            if best1 is None:
                best1 = _best_level1(g, held, left, held_row, cb, hc, paired)
            best = best1
        else:
            candidates = by_level.get(level)
            if candidates is None:
                if ready is None:
                    ready = ready_columns(hc, cb)
                candidates = by_level[level] = _upper_candidates(g, held, hc, cb, ready, left, level)
            best = _upper_best(candidates, nbs_at[pos])
            if b >= 0 and ncol[b] == 3 and b in SUPPORT_SET[pos]:
                gain -= 1.0  # the fourth column under one's own builder
            if level == TOP:
                # the top tile ends the game: a sure win is the best move there is
                vp, tops = t.vp, t.top
                mine = vp[p] + gain + best + END_BONUS[top]  # gain holds the rise of the end bonus to level 4
                best_other = max([vp[q] + END_BONUS[tops[q]] for q in range(len(vp)) if q != p], default=-99)
                if mine >= best_other:
                    out.append(SCALE * (BUILD_PREMIUM + (gain + best + ENDING_BONUS)))
                    continue
        out.append(SCALE * (BUILD_PREMIUM + (gain + best)))
    return out


_NEARNESS = [None, None, {}]  # the open positions and builder table it was worked out for, tile -> nearness


def nearness(src, g, t: int) -> float:
    """How many empty places a builder on tile ``t`` could build next to without the -1 (``src``: the
    observation, or the position the pyramid is read from; remembered for the pyramid it was worked out for:
    the tuple of open positions is replaced whenever a tile is built)."""
    near = g.near
    memo = _NEARNESS
    if memo[0] is not src.open or memo[1] is not near:
        memo[0], memo[1], memo[2] = src.open, near, {}
    v = memo[2].get(t)
    if v is None:
        v = memo[2][t] = _nearness(src, g, t)
    return v


def _nearness(src, g, t: int) -> float:
    """The places near ``t`` (``g.near_of[t]``, in order): the open ones (``g.near_weights``: 1 on the
    builder's level or above, 0.3 below), then those of the level above still to come."""
    opn = src.open
    score = 0.0
    for x, w in g.near_weights[t]:
        if x in opn:
            score += w
    tile = src.tile
    for x in g.near_above[t]:
        if tile[x] < 0:
            score += 0.2
    return score - (0.5 if src.ncol[t] == 3 else 0.0)


# ------------------------------------------------------------------ the scores
POINT2, POINT15 = SCALE * 0.2, SCALE * 0.15


def scores(obs, actions: list[int]) -> list[float]:
    """The greedy rating of each action (VP-like units, times SCALE)."""
    return _rated(obs, obs.game, obs.player, obs.hand_col, obs.held, actions)


def seat_scores(s, p: int, actions: list[int]) -> list[float]:
    """``scores`` of player ``p``'s observation, read from the position itself (the whole-game loop): the
    same ratings, reading only what ``p`` sees - its own hand and the table."""
    return _rated(s, s.g, p, s.hand_col[p], s.held[p], actions)


def _rated(t, g, p: int, hc, held, actions: list[int]) -> list[float]:
    """``scores`` of player ``p`` (``t``: the observation, or the position, the table is read from; ``hc``
    and ``held`` the player's cards by colour and designs)."""
    ph = t.phase
    if ph == MAIN:
        return _main_scores(t, g, p, hc, held, actions)
    if ph == COLOUR:
        return _colour_scores(t, g, p, hc, actions)
    if ph == RETURN:
        return _return_scores(t, p, hc, actions)
    if ph == PLACE:
        return _place_scores(t, g, p)
    return _scores(t, g, p, hc, actions)


def _place_scores(t, g, p: int) -> list[float]:
    """Place the builder on the new tile or leave it: where it stands near more empty places (times
    SCALE)."""
    b = t.builder[p]
    here = nearness(t, g, b) if b >= 0 and t.ncol[b] < 4 else -1.0
    return [SCALE * (nearness(t, g, t.b_pos) + 0.1), SCALE * here]


def _scores(t, g, p: int, hc, actions: list[int]) -> list[float]:
    """The ratings of the rarer decisions of player ``p``: VP-like units, times SCALE."""
    ph = t.phase
    if ph == KEEP:
        return _keep_scores(t, Need(t, g, p, hc), actions)
    if ph == SYMBOL:
        need = Need(t, g, p, hc)
        return [SCALE * _symbol_value(t, g, need, a - SYMBOL_CARD) for a in actions]
    if ph == FORCED:
        return [SCALE * nearness(t, g, a - DEST) for a in actions]
    if ph == MOVING:
        return [SCALE * nearness(t, g, a - MOVE) for a in actions]
    if ph == TILE:
        return [SCALE * float(t.tiles_left[a - TILE_OF]) for a in actions]
    need = Need(t, g, p, hc)
    if ph == RESPOND:
        _, give, take = t.offer  # this player would receive ``give`` and hand over ``take``
        return [SCALE * (need.swap(give, take) - 0.05), SCALE * 0.0]
    if actions and actions[-1] >= MARKET:
        return _market_scores(g, need, actions, 1.0 if ph == REFRESHED else 0.0)
    out = []
    for a in actions:
        if a >= OFFER:
            out.append(SCALE * _offer_value(t, g, need, a))
        elif a >= DISCARD_CARD:
            out.append(SCALE * -need.held(a - DISCARD_CARD))
        else:  # END after a refresh
            out.append(SCALE * 0.0)
    return out


def _main_scores(t, g, p: int, hc, held, actions: list[int]) -> list[float]:
    """Main actions come sorted by kind: the kinds below CUBES, then cubes, one cube, cards (one per card
    design in hand each) and the builds; each block is rated in one pass.  The ratings come times SCALE
    (a power of two: scaling the terms gives exactly the scaled sums).  ``t`` is the observation (or the
    position) the table is read from; ``hc`` and ``held`` the player's cards by colour and designs."""
    cb = t.cubes[p]
    # one pass over the colours: ready columns, cubes no card waits for, colours wanted and the bag
    pairs = free = wanted_bag = 0
    spare = market_gain = False
    wanted = []
    c = 0
    for h, k, b, m in zip(hc, cb, t.bag, t.market):
        if h < k:
            pairs += h
            free += k - h
            spare = True
        else:
            pairs += k
            if h > k:
                wanted.append(c)
                wanted_bag += b
                if m:
                    market_gain = True
        c += 1
    bag_n = t.bag_n
    short = pairs < 4
    hi = 1.0 if short else 0.5
    target = t.open_top
    n = len(actions)
    i1 = bisect_left(actions, CUBES)
    i3 = bisect_left(actions, CARDS, i1)
    i4 = bisect_left(actions, BUILD, i3)
    out = []
    for a in actions[:i1]:
        if a == MOVE_KIND:
            out.append(-SCALE if target > 1 and short else SCALE * _move_value(t, g, p))
        elif a == OFFER_KIND:
            out.append(offer_kind_rating(t.cubes, t.offered, p, wanted if spare else (), hi))
        elif a == MARKET_KIND:
            out.append(market_kind_rating(free, market_gain, hi))
        elif a == REFRESH:
            out.append(SCALE * -0.6)
        elif EMPTY_DRAW <= a < EMPTY_DRAW + 2:
            out.append(SCALE * (0.6 * (a - EMPTY_DRAW + 1)))
        else:
            out.append(0.0)  # PASS
    if i4 == i3:
        return out
    # the card actions: what each card in hand is worth (a cube may wait for it), less what playing it
    # brings: its value in cubes (keep half rounded up), one cube of its colour, value + 1 cards (keep three)
    tab = tables(g)
    val, col = g.d_val, g.d_col
    paired = 2 if pairs <= 4 else 1  # the worth tables' column when a cube waits for the card
    room = g.hand_limit - t.hand_n[p] + 1
    card4 = tab.cards4[room if room > 0 else 0]
    held4 = tab.held4[target]
    # the legal main actions hold one cubes and one cards action per design in hand, and one cube action
    # for each whose colour the bag has: then the three blocks are rated in one pass over the hand
    i2 = bisect_left(actions, CUBE, i1)
    cards_out = []
    if bag_n and i2 - i1 == i4 - i3 == len(held):
        cube4 = tab.cube_terms(wanted_bag, bag_n, short)
        hi4 = SCALE * hi
        bag = t.bag
        cube_out = []
        for d in held:
            c = col[d]
            v = val[d]
            u4 = held4[d][0 if cb[c] < hc[c] else paired]
            out.append(cube4[v] - u4)
            cards_out.append(card4[v] - u4)
            if bag[c]:
                cube_out.append(((hi4 if hc[c] - 1 > cb[c] else POINT2) - u4) + POINT15)
        if len(cube_out) == i3 - i2:
            out += cube_out
        else:
            del out[i1:]
            cards_out = None
    elif not bag_n and i1 == i3 and i4 - i3 == len(held):
        for d in held:
            c = col[d]
            cards_out.append(card4[val[d]] - held4[d][0 if cb[c] < hc[c] else paired])
    else:
        cards_out = None
    if cards_out is None:  # not the legal main actions: each card action on its own
        u4 = {}
        for a in actions[i1:i4]:
            d = (a - CUBES) % STRIDE
            c = col[d]
            u4[d] = held4[d][0 if cb[c] < hc[c] else paired]
        cube4 = tab.cube_terms(wanted_bag, bag_n, short)
        for a in actions[i1:i4]:
            if a < CUBE:
                d = a - CUBES
                out.append(cube4[val[d]] - u4[d])
            elif a < CARDS:
                d = a - CUBE
                c = col[d]
                out.append(((SCALE * hi if hc[c] - 1 > cb[c] else POINT2) - u4[d]) + POINT15)
            else:
                d = a - CARDS
                out.append(card4[val[d]] - u4[d])
    else:
        out += cards_out
    if i4 < n:
        out += _build_values(t, g, p, hc, held, cb, tab.held[target], paired, actions[i4:])
    return out


def _move_value(src, g, p: int) -> float:
    """Moving is worth a turn only when the builder is near no empty place."""
    b = src.builder[p]
    here = nearness(src, g, b)
    if here >= 1.0:
        return -1.0
    best = here
    tile, ncol, builders = src.tile, src.ncol, src.builder
    for t in LEVEL_POSITIONS[LEVEL[b]]:
        if t != b and tile[t] >= 0 and ncol[t] < 4 and t not in builders:
            v = nearness(src, g, t)
            if v > best:
                best = v
    return 0.25 * (best - here) - 0.3


def _return_scores(t, p: int, hc, actions: list[int]) -> list[float]:
    """Put back a cube no card waits for, of a colour the player has many of (times SCALE)."""
    cb, pend = t.cubes[p], t.pend_cubes
    pairs = 0
    for h, k in zip(hc, cb):
        pairs += h if h < k else k
    hi = 1.0 if pairs < 4 else 0.5
    out = []
    for a in actions:
        c = a - RETURN_CUBE
        k = cb[c] + pend[c]
        out.append(SCALE * (-(hi if hc[c] >= k else 0.0) - 0.01 * k))
    return out


def _colour_scores(t, g, p: int, hc, actions: list[int]) -> list[float]:
    """The best columns reachable when this card names the next one (cards of one colour alike), less a
    little for the card's value: the player keeps his high cards (times SCALE).  The best columns are
    ``best_columns``'s, their neighbours counted as ``neighbour_points`` counts them: the quarters named
    by their colours (this one by the card's), the open ones by whether a neighbour's colour can still be
    named - worked out once for every colour when no open quarter has more than two neighbours."""
    nbs = t.nbs[t.b_pos]
    ready = ready_columns(hc, t.cubes[p])
    named = t.b_cols
    k = len(named)  # the quarter this card names
    fixed = tuple(named)
    val, col = g.d_val, g.d_col
    later = None  # the open quarters after this one as (colour, other colour, points): see ``compacted``
    if nbs is not NO_NEIGHBOURS:
        later = geo.compact_neighbours(nbs[k + 1:])
        if later is not None:
            known = 0  # the quarters named before
            for q in range(k):
                known += nbs[q].count(named[q])
            here = nbs[k]
    by_colour = {}
    out = []
    for a in actions:
        d = a - COLOUR_CARD
        c = col[d]
        v = by_colour.get(c)
        if v is None:
            avail = ready[:]
            avail[c] -= 1  # the card and a cube of its colour go into this column
            fixed_c = fixed + (c,)
            v = COMPLETION.get((tuple(avail), fixed_c))
            if v is None:
                v = completion_points(avail, fixed_c)
            if v >= 0 and nbs is not NO_NEIGHBOURS:
                if later is None:
                    v += neighbour_points(avail, nbs, fixed_c)
                else:
                    v += known + here.count(c)
                    for x, y, w in later:
                        if avail[x] > 0 or avail[y] > 0:
                            v += w
            by_colour[c] = v
        out.append(SCALE * (v - 0.05 * val[d]))
    return out


def _symbol_value(obs, g, need: Need, d: int) -> float:
    level = LEVEL[obs.b_pos]
    matched = obs.tiles_left[g.d_sym[d]] > 0
    v = (level if matched else 0) - 0.15 * g.d_val[d]
    if level == 1:
        return v - 0.5 * need.held(d)
    c = g.d_col[d]
    avail = ready_columns(need.hc, need.cb)
    if need.hc[c] <= need.cb[c]:  # the naming card was one of the ready columns
        avail[c] -= 1
    return v + best_columns(avail, obs.nbs[obs.b_pos])


def _keep_scores(obs, need: Need, actions: list[int]) -> list[float]:
    """Keep the best cards; those over the hand limit would only be discarded again (times SCALE)."""
    vals = [need.card(d) for d in obs.pend_cards]
    room = need.limit - need.hand_n
    get = vals.__getitem__
    out = []
    if room >= KEEP_LIMIT:  # every card kept fits in the hand
        for a in actions:
            out.append(SCALE * sum(map(get, MASK_PLACES[a - KEEP_SET])))
        return out
    for a in actions:
        places = MASK_PLACES[a - KEEP_SET]
        over = len(places) - room
        if over > 0:
            kept = sorted(map(get, places))
            out.append(SCALE * (sum(kept[over:]) - 0.1 * over))
        else:
            out.append(SCALE * sum(map(get, places)))
    return out


def _offer_value(obs, g, need: Need, a: int) -> float:
    K = g.K
    q, rest = divmod(a - OFFER, K * K)
    give, take = divmod(rest, K)
    theirs = obs.cubes[q]
    # the partner is likelier to accept a colour it lacks, for one it has plenty of
    return need.swap(take, give) + 0.03 * theirs[take] - 0.05 * theirs[give]


def offer_kind_rating(cubes, offered: int, p: int, wanted, hi: float) -> float:
    """The rating of making an offer, roughly the best one: a colour in ``wanted`` that a partner not yet
    offered to holds, for a cube the player can spare (pass no colours when none can be spared): one more
    ready column (worth ``hi``), none lost."""
    for q, theirs in enumerate(cubes):
        if q != p and not offered >> q & 1:
            for c in wanted:
                if theirs[c]:
                    return SCALE * (0.5 * hi)
    return SCALE * -0.5


def market_kind_rating(free: int, market_gain: bool, hi: float) -> float:
    """The rating of a 2:1 market trade, roughly the best one: a wanted colour the market shows
    (``market_gain``) for two cubes no card waits for (``free`` of them)."""
    loss = 0.0 if free >= 2 else 2.0 - free
    return SCALE * (((1.0 if market_gain else 0.0) - loss) * hi - 0.1)


def trade_terms(hc, cb) -> tuple[list, list, list, int]:
    """Per colour, the ready columns won by one more cube, lost by one or two fewer (``Need.swap`` worked
    out per colour once); and the ready columns now."""
    up, down, down2 = [], [], []
    pairs = 0
    for h, k in zip(hc, cb):
        now = h if h < k else k
        pairs += now
        up.append((h if h < k + 1 else k + 1) - now)
        down.append((h if h < k - 1 else k - 1) - now)
        down2.append((h if h < k - 2 else k - 2) - now)
    return up, down, down2, pairs


def trade_change(up, down, down2, take: int, give: int, put: int) -> int:
    """The change in ready columns of a 2:1 market trade: ``take`` from the market, ``give`` to it and
    ``put`` in the bag (``trade_terms``)."""
    if take == give:
        return down[take] if give == put else down[put]
    if take == put:
        return down[give]
    if give == put:
        return up[take] + down2[give]
    return up[take] + down[give] + down[put]


def _market_scores(g, need: Need, actions: list[int], extra: float) -> list[float]:
    """Each 2:1 market trade: the change in ready columns, less a little, and ``extra`` (the VP a trade
    after a refresh costs), times SCALE."""
    hi = 1.0 if need.short else 0.5
    up, down, down2, _ = trade_terms(need.hc, need.cb)
    decode = g.market_code
    out = []
    for a in actions:
        if a < MARKET:  # END after a refresh
            out.append(SCALE * 0.0)
            continue
        take, give, put = decode[a - MARKET]
        out.append(SCALE * (trade_change(up, down, down2, take, give, put) * hi - 0.1 - extra))
    return out


# ------------------------------------------------------------------ evaluation (search bot) and readiness
def readiness(state, p: int) -> float:
    """Resources in VP-like units: ready columns (card + cube of a colour), a card for the top open level,
    cards in hand."""
    g = state.g
    pairs = 0
    for h, k in zip(state.hand_col[p], state.cubes[p]):
        pairs += h if h < k else k
    target = state.open_top
    val = g.d_val
    high = 0.0
    for d in state.held[p]:
        if val[d] >= target:
            high = 0.8
            break
    more = pairs - 4 if pairs > 4 else 0
    held = state.hand_n[p]
    limit = g.hand_limit
    return ((pairs if pairs < 4 else 4) + 0.4 * (more if more < 4 else 4) + 0.12 * (held if held < limit else limit)
            + high)


def evaluate(state, player: int) -> float:
    if state.undealt >= 0 and player != state.undealt:
        state._deal()
    if state.is_terminal():
        won = player in state.winners
        return state.vp[player] + (20.0 / len(state.winners) if won else 0.0)
    return state.vp[player] + END_BONUS[state.top[player]] + 0.6 * readiness(state, player)


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)
