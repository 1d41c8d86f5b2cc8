"""The rules of The Golden Pyramid: one position and how actions change it.

Rules only: no bot heuristics, no statistics beyond the record's counters.  The
State is assembled from three mixins: ``Supply`` (cards, cubes, the market,
trading), ``Building`` (tiles, columns, scoring, builders) and ``Reading`` (what a
seat sees, copies, text, the record, zones, invariants).  The readings of unclear
sentences are in docs/rules-notes.md; the switchable ones are the rules
options in ``constants.PARAMS``.
"""

from __future__ import annotations

from model.errors import IllegalAction
from validator.kit import TERMINAL, shuffle
from validator.kit import State as KitState

from . import geometry as geo
from .building import Building
from .constants import (ACCEPT, BUILD, CARDS, COLOUR, COLOUR_CARD, CUBE, CUBES, DECLINE, DEST, DISCARD, DISCARD_CARD,
                        EMPTY_DRAW, EMPTY_HAND_DRAW, END, END_BONUS, FORCED, KEEP, KEEP_SET, MAIN, MARKET, MARKET_KIND,
                        MOVE, MOVE_KIND, MOVING, OFFER, OFFER_KIND, OFFERING, OVER, PASS, PHASE_NAMES, PLACE, PLACE_NO,
                        PLACE_YES, REFRESH, REFRESHED, RESPOND, RETURN, RETURN_CUBE, SYMBOL, SYMBOL_CARD, TILE, TILE_OF,
                        TRADING)
from .reading import Reading
from .supply import Supply

LEVEL, LEVEL_POSITIONS, NPOS, TOP = geo.LEVEL, geo.LEVEL_POSITIONS, geo.NPOS, geo.LEVELS
AUTO_PHASES = (SYMBOL, TILE, COLOUR, FORCED)
AUTO = tuple(ph in AUTO_PHASES for ph in range(OVER + 1))
PER_PLAYER_KEYS = ("vp_levels", "vp_columns", "vp_neighbours", "builder_penalties", "forced_penalties", "vp_spent",
                   "vp_bonus", "tiles", "no_symbol", "offers", "accepted", "traded")
COUNTER_KEYS = ("builds", "no_symbol", "market_replaced", "market_stuck", "offers", "trades", "market_trades",
                "refreshes", "forced_moves", "builder_penalties", "empty_draws", "reshuffles", "hand_discards",
                "blocked_turns", "blocked_rounds", "longest_blocked", "longest_idle", "passes")


