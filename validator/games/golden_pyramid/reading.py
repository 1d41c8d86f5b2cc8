"""Reading a position: what a seat may see, copies, text, the record, zones and invariants.

A mixin of the State (``state.py`` holds the rules); it changes nothing in the game.
"""

from __future__ import annotations

from validator.kit import GameRecord, check_conservation, copy_generator

from . import geometry as geo
from .constants import (ACCEPT, BUILD, CARDS, COLOUR, COLOUR_CARD, CUBE, CUBES, DECLINE, DEST, DISCARD_CARD,
                        EMPTY_DRAW, END, END_BONUS, KEEP_SET, MAIN, MARKET, MARKET_KIND, MOVE, MOVE_KIND, OFFER,
                        OFFER_KIND, OVER, PASS, PHASE_NAMES, PLACE_NO, PLACE_YES, REFRESH, RETURN_CUBE, SYMBOL_CARD,
                        TILE_OF)

LEVEL = geo.LEVEL


class Observation:
    """What one seat may see: its own hand and every public thing (the pyramid, builders, scores, every
    player's cubes and hand size, the market, the bag's contents - known by counting - the discard
    pile, the tile stacks) and the decision in progress.  Fields are read-only views of the position."""

    __slots__ = ("game", "player", "phase", "turn_player", "turns", "hand", "held", "hand_col", "hand_n", "cubes",
                 "cube_n", "bag", "bag_n", "market", "tiles_left", "tile", "col", "ncol", "nbs", "open", "open_top", "builder",
                 "top", "level_built", "vp",
                 "discard", "deck_n", "offer", "offered", "pend_cubes", "pend_ret", "pend_cards", "pend_keep",
                 "b_pos", "b_sym", "b_cols", "b_cards")

    def __init__(self, s, player: int):
        self.game = s.g
        self.player = player
        self.phase = s.phase
        self.turn_player = s.tp
        self.turns = s.turns
        self.hand = s.hands[player]
        self.held = s.held[player]
        self.hand_col = s.hand_col[player]
        self.hand_n = s.hand_n
        self.cubes = s.cubes
        self.cube_n = s.cube_n
        self.bag = s.bag
        self.bag_n = s.bag_n
        self.market = s.market
        self.tiles_left = s.tiles_left
        self.tile = s.tile
        self.col = s.col
        self.ncol = s.ncol
        self.nbs = s.nbs
        self.open = s.open
        self.open_top = s.open_top
        self.builder = s.builder
        self.top = s.top
        self.level_built = s.level_built
        self.vp = s.vp
        self.discard = s.discard
        self.deck_n = len(s.deck)
        self.offer = s.offer
        self.offered = s.offered
        if s.tp == player:  # what the player drew and is choosing from
            self.pend_cubes = s.pend_cubes
            self.pend_ret = s.pend_ret
            self.pend_cards = s.pend_cards
            self.pend_keep = s.pend_keep
        else:
            self.pend_cubes = self.pend_cards = None
            self.pend_ret = self.pend_keep = 0
        self.b_pos = s.b_pos
        self.b_sym = s.b_sym
        self.b_cols = s.b_cols
        self.b_cards = s.b_cards

    def __eq__(self, other) -> bool:
        return isinstance(other, Observation) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __hash__(self):
        return hash((self.player, self.phase, self.turns, tuple(self.hand)))


