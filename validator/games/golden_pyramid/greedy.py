"""The greedy bot's decisions in the whole-game loop (``fast.py``): legal actions and ratings together.

Each function gives ``(legal actions, their ratings)`` for the player to act:
the actions ``State.legal_actions`` gives (the same actions in the same order)
and the ratings ``heuristics.seat_scores`` gives them (the same numbers: every
rating is the same expression on the same terms), reading only what the player
may see - his own hand and the table.

``main_rated`` lists the main actions as ``State._main_legal`` does and rates
each as it is listed, as ``heuristics._main_scores`` rates them; ``return_rated``
and ``market_rated`` do the same for the cubes to put back and the 2:1 market
trades, the most frequent of the other decisions whose list the rules work out
only when asked; ``seat_rated`` takes the list the rules made (after a single
choice check) or asks for it, and rates it.  The rules still decide what is
legal (``_can_offer``, ``_can_move``, the reach worked out when the turn
began).  ``tests/games/test_golden_pyramid_play.py`` and
``tests/validator/test_fast_play.py`` check the games against the protocol loop,
which asks ``legal_actions`` and ``scores``: a change to the rules' lists or to
the ratings must be made here as well.
"""

from __future__ import annotations

from .constants import (CARDS, COLOUR, EMPTY_DRAW, EMPTY_HAND_DRAW, MARKET, MARKET_KIND, MOVE_KIND, OFFER_KIND, PASS,
                        PLACE, REFRESH, RETURN, RETURN_CUBE, TRADING)
from .heuristics import (POINT2, POINT15, SCALE, _build_values, _colour_scores, _move_value, _place_scores,
                         market_kind_rating, offer_kind_rating, seat_scores, trade_change, trade_terms)

PASS_ONLY = ((PASS,), (0.0,))  # no action is possible: pass, rated 0


def seat_rated(s, p: int) -> tuple[list[int], list[float]]:
    """``(legal actions, their greedy ratings)`` of player ``p`` to act in any phase but the main one."""
    ph = s.phase
    if ph == RETURN:
        return return_rated(s, p)
    if ph == TRADING:
        return market_rated(s, p, 0.0)
    actions = s._legal  # worked out already when the rules checked for a single choice
    if actions is None:
        actions = s.legal_actions()
    if ph == COLOUR:
        return actions, _colour_scores(s, s.g, p, s.hand_col[p], actions)
    if ph == PLACE:
        return actions, _place_scores(s, s.g, p)
    return actions, seat_scores(s, p, actions)


def return_rated(s, p: int) -> tuple[list[int], list[float]]:
    """The cubes player ``p`` may put back (``State._compute_legal``: one action per colour drawn) rated as
    ``heuristics._return_scores`` rates them: a cube no card waits for, of a colour the player has many of."""
    hc, cb, pend = s.hand_col[p], s.cubes[p], s.pend_cubes
    pairs = 0
    for h, k in zip(hc, cb):
        pairs += h if h < k else k
    hi = 1.0 if pairs < 4 else 0.5
    acts = []
    out = []
    for c, x in enumerate(pend):
        if x:
            k = cb[c] + x
            acts.append(RETURN_CUBE + c)
            out.append(SCALE * (-(hi if hc[c] >= k else 0.0) - 0.01 * k))
    return acts, out


def market_rated(s, p: int, extra: float) -> tuple[list[int], list[float]]:
    """The 2:1 market trades of player ``p`` (``Supply._market_trades``: the colour taken, given, put in the
    bag, in that order) rated as ``heuristics._market_scores`` rates them: the change in ready columns, less
    a little and ``extra``."""
    K = s.g.K
    mine, market, hc = s.cubes[p], s.market, s.hand_col[p]
    up, down, down2, pairs = trade_terms(hc, mine)
    hi = 1.0 if pairs < 4 else 0.5
    # the colours the player may give, each with the colours he may then put in the bag
    have = [c for c in range(K) if mine[c]]
    gives = [(give, have if mine[give] > 1 else [c for c in have if c != give]) for give in have]
    acts = []
    out = []
    for take in range(K):
        if not market[take]:
            continue
        for give, puts in gives:
            base = MARKET + (take * K + give) * K
            for put in puts:
                acts.append(base + put)
                out.append(SCALE * (trade_change(up, down, down2, take, give, put) * hi - 0.1 - extra))
    return acts, out