class State(Supply, Building, Reading, KitState):
    __slots__ = ("g", "chance", "log", "n", "cur", "tp", "phase", "turns", "rounds", "n_actions", "end", "winners",
                 "hands", "hand_n", "hand_col", "deck", "discard", "cubes", "cube_n", "bag", "bag_n", "market",
                 "market_n", "tiles_left", "tile", "owner", "ncol", "col", "open", "open_top", "built", "builder",
                 "top", "level_built", "vp", "pv", "cnt", "pend_cubes", "pend_ret", "pend_cards", "pend_keep", "offer",
                 "offered", "b_pos", "b_sym", "b_tile", "b_cards", "b_cols", "b_forced", "forced", "last_build",
                 "round_blocked", "blocked_run", "level_turn", "trade_log", "_legal", "_rch", "held", "stand", "nbs",
                 "open_acts", "open_cut", "lazy", "undealt", "pend_block", "pv_own", "pyr_own")

    def __init__(self, g, chance, *, setup: bool = True):
        self.g = g
        self.chance = chance
        self.log = None
        self._blank()
        if setup:
            self._setup()

    # ------------------------------------------------------------------ setup
    def _blank(self) -> None:
        g = self.g
        n = self.n = g.players
        K = g.K
        self.cur = self.tp = 0
        self.phase = MAIN
        self.turns = self.rounds = 1
        self.n_actions = 0
        self.end = ""
        self.winners = []
        self.hands = [[0] * g.D for _ in range(n)]
        self.held = [[] for _ in range(n)]  # per player, the designs in hand (sorted)
        self.hand_n = [0] * n
        self.hand_col = [[0] * K for _ in range(n)]
        self.deck = list(g.deck0)
        self.discard = []
        self.cubes = [[0] * K for _ in range(n)]
        self.cube_n = [0] * n
        self.bag = list(g.bag0)
        self.bag_n = sum(g.bag0)
        self.market = [0] * K
        self.market_n = 0
        self.tiles_left = list(g.tile_count)
        self.tile = [-1] * NPOS
        self.owner = [-1] * NPOS
        self.ncol = [0] * NPOS
        self.col = [-1] * geo.NQUARTERS
        self.open = LEVEL_POSITIONS[1]
        self.built = 0
        self.builder = [-1] * n
        self.top = [0] * n
        self.level_built = [[0] * (TOP + 1) for _ in range(n)]
        self.vp = [0] * n
        self.pv = {k: [0] * n for k in PER_PLAYER_KEYS}
        self.cnt = dict.fromkeys(COUNTER_KEYS, 0)
        self.pend_cubes = [0] * K
        self.pend_ret = 0
        self.pend_cards = []
        self.pend_keep = 0
        self.offer = None
        self.offered = 0
        self.b_pos = self.b_sym = self.b_tile = -1
        self.b_cards = []
        self.b_cols = []
        self.b_forced = []
        self.forced = []
        self.last_build = 0
        self.round_blocked = True
        self.blocked_run = 0
        self.level_turn = [0] * TOP
        self.trade_log = []
        self._legal = None
        self._rch = None  # the highest level the player to act can build at, worked out when the turn begins
        self.lazy = False  # True in a determinized copy: its deck is unordered and draws are random
        self.undealt = -1  # in a determinized copy, the player whose view it was made for until hands are dealt
        self.pend_block = False  # a turn began before the hands were dealt: whether its player can build is due
        # copies share the pyramid's lists and the per-player statistics until one of them changes them
        self.pv_own = self.pyr_own = True
        self._empty_pyramid()

    def _setup(self) -> None:
        """Shuffle the deck, draw the market (replaced while it shows 3 of a colour), then each player
        draws cubes from the bag and is dealt cards; player 1 starts."""
        g = self.g
        shuffle(self.chance, self.deck)
        self._fill_market(g.market_size)
        self._check_market()
        for p in range(self.n):
            cubes = self.cubes[p]
            for _ in range(g.start_cubes):
                c = self._draw_cube()
                if c >= 0:
                    cubes[c] += 1
                    self.cube_n[p] += 1
            for _ in range(g.start_cards):
                d = self._draw_card()
                if d >= 0:
                    self._to_hand(p, d)
        self._begin_turn()

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.cur

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.phase != OVER or not self.winners:
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if p in self.winners else 0.0 for p in range(self.n)]

    def legal_actions(self, player: int | None = None) -> list[int]:
        legal = self._legal
        if legal is None:
            if self.undealt >= 0 and self.cur != self.undealt:
                self._deal()
            legal = self._legal = self._main_legal() if self.phase == MAIN else self._compute_legal()
        return legal

    def apply_action(self, action: int) -> None:
        legal = self.legal_actions()
        if action not in legal:
            shown = ", ".join(f"{a} ({self.action_to_string(a)})" for a in legal[:10])
            raise IllegalAction(f"action {action} ({self.action_to_string(action)}) is not legal for player "
                                f"{self.cur + 1} in phase '{PHASE_NAMES[self.phase]}' (turn {self.turns}); legal: "
                                f"{shown}{' ...' if len(legal) > 10 else ''}\n{self.describe()}")
        self.apply_unchecked(action)

    def stop(self, reason: str) -> None:
        self._idle_gap()
        self.phase = OVER
        self.winners = []
        self.end = reason
        self._legal = []

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> list[int]:
        ph = self.phase
        if ph == MAIN:
            return self._main_legal()
        p = self.cur
        g = self.g
        if ph == COLOUR:
            cubes, col = self.cubes[p], g.d_col
            acts = []
            for d in self.held[p]:
                if cubes[col[d]]:
                    acts.append(COLOUR_CARD + d)
            return acts
        if ph == RETURN:
            acts = []
            c = RETURN_CUBE
            for k in self.pend_cubes:
                if k:
                    acts.append(c)
                c += 1
            return acts
        if ph == SYMBOL:
            return self._symbol_legal(p)
        if ph == PLACE:
            return [PLACE_YES, PLACE_NO]
        if ph == KEEP:
            return self._keep_legal()
        if ph == MOVING:
            return [MOVE + t for t in self._destinations(p)]
        if ph == DISCARD:
            return [DISCARD_CARD + d for d in self.held[p]]
        if ph == RESPOND:
            return [ACCEPT, DECLINE]
        if ph == OFFERING:
            return self._offers(p)
        if ph == TRADING:
            return self._market_trades(p)
        if ph == TILE:
            return [TILE_OF + s for s in range(g.S) if self.tiles_left[s]]
        if ph == FORCED:
            return [DEST + t for t in self._destinations(p)]
        if ph == REFRESHED:
            return [END] + (self._market_trades(p) if g.negative_vp or self.vp[p] >= 1 else [])
        return []

    def _main_legal(self) -> list[int]:
        g = self.g
        p = self.tp
        hand_n = self.hand_n[p]
        acts = []
        if hand_n == 0 and (self.deck or self.discard):
            for k in range(1, EMPTY_HAND_DRAW + 1):
                if g.negative_vp or self.vp[p] >= k:
                    acts.append(EMPTY_DRAW + k - 1)
        n_cubes = self.cube_n[p]
        if n_cubes and self._can_offer(p):
            acts.append(OFFER_KIND)
        if n_cubes >= 2 and self.market_n:
            acts.append(MARKET_KIND)
            if g.market_refresh and self.bag_n:
                acts.append(REFRESH)
        if self.builder[p] >= 0 and self._can_move(p):
            acts.append(MOVE_KIND)
        if hand_n:
            held = self.held[p]
            if self.bag_n:
                bag, col = self.bag, g.d_col
                one = []
                for d in held:
                    acts.append(CUBES + d)
                    if bag[col[d]]:
                        one.append(CUBE + d)
                acts += one
            for d in held:
                acts.append(CARDS + d)
            reach = self._rch
            if reach is None:
                reach = self._rch = self._reach(p)
            if reach:
                acts += self.open_acts[:self.open_cut[reach]]
        return acts or [PASS]

    def changed(self) -> None:
        """Forget what was worked out from the position (after a test edits the fields directly)."""
        self.held = [[d for d, k in enumerate(hand) if k] for hand in self.hands]
        self._pyramid_changed()
        self._legal = None
        self._rch = None

    # ------------------------------------------------------------------ applying
    def apply_unchecked(self, a: int) -> None:
        if self.undealt >= 0 and self.cur != self.undealt:
            self._deal()
        self.n_actions += 1
        if self.phase == MAIN:
            self._legal = None
            self._main(self.cur, a)
        else:
            self._do(a)
        # a build step with a single possible choice is no decision: it is made at once
        while AUTO[self.phase]:
            acts = self._compute_legal()
            if len(acts) != 1:
                self._legal = acts
                break
            if self.log is not None:
                self._event(f"P{self.cur + 1} must {self.action_to_string(acts[0])}")
            self._do(acts[0])

    def _do(self, a: int) -> None:
        self._legal = None
        ph = self.phase
        p = self.cur
        if ph == MAIN:
            self._main(p, a)
        elif ph == KEEP:
            self._keep(p, a - KEEP_SET)
        elif ph == COLOUR:
            self._colour_chosen(p, a - COLOUR_CARD)
        elif ph == RETURN:
            self._return_cube(a - RETURN_CUBE)
            self._returns_done()
        elif ph == SYMBOL:
            self._symbol_chosen(p, a - SYMBOL_CARD)
        elif ph == MOVING:
            self.builder[p] = a - MOVE
            if self.log is not None:
                self._event(f"P{p + 1} moves the builder to {geo.describe_pos(a - MOVE)}")
            self._end_turn()
        elif ph == TILE:
            self._tile_chosen(p, a - TILE_OF)
        elif ph == PLACE:
            if a == PLACE_YES:
                self.builder[p] = self.b_pos
            self._after_placement(p)
        elif ph == FORCED:
            self.builder[p] = a - DEST
            self._next_forced()
        elif ph == DISCARD:
            d = a - DISCARD_CARD
            self._play(p, d)
            self.cnt["hand_discards"] += 1
            if self.hand_n[p] <= self.g.hand_limit:
                self._next_turn()
        elif ph == RESPOND:
            self._answer(a == ACCEPT)
        elif ph == OFFERING:
            K = self.g.K
            q, rest = divmod(a - OFFER, K * K)
            give, take = divmod(rest, K)
            self.offer = (q, give, take)
            self.cnt["offers"] += 1
            if not self.pv_own:
                self._own_pv()
            self.pv["offers"][p] += 1
            self.phase = RESPOND
            self.cur = q
            if self.log is not None:
                cn = self.g.colours
                self._event(f"P{p + 1} offers P{q + 1} a {cn[give]} column for a {cn[take]} one")
        elif ph == TRADING or ph == REFRESHED:
            if a == END:
                self._end_turn()
                return
            if ph == REFRESHED:
                self._lose(p, 1, "vp_spent")
            self._market_trade(p, a - MARKET)
        else:
            raise IllegalAction(f"no action is possible in phase '{PHASE_NAMES[ph]}'")

    def _main(self, p: int, a: int) -> None:
        g = self.g
        if a >= BUILD:
            self.b_pos = a - BUILD
            self.b_cards = []
            self.b_cols = []
            self.phase = SYMBOL
        elif a >= CARDS:
            d = a - CARDS
            hand = self.hands[p]
            hand[d] -= 1
            if not hand[d]:
                self.held[p].remove(d)
            self.hand_n[p] -= 1
            self.hand_col[p][g.d_col[d]] -= 1
            self.discard.append(d)
            if self.log is not None:
                self._event(f"P{p + 1} plays {g.d_name[d]} to draw {g.d_val[d] + 1} cards")
            self._draw_for_choice(p, g.d_val[d] + 1)
        elif a >= CUBE:
            d = a - CUBE
            self._play(p, d)
            c = g.d_col[d]
            self.bag[c] -= 1
            self.bag_n -= 1
            self.cubes[p][c] += 1
            self.cube_n[p] += 1
            if self.log is not None:
                self._event(f"P{p + 1} plays {g.d_name[d]} for a {g.colours[c]} cube")
            self._end_turn()
        elif a >= CUBES:
            d = a - CUBES
            self._play(p, d)
            if self.log is not None:
                self._event(f"P{p + 1} plays {g.d_name[d]} to draw {g.d_val[d]} cubes")
            self._draw_cubes(p, g.d_val[d])
        elif a == MOVE_KIND:
            self.phase = MOVING
        elif a == OFFER_KIND:
            self.phase = OFFERING
        elif a == MARKET_KIND:
            self.phase = TRADING
        elif a == REFRESH:
            self._refresh_market(p)
            self.phase = REFRESHED
        elif EMPTY_DRAW <= a < EMPTY_DRAW + EMPTY_HAND_DRAW:
            k = a - EMPTY_DRAW + 1
            got = 0
            for _ in range(k):
                x = self._draw_card()
                if x < 0:
                    break
                self._to_hand(p, x)
                got += 1
            self._lose(p, k, "vp_spent")
            self.cnt["empty_draws"] += k
            if self.log is not None:
                self._event(f"P{p + 1} has an empty hand and draws {got} card(s) for {k} VP")
            self._end_turn()
        elif a == PASS:
            self.cnt["passes"] += 1
            if self.log is not None:
                self._event(f"P{p + 1} can do nothing and passes")
            self._end_turn()
        else:
            raise IllegalAction(f"action {a} is not a main action")

    # ------------------------------------------------------------------ turns
    def _end_turn(self) -> None:
        p = self.tp
        self.cur = p
        if self.hand_n[p] > self.g.hand_limit:
            self.phase = DISCARD
            return
        self._next_turn()

    def _next_turn(self) -> None:
        tp = self.tp + 1
        if tp == self.n:
            tp = 0
            self._round_done()
            self.rounds += 1
        self.tp = tp
        self.turns += 1
        self._begin_turn()

    def _round_done(self) -> None:
        if self.round_blocked:
            self.cnt["blocked_rounds"] += 1
            self.blocked_run += 1
            if self.blocked_run > self.cnt["longest_blocked"]:
                self.cnt["longest_blocked"] = self.blocked_run
        else:
            self.blocked_run = 0
        self.round_blocked = True

    def _idle_gap(self) -> None:
        gap = (self.turns - self.last_build) // self.n
        if gap > self.cnt["longest_idle"]:
            self.cnt["longest_idle"] = gap

    def _begin_turn(self) -> None:
        p = self.tp
        self.cur = p
        self.phase = MAIN
        self.offered = 0
        self._legal = None
        g = self.g
        if g.stall_rounds and self.turns - self.last_build > g.stall_rounds * self.n:
            self._finish("no-building")
            return
        if self.undealt >= 0 and p != self.undealt:
            self._rch = None  # the hands are not dealt yet: see _deal
            self.pend_block = True
        else:  # as _blocked_check
            reach = self._rch = self._reach(p)
            if self.open_cut[reach]:
                self.round_blocked = False
            else:
                self.cnt["blocked_turns"] += 1
        if self.log is not None:
            self._event(f"-- turn {self.turns} (round {self.rounds}): P{p + 1}")

    def _own_pv(self) -> None:
        """Before changing the statistics shared with a copy: a copy of them of one's own."""
        pv = self.pv
        self.pv = dict(zip(pv, map(list.copy, pv.values())))
        self.trade_log = self.trade_log[:]
        self.pv_own = True

    def _own_pyramid(self) -> None:
        """Before building on a pyramid shared with a copy: a copy of its lists of one's own."""
        self.tile = self.tile[:]
        self.owner = self.owner[:]
        self.ncol = self.ncol[:]
        self.col = self.col[:]
        self.tiles_left = self.tiles_left[:]
        self.level_built = list(map(list.copy, self.level_built))
        self.level_turn = self.level_turn[:]
        self.pyr_own = True

    def _blocked_check(self, p: int) -> None:
        """Whether the player whose turn begins could build anywhere (the blocked turns and rounds)."""
        reach = self._rch = self._reach(p)
        if self.open_cut[reach]:
            self.round_blocked = False
        else:
            self.cnt["blocked_turns"] += 1

    def _finish(self, reason: str) -> None:
        """The end: the bonus for the highest level contributed to, then most VP wins; ties go to the highest
        level, then to fewer cards plus cubes left, then the tied players share the win."""
        self._idle_gap()
        if not self.pv_own:
            self._own_pv()
        n = self.n
        for p in range(n):
            bonus = END_BONUS[self.top[p]]
            self.vp[p] += bonus
            self.pv["vp_bonus"][p] += bonus
        best = max(self.vp)
        tied = [p for p in range(n) if self.vp[p] == best]
        why = ""
        if len(tied) > 1:
            why = "-level"
            high = max(self.top[p] for p in tied)
            tied = [p for p in tied if self.top[p] == high]
            if len(tied) > 1:
                why = "-resources"
                left = [self.hand_n[p] + self.cube_n[p] for p in range(n)]
                low = min(left[p] for p in tied)
                tied = [p for p in tied if left[p] == low]
                if len(tied) > 1:
                    why = "-tie"
        self.winners = tied
        self.end = reason + why if reason == "pyramid" else reason
        self.phase = OVER
        self._legal = []
        if self.log is not None:
            self._event(f"game over ({self.end}): " + ", ".join(f"P{p + 1} {self.vp[p]} VP" for p in range(n))
                        + "; " + " and ".join(f"P{w + 1}" for w in tied) + (" win" if len(tied) > 1 else " wins"))

    def _event(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)