class Reading:
    __slots__ = ()

    @property
    def game(self):
        return self.g

    # ------------------------------------------------------------------ seats
    def observe(self, player: int) -> Observation:
        if self.undealt >= 0 and player != self.undealt:
            self._deal()
        return Observation(self, player)

    def standings(self) -> list:
        if self.phase == OVER:
            return self.vp[:]
        out = []
        for v, top in zip(self.vp, self.top):
            out.append(v + END_BONUS[top])
        return out

    # ------------------------------------------------------------------ copies
    def clone(self):
        return self._copy(copy_generator(self.chance))

    def _copy(self, chance):
        """An independent copy drawing from ``chance``.  Tuples (the pyramid's tables, the offer) are
        shared: the rules replace them, never change them."""
        s = object.__new__(type(self))
        s.g = self.g
        s.chance = chance
        s.log = None
        s.n = self.n
        s.cur = self.cur
        s.tp = self.tp
        s.phase = self.phase
        s.turns = self.turns
        s.rounds = self.rounds
        s.n_actions = self.n_actions
        s.end = self.end
        s.winners = self.winners  # replaced, never changed
        s.hands = list(map(list.copy, self.hands))
        s.held = list(map(list.copy, self.held))
        s.hand_n = self.hand_n[:]
        s.hand_col = list(map(list.copy, self.hand_col))
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.cubes = list(map(list.copy, self.cubes))
        s.cube_n = self.cube_n[:]
        s.bag = self.bag[:]
        s.bag_n = self.bag_n
        s.market = self.market[:]
        s.market_n = self.market_n
        s.tiles_left = self.tiles_left  # the pyramid's lists and the statistics are shared until changed
        s.tile = self.tile
        s.owner = self.owner
        s.ncol = self.ncol
        s.col = self.col
        s.level_built = self.level_built
        s.level_turn = self.level_turn
        s.pv = self.pv
        s.trade_log = self.trade_log
        s.pv_own = s.pyr_own = self.pv_own = self.pyr_own = False
        s.open = self.open
        s.open_top = self.open_top
        s.open_acts = self.open_acts
        s.open_cut = self.open_cut
        s.stand = self.stand
        s.nbs = self.nbs
        s.built = self.built
        s.builder = self.builder[:]
        s.top = self.top[:]
        s.vp = self.vp[:]
        s.cnt = self.cnt.copy()
        s.pend_cubes = self.pend_cubes[:]
        s.pend_ret = self.pend_ret
        s.pend_cards = self.pend_cards  # replaced, never changed
        s.pend_keep = self.pend_keep
        s.offer = self.offer
        s.offered = self.offered
        s.b_pos = self.b_pos
        s.b_sym = self.b_sym
        s.b_tile = self.b_tile
        s.b_cards = self.b_cards[:]
        s.b_cols = self.b_cols[:]
        s.b_forced = self.b_forced  # replaced, never changed
        s.forced = self.forced[:]
        s.last_build = self.last_build
        s.round_blocked = self.round_blocked
        s.blocked_run = self.blocked_run
        s._legal = self._legal
        s._rch = self._rch
        s.lazy = self.lazy
        s.undealt = self.undealt
        s.pend_block = self.pend_block
        return s

    def determinize(self, player: int, chance):
        """A copy in which what ``player`` cannot see is drawn again: the other players' hands (and cards
        another player is choosing from) are dealt at random from them and the deck, keeping every
        hand's size, and the deck is left unordered: the copy draws its cards at random (which is the
        same as shuffling it first).  The copy draws from ``chance`` from then on.

        The hands are dealt when the copy first needs them (``_deal``): when another player is to act or
        is observed, a card is drawn, or the copy is inspected - a search playing only its own turn
        often never does.  Until then nothing hidden from ``player`` is read."""
        s = self._copy(chance)
        if s.undealt >= 0:
            s._deal()
        s.undealt = player
        s.lazy = True
        s._legal = None
        if s.tp != player:
            s._rch = None
        return s

    def _deal(self) -> None:
        """Deal the hands hidden from the player a determinized copy was made for (see ``determinize``)."""
        player = self.undealt
        self.undealt = -1
        g = self.g
        pool = self.deck
        hands, held, hand_n = self.hands, self.held, self.hand_n
        others = []
        for q in range(self.n):
            if q != player and hand_n[q]:
                others.append(q)
                hq = held[q]
                if len(hq) == hand_n[q]:  # one card of each design
                    pool += hq
                else:
                    hand = hands[q]
                    for d in hq:
                        pool += [d] * hand[d]
        hidden_pend = self.pend_cards and self.tp != player
        if hidden_pend:
            pool += self.pend_cards
        # a partial shuffle: the cards at the end of the pool become a uniform random draw
        n = len(pool)
        low = n
        for q in others:
            low -= hand_n[q]
        if hidden_pend:
            low -= len(self.pend_cards)
        getrandbits = self.chance.getrandbits
        bits_of = g.bits
        for i in range(n - 1, low - 1, -1):
            bits = bits_of[i]
            j = getrandbits(bits)
            while j > i:
                j = getrandbits(bits)
            pool[i], pool[j] = pool[j], pool[i]
        dealt = pool[low:]
        del pool[low:]
        col = g.d_col
        D, K = g.D, g.K
        hand_col = self.hand_col
        at = 0
        for q in others:
            k = hand_n[q]
            hand = [0] * D
            hc = [0] * K
            for d in dealt[at:at + k]:
                hand[d] += 1
                hc[col[d]] += 1
            hands[q] = hand
            hand_col[q] = hc
            held[q] = sorted(set(dealt[at:at + k])) if k > 1 else dealt[at:at + k]
            at += k
        if hidden_pend:
            self.pend_cards = sorted(dealt[at:])
        if self.pend_block:
            self.pend_block = False
            self._blocked_check(self.tp)

    def position_key(self) -> tuple:
        if self.undealt >= 0:
            self._deal()
        return (self.tp, self.phase, tuple(map(tuple, self.hands)), tuple(map(tuple, self.cubes)), tuple(self.deck),
                tuple(self.discard), tuple(self.market), tuple(self.tile), tuple(self.col), tuple(self.builder),
                tuple(self.vp), self.offered)

    # ------------------------------------------------------------------ words
    def action_to_string(self, a: int) -> str:
        g = self.g
        K = g.K
        cn = g.colours

        def card(d):
            return g.d_name[d] if 0 <= d < g.D else f"card design {d}"

        if a == PASS:
            return "pass (no action possible)"
        if a == END:
            return "end the turn"
        if a == ACCEPT:
            return "accept the offer"
        if a == DECLINE:
            return "decline the offer"
        if a == PLACE_YES:
            return "place the builder on the new tile"
        if a == PLACE_NO:
            return "leave the builder where it is"
        if EMPTY_DRAW <= a < EMPTY_DRAW + 2:
            k = a - EMPTY_DRAW + 1
            return f"draw {k} card{'s' if k > 1 else ''} with an empty hand (-{k} VP)"
        if a == OFFER_KIND:
            return "offer a player a trade"
        if a == MARKET_KIND:
            return "trade 2:1 with the market"
        if a == REFRESH:
            return "refresh the market (optional rule)"
        if a == MOVE_KIND:
            return "move the builder"
        if a >= MARKET:
            take, rest = divmod(a - MARKET, K * K)
            give, out = divmod(rest, K)
            return f"take a {cn[take]} column from the market, give it a {cn[give]} one and put a {cn[out]} one " \
                   "in the bag"
        if a >= OFFER:
            q, rest = divmod(a - OFFER, K * K)
            give, take = divmod(rest, K)
            return f"offer P{q + 1} a {cn[give]} column for a {cn[take]} one"
        if a >= DEST:
            return f"move the builder to {geo.describe_pos(a - DEST)} (forced)"
        if a >= BUILD:
            return f"build on {geo.describe_pos(a - BUILD)}"
        if a >= MOVE:
            return f"move the builder to {geo.describe_pos(a - MOVE)}"
        if a >= TILE_OF:
            name = g.symbols[a - TILE_OF]
            return f"take {'an' if name[:1] in 'aeiou' else 'a'} {name} tile (no tile points)"
        if a >= RETURN_CUBE:
            return f"put a {cn[a - RETURN_CUBE]} cube back in the bag"
        if KEEP_SET <= a < SYMBOL_CARD:
            mask = a - KEEP_SET
            kept = [card(d) for i, d in enumerate(self.pend_cards) if mask >> i & 1]
            return "keep " + (", ".join(kept) if kept else "none") if len(self.pend_cards) >= mask.bit_length() \
                else f"keep the drawn cards of mask {mask}"
        kinds = ((DISCARD_CARD, "discard {}"), (COLOUR_CARD, "name a column with {}"),
                 (SYMBOL_CARD, "build the tile with {}"),
                 (CARDS, "play {} to draw cards"), (CUBE, "play {} for one cube of its colour"),
                 (CUBES, "play {} to draw cubes"))
        for base, text in kinds:
            if a >= base:
                return text.format(card(a - base))
        return f"action {a}"

    def describe(self) -> str:
        if self.undealt >= 0:
            self._deal()
        g = self.g
        cn = g.colours
        lines = [f"turn {self.turns}, round {self.rounds}, phase {PHASE_NAMES[self.phase]}, P{self.cur + 1} to act"]
        lines.append(f"market: {self._market_text()}; bag {self.bag_n} ("
                     + ", ".join(f"{self.bag[c]} {cn[c]}" for c in range(g.K)) + f"); deck {len(self.deck)}, "
                     f"discard {len(self.discard)}; tiles left: "
                     + ", ".join(f"{g.symbols[s]} {self.tiles_left[s]}" for s in range(g.S)))
        for level in range(1, geo.LEVELS + 1):
            size = geo.SIZES[level - 1]
            rows = []
            for r in range(size):
                cells = []
                for c in range(size):
                    t = geo.pos_of(level, r, c)
                    if self.tile[t] < 0:
                        cells.append("  .  ")
                        continue
                    who = "".join(str(p + 1) for p in range(self.n) if self.builder[p] == t)
                    cols = "".join(cn[self.col[t * 4 + k]][0].upper() if self.col[t * 4 + k] >= 0 else "-"
                                   for k in range(4))
                    cells.append(f"{g.symbols[self.tile[t]][:3]}/{cols}{'@' + who if who else ''}")
                rows.append(" ".join(cells))
            lines.append(f"level {level}: " + " | ".join(rows))
        for p in range(self.n):
            hand = ", ".join(f"{g.d_name[d]}" + (f" x{self.hands[p][d]}" if self.hands[p][d] > 1 else "")
                             for d in range(g.D) if self.hands[p][d])
            cubes = ", ".join(f"{self.cubes[p][c]} {cn[c]}" for c in range(g.K) if self.cubes[p][c])
            b = self.builder[p]
            lines.append(f"P{p + 1}: {self.vp[p]} VP, top level {self.top[p]}, builder "
                         f"{geo.describe_pos(b) if b >= 0 else 'beside the pyramid'}; hand [{hand}]; cubes [{cubes}]")
        return "\n".join(lines)

    # ------------------------------------------------------------------ the record
    def record(self) -> GameRecord:
        if self.undealt >= 0:
            self._deal()
        n = self.n
        left = [self.hand_n[p] + self.cube_n[p] for p in range(n)]
        per_player = {k: v[:] for k, v in self.pv.items()}
        per_player["top_level"] = self.top[:]
        per_player["left"] = left
        return GameRecord(
            seats=list(range(n)), winners=list(self.winners), turns=self.turns, rounds=self.rounds,
            actions=self.n_actions, end=self.end, eliminations=[], scores=self.vp[:], counters=dict(self.cnt),
            per_player=per_player,
            details={"level_turns": [t or None for t in self.level_turn], "trades": list(self.trade_log),
                     "tiles_built": self.built})

    # ------------------------------------------------------------------ zones and invariants
    def zones(self) -> dict:
        if self.undealt >= 0:
            self._deal()
        g = self.g
        ids, cols, tiles = g.d_id, g.col_id, g.tile_id
        K = g.K

        def cubes(counts):
            out = []
            for c in range(K):
                if counts[c]:
                    out += [cols[c]] * counts[c]
            return out

        z: dict = {"deck": [ids[d] for d in self.deck], "discard pile": [ids[d] for d in self.discard],
                   "cards being chosen": [ids[d] for d in self.pend_cards],
                   "cards of the build in progress": [ids[d] for d in self.b_cards], "track (set aside)": g.aside}
        for p in range(self.n):
            hand = self.hands[p]
            z[f"P{p + 1}'s hand"] = [ids[d] for d in range(g.D) for _ in range(hand[d])]
            z[f"P{p + 1}'s cubes"] = cubes(self.cubes[p])
        z["tile stacks"] = [tiles[s] for s in range(g.S) for _ in range(self.tiles_left[s])]
        z["pyramid"] = [tiles[s] for s in self.tile if s >= 0]
        z["bag"] = cubes(self.bag)
        z["market"] = cubes(self.market)
        z["drawn cubes"] = cubes(self.pend_cubes)
        z["columns of the pyramid"] = [cols[c] for c in self.col if c >= 0]
        z["columns of the build in progress"] = [cols[c] for c in self.b_cols]
        z["box"] = cubes([g.col_total[c] - g.bag0[c] for c in range(K)]) + list(g.builder_id[self.n:])
        z["builders"] = g.builder_id[:self.n]
        return z

    def check_invariants(self) -> None:
        if self.undealt >= 0:
            self._deal()
        check_conservation(self.zones(), self.g.components(), self.g.component_label)
        g = self.g
        n = self.n
        for p in range(n):
            hand = self.hands[p]
            if min(hand) < 0 or sum(hand) != self.hand_n[p]:
                raise AssertionError(f"P{p + 1}'s hand count {self.hand_n[p]} does not match its cards {hand}")
            col = [0] * g.K
            for d in range(g.D):
                col[g.d_col[d]] += hand[d]
            if col != self.hand_col[p]:
                raise AssertionError(f"P{p + 1}'s cards by colour {self.hand_col[p]} do not match the hand {col}")
            if min(self.cubes[p]) < 0 or sum(self.cubes[p]) != self.cube_n[p]:
                raise AssertionError(f"P{p + 1}'s cube count {self.cube_n[p]} does not match {self.cubes[p]}")
            if self.hand_n[p] > g.hand_limit and (self.phase == MAIN or p != self.tp):
                raise AssertionError(f"P{p + 1} holds {self.hand_n[p]} cards, over the hand limit {g.hand_limit}")
            if not g.negative_vp and self.vp[p] < 0:
                raise AssertionError(f"P{p + 1} has {self.vp[p]} VP although scores stop at 0")
            pv = self.pv
            expect = (pv["vp_levels"][p] + pv["vp_columns"][p] + pv["vp_neighbours"][p] + pv["vp_bonus"][p]
                      - pv["builder_penalties"][p] - pv["forced_penalties"][p] - pv["vp_spent"][p])
            if expect != self.vp[p]:
                raise AssertionError(f"P{p + 1} has {self.vp[p]} VP but its sources add up to {expect}")
        if self.bag_n != sum(self.bag) or min(self.bag) < 0:
            raise AssertionError(f"bag count {self.bag_n} does not match {self.bag}")
        if self.market_n != sum(self.market) or min(self.market) < 0:
            raise AssertionError(f"market count {self.market_n} does not match {self.market}")
        if max(self.market) >= 3 and not self.cnt["market_stuck"]:
            raise AssertionError(f"the market shows 3 or more of a colour: {self._market_text()}")
        # the pyramid: every upper tile on four columns, every column under an upper tile
        counts = [0] * geo.NPOS
        for t in range(geo.NPOS):
            sup = geo.SUPPORT[t]
            if self.tile[t] >= 0:
                if any(self.tile[x] < 0 for x in geo.SUPPORT_TILES[t]):
                    raise AssertionError(f"the tile on {geo.describe_pos(t)} lacks a tile below it")
                if any(self.col[q] < 0 for q in sup):
                    raise AssertionError(f"the tile on {geo.describe_pos(t)} does not stand on four columns")
            elif any(self.col[q] >= 0 for q in sup):
                building = self.phase in (COLOUR,) and t == self.b_pos
                if not building:
                    raise AssertionError(f"columns stand under the empty {geo.describe_pos(t)}")
            for q in sup:
                if self.col[q] >= 0:
                    counts[q >> 2] += 1
        if counts != self.ncol:
            raise AssertionError(f"column counts per tile {self.ncol} do not match the columns {counts}")
        for q in range(geo.NQUARTERS):
            if self.col[q] >= 0 and geo.UPPER_OF[q] < 0:
                raise AssertionError(f"a column stands on quarter {q}, which carries no tile")
        expect_open = tuple(t for t in range(geo.NPOS) if self.tile[t] < 0
                            and all(self.tile[x] >= 0 for x in geo.SUPPORT_TILES[t]))
        if expect_open != self.open:
            raise AssertionError(f"open positions {self.open} should be {expect_open}")
        # builders: on a built tile, one per tile, never above the player's top level
        seen = {}
        for p in range(n):
            b = self.builder[p]
            if b < 0:
                if self.top[p] and self.phase == MAIN:
                    raise AssertionError(f"P{p + 1} has built but its builder is beside the pyramid")
                continue
            if self.tile[b] < 0:
                raise AssertionError(f"P{p + 1}'s builder stands on the empty {geo.describe_pos(b)}")
            if b in seen:
                raise AssertionError(f"P{p + 1}'s and P{seen[b] + 1}'s builders share {geo.describe_pos(b)}")
            seen[b] = p
            if LEVEL[b] > self.top[p]:
                raise AssertionError(f"P{p + 1}'s builder is on level {LEVEL[b]}, above its top level {self.top[p]}")
            if self.ncol[b] == 4 and self.phase == MAIN:
                raise AssertionError(f"P{p + 1}'s builder stands on {geo.describe_pos(b)}, under four columns")
        built = sum(1 for t in self.tile if t >= 0)
        if built != self.built or sum(sum(lb) for lb in self.level_built) != built:
            raise AssertionError(f"{built} tiles in the pyramid, {self.built} counted")
        if self.phase == OVER and self.end.startswith("pyramid") and self.tile[geo.NPOS - 1] < 0:
            raise AssertionError("the game ended on the pyramid without its fourth level")