def main_rated(s, p: int, tab) -> tuple[list[int], list[float]]:
    """``(legal main actions, their greedy ratings)`` of player ``p`` whose turn it is (``tab``: the
    heuristic's tables of the game, ``worth.tables``)."""
    g = s.g
    hand_n = s.hand_n[p]
    hc = s.hand_col[p]
    cb = s.cubes[p]
    held = s.held[p]
    col = g.d_col
    # one pass over the colours in hand (no other makes a ready column or is wanted): ready columns,
    # colours wanted (more cards than cubes) and what the bag and the market hold of them
    pairs = wanted_bag = 0
    market_gain = False
    wanted = []
    bag, market = s.bag, s.market
    seen = 0
    for d in held:
        c = col[d]
        if not seen >> c & 1:
            seen |= 1 << c
            h = hc[c]
            k = cb[c]
            if h > k:
                pairs += k
                wanted.append(c)
                wanted_bag += bag[c]
                if market[c]:
                    market_gain = True
            else:
                pairs += h
    free = sum(cb) - pairs  # cubes no card waits for
    short = pairs < 4
    hi = 1.0 if short else 0.5
    target = s.open_top
    acts = []
    out = []
    # the kinds of action below CUBES, in the rules' order
    if hand_n == 0 and (s.deck or s.discard):
        for k in range(1, EMPTY_HAND_DRAW + 1):
            if g.negative_vp or s.vp[p] >= k:
                acts.append(EMPTY_DRAW + k - 1)
                out.append(SCALE * (0.6 * k))
    n_cubes = s.cube_n[p]
    if n_cubes and s._can_offer(p):
        acts.append(OFFER_KIND)
        out.append(offer_kind_rating(s.cubes, s.offered, p, wanted if free else (), hi))
    if n_cubes >= 2 and s.market_n:
        acts.append(MARKET_KIND)
        out.append(market_kind_rating(free, market_gain, hi))
        if g.market_refresh and s.bag_n:
            acts.append(REFRESH)
            out.append(SCALE * -0.6)
    if s.builder[p] >= 0 and s._can_move(p):
        acts.append(MOVE_KIND)
        out.append(-SCALE if target > 1 and short else SCALE * _move_value(s, g, p))
    if not hand_n:
        return (acts, out) if acts else PASS_ONLY
    # the card actions: what each card in hand is worth (a cube may wait for it), less what playing it
    # brings: its value in cubes (keep half rounded up), one cube of its colour, value + 1 cards (keep three)
    val = g.d_val
    paired = 2 if pairs <= 4 else 1  # the worth tables' column when a cube waits for the card
    room = g.hand_limit - hand_n + 1
    card4 = tab.cards4[room if room > 0 else 0]
    held4 = tab.held4[target]
    cards_acts = []
    cards_out = []
    bag_n = s.bag_n
    if bag_n:
        cube4 = tab.cube_rows.get((wanted_bag, bag_n, short)) or tab.cube_row(wanted_bag, bag_n, short)
        hi4 = SCALE * hi
        cube_acts = []
        cube_out = []
        info = tab.card_info[target]
        for d in held:
            c, v, row, cubes_act, cube_act, cards_act = info[d]
            lack = hc[c] - cb[c]  # cards of the colour no cube waits for
            u4 = row[0 if lack > 0 else paired]
            acts.append(cubes_act)
            out.append(cube4[v] - u4)
            cards_acts.append(cards_act)
            cards_out.append(card4[v] - u4)
            if bag[c]:
                cube_acts.append(cube_act)
                cube_out.append(((hi4 if lack > 1 else POINT2) - u4) + POINT15)
        acts += cube_acts
        out += cube_out
    else:
        for d in held:
            c = col[d]
            cards_acts.append(CARDS + d)
            cards_out.append(card4[val[d]] - held4[d][0 if cb[c] < hc[c] else paired])
    acts += cards_acts
    out += cards_out
    reach = s._rch
    if reach is None:
        reach = s._rch = s._reach(p)
    if reach:
        cut = s.open_cut[reach]
        if cut:
            builds = s.open_acts[:cut]
            acts += builds
            out += _build_values(s, g, p, hc, held, cb, tab.held[target], paired, builds)
    return acts, out
