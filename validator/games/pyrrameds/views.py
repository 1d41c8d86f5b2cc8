"""What a seat may see (the observation), copies (clone, determinize), the game
record, words (actions, positions) and the invariants ``--strict`` checks.  Mixed
into the State; rules live in state.py."""

from __future__ import annotations

from validator.kit import Chance, GameRecord

from .rules import bounds, supported
from .spec import CHOOSE, MAIN, NONUM, OPERATION, OVER, PATIENT, PHASE_NAMES, SHOW


class Observation:
    """One seat's view: the pyramid (public), its own hand, every hand's size, the
    discarded cards (shown at setup), and what it remembers: ``known[q]``, a bit
    mask of the cards it knows player q holds (revealed to all for a swap, shown to
    it, given by it, seen with an X-ray), and ``exposed[q]``, the cards of its own
    hand that q knows.  Nothing else of another hand.  ``forget()`` drops the
    memory (the forgetful bot)."""

    __slots__ = ("game", "player", "phase", "cur", "tp", "board", "bkind", "bnum", "btype", "open", "hand", "sizes",
                 "bounds", "known", "exposed", "revealed", "discard", "swap_a", "swap_card", "picker", "shown_now",
                 "no_place", "queue")

    def _key(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__ if k != "game") + (id(self.game),)

    def __eq__(self, other) -> bool:
        return isinstance(other, Observation) and self._key() == other._key()

    __hash__ = None

    def forget(self) -> "Observation":
        n = len(self.sizes)
        self.known = (0,) * n
        self.exposed = (0,) * n
        self.revealed = (0,) * n
        return self


class StateViews:
    """Observation, copies, record, words and invariants of a State."""

    # ------------------------------------------------------------------ constructed positions
    @classmethod
    def position(cls, g, pyramid: dict, hands: list, player: int = 0):
        """A constructed position (tests, examples).  ``pyramid``: position name ("row 1",
        "+1.2", "-2.1") -> card id, or (card id, choice) for a named wildcard; ``hands``:
        card ids per player.  A card named twice takes the next copy; every card not
        named is in the discard pile.  ``player`` is to act."""
        s = cls.blank(g)
        free: dict[str, list[int]] = {}
        for c in range(g.NC):
            free.setdefault(g.designs[g.DESIGN[c]].id, []).append(c)

        def take(design: str) -> int:
            if not free.get(design):
                raise ValueError(f"no copy of '{design}' left for this position")
            return free[design].pop(0)

        geo = g.geo
        for name, what in sorted(pyramid.items(), key=lambda kv: abs(geo.LAYER[geo.pos(kv[0])])):
            design, ch = (what, 0) if isinstance(what, str) else what
            pos = geo.pos(name)
            c = take(design)
            s._put(c, pos, None if geo.LAYER[pos] == 0 else ch)
            s.sup_at[pos] = sum(1 << i for i, x in enumerate(geo.SUP[pos]) if s.board[x] >= 0)
        for q, ids in enumerate(hands):
            s.hands[q] = sorted(take(d) for d in ids)
        s.discard = sorted(c for cs in free.values() for c in cs)
        s.open = [p for p in range(geo.P) if s.board[p] < 0 and any(s.board[x] >= 0 for x in geo.SUP[p])]
        s.tp = s.cur = player
        s._begin_turn()
        s.uncounted = False
        return s

    # ------------------------------------------------------------------ observation
    def observe(self, player: int) -> Observation:
        n = self.n
        o = Observation()
        o.game = self.game
        o.player = player
        o.phase, o.cur, o.tp = self.phase, self.cur, self.tp
        snap = self._snap
        if snap is None:
            snap = self._snap = (tuple(self.board), tuple(self.bkind), tuple(self.bnum), tuple(self.btype),
                                 tuple(self.open), dict(self.bounds()))
        o.board, o.bkind, o.bnum, o.btype, o.open, o.bounds = snap
        o.hand = tuple(self.hands[player])
        o.sizes = tuple(len(h) for h in self.hands)
        o.known = tuple(self.known[player * n + q] if q != player else 0 for q in range(n))
        o.exposed = tuple(self.known[q * n + player] if q != player else 0 for q in range(n))
        o.revealed = tuple(self.revealed)
        o.discard = tuple(self.discard)
        o.swap_a, o.swap_card = self.swap_a, self.swap_card
        o.picker = self.picker
        o.shown_now = self.shown_now if player == self.cur or player == self.picker else 0
        o.no_place = self.no_place
        o.queue = tuple((w, k) for w, k in self.queue)
        return o

    # ------------------------------------------------------------------ copies
    def clone(self, chance=None):
        s = self.__class__.__new__(self.__class__)
        s.game, s.n = self.game, self.n
        if chance is None:  # a copy of the generator (Random.__new__ skips seeding it from the system)
            chance = Chance.__new__(Chance)
            chance.setstate(self.chance.getstate())
        s.chance = chance
        s.board, s.bkind, s.bnum, s.btype = self.board[:], self.bkind[:], self.bnum[:], self.btype[:]
        s.open = self.open[:]
        s.hands = [h[:] for h in self.hands]
        s.known = self.known[:]
        s.revealed = self.revealed[:]
        s.discard = self.discard[:]
        s.cur, s.tp, s.phase = self.cur, self.tp, self.phase
        s.queue = [q[:] for q in self.queue]
        s.swap_a, s.swap_card, s.picker, s.shown_now = self.swap_a, self.swap_card, self.picker, self.shown_now
        s.again = self.again
        s.skip = self.skip[:]
        s.no_place, s.passes, s.placed_turn = self.no_place, self.passes, self.placed_turn
        s.uncounted = self.uncounted
        s.turns, s.rounds, s.n_actions = self.turns, self.rounds, self.n_actions
        s.end, s.winners = self.end, self.winners[:]
        s.log = None
        s.moved = self.moved
        s.sup_at = self.sup_at[:]
        s.counts = dict(self.counts)
        s.placed_pp = self.placed_pp[:]
        s.dealt = self.dealt
        s.placed_designs = self.placed_designs[:]
        s._legal = self._legal
        s._snap, s._bnd = self._snap, self._bnd
        return s

    def determinize(self, player: int, chance):
        """A copy in which the opponents' cards ``player`` does not know are dealt
        again at random among the same hands (the pyramid and the discarded cards
        are public; cards it knows stay where it knows them).  What the others know
        of each other becomes what was revealed to all, plus what ``player`` showed."""
        s = self.clone(Chance(chance.getrandbits(64)))
        n = self.n
        pool, slots = [], []
        for q in range(n):
            if q == player:
                continue
            mine = self.known[player * n + q]
            for i, c in enumerate(s.hands[q]):
                if not (mine >> c) & 1:
                    pool.append(c)
                    slots.append((q, i))
        chance.shuffled(pool)
        for (q, i), c in zip(slots, pool):
            s.hands[q][i] = c
        for q in range(n):
            s.hands[q].sort()
        for p in range(n):
            if p == player:
                continue
            for q in range(n):
                if q != player:
                    s.known[p * n + q] = self.revealed[q] if p != q else 0
        s._legal = None
        return s

    # ------------------------------------------------------------------ record
    def record(self) -> GameRecord:
        g = self.game
        return GameRecord(
            seats=list(range(self.n)), winners=list(self.winners), turns=self.turns, rounds=self.rounds,
            actions=self.n_actions, end=self.end, scores=[len(h) for h in self.hands], counters=dict(self.counts),
            per_player={"placed": list(self.placed_pp), "left": [len(h) for h in self.hands]},
            details={"boxes": "+".join(g.boxes), "dealt": tuple(self.dealt), "placed": tuple(self.placed_designs)})

    def standings(self) -> list:
        return [-len(h) for h in self.hands]

    def position_key(self) -> tuple:
        return (tuple(self.board), tuple(self.bnum), tuple(self.btype), tuple(map(tuple, self.hands)), self.cur,
                self.tp, self.phase, self.swap_a, self.swap_card, tuple(map(tuple, self.queue)), tuple(self.known),
                self.again, tuple(self.skip), self.no_place, self.passes)

    def zones(self) -> dict:
        z = {"pyramid": [c for c in self.board if c >= 0], "discard": list(self.discard)}
        for p, h in enumerate(self.hands):
            z[f"hand P{p + 1}"] = list(h)
        return z

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        super().check_invariants()
        g = self.game
        geo = g.geo
        n = self.n
        board = self.board
        expect_open = [p for p in range(geo.P) if board[p] < 0 and supported(geo.SUP, board, p)]
        assert self.open == expect_open, f"open positions {self.open} should be {expect_open}"
        for p in range(geo.P):
            c = board[p]
            if c < 0:
                assert self.bkind[p] == 0, f"empty position {geo.name(p)} has a kind"
                continue
            assert geo.LAYER[p] == 0 or supported(geo.SUP, board, p), \
                f"{g.label(c)} at {geo.name(p)} rests on nothing"
            assert self.bkind[p] == g.KIND[c], f"{geo.name(p)}: kind of {g.label(c)} is wrong"
            if not g.WNUM[c]:
                assert self.bnum[p] == g.NUM[c], f"{geo.name(p)}: number of {g.label(c)} is wrong"
            if g.TYPE[c] >= 0:
                assert self.btype[p] == g.TYPE[c], f"{geo.name(p)}: type of {g.label(c)} is wrong"
            moved = self.moved >> p & 1 or any(self.moved >> s & 1 for s in geo.SUP[p])
            if geo.LAYER[p] and g.KIND[c] != PATIENT and self.bnum[p] != NONUM and not moved:
                had = tuple(x for i, x in enumerate(geo.SUP[p]) if self.sup_at[p] >> i & 1)
                for sups in ((had, geo.SUP[p]) if g.under_check else (had,)):
                    lo, hi = bounds({p: sups}, board, self.bnum, p)
                    assert self.bnum[p] < lo or self.bnum[p] > hi, f"{g.label(c)} ({self.bnum[p]}) at " \
                        f"{geo.name(p)} breaks the number rule (supports {lo}-{hi})"
        for q in range(n):
            hand = self.hands[q]
            assert hand == sorted(hand), f"hand of P{q + 1} is not sorted"
            mask = 0
            for c in hand:
                mask |= 1 << c
            assert self.revealed[q] & ~mask == 0, f"P{q + 1} has revealed cards it no longer holds"
            for p in range(n):
                assert self.known[p * n + q] & ~mask == 0, f"P{p + 1} 'knows' cards P{q + 1} does not hold"
        if self.phase == OVER:
            if self.end == "empty-hand":
                assert len(self.winners) == 1 and not self.hands[self.winners[0]], "the winner still holds cards"
        else:
            assert all(self.hands), "a hand is empty but the game goes on"

    # ------------------------------------------------------------------ words
    def action_to_string(self, a: int) -> str:
        try:
            return self._action_words(a)
        except (IndexError, KeyError):
            return f"action {a}"

    def _action_words(self, a: int) -> str:
        g = self.game
        cd = g.codes
        ph = self.phase
        if ph == MAIN:
            if a >= cd.PLACE:
                c, pos = cd.decode_place(a)
                return f"place {g.label(c)} at {g.geo.name(pos)}"
            if a >= cd.REVEAL:
                return f"reveal {g.label(a - cd.REVEAL)} and swap"
            return "pass"
        if ph in (1, 2):
            pos = a - cd.POS
            c = self.board[pos] if 0 <= pos < g.geo.P else -1
            return f"swap {g.geo.name(pos)}" + (f" ({g.label(c)})" if c >= 0 else "")
        if ph == SHOW:
            return f"show {g.label(a - cd.SHOWC)}"
        if ph == CHOOSE:
            t, num = g.effective(self.swap_card, a - cd.CHOOSE)
            return f"name it {g.type_name(t)} {num if num >= 0 else '?'}"
        if cd.PICK <= a < cd.SHOWC:
            return f"pick P{a - cd.PICK + 1}"
        if cd.GIVE <= a < cd.DISC:
            c, q = divmod(a - cd.GIVE, self.n)
            return f"give {g.label(c)} to P{q + 1}"
        if cd.DISC <= a < cd.PLACE:
            return f"discard {g.label(a - cd.DISC)}"
        return str(a)

    def describe(self) -> str:
        g = self.game
        geo = g.geo
        lines = [f"turn {self.turns}, P{self.cur + 1} to act ({PHASE_NAMES[self.phase]})"]
        R = geo.R
        for k in range(R - 1, -R, -1):
            cells = []
            for i in range(R - abs(k)):
                p = geo.at[(k, 2 * i + abs(k))]
                c = self.board[p]
                if c < 0:
                    cells.append(" . " if p in self.open else "   ")
                    continue
                kind = self.bkind[p]
                if kind == PATIENT:
                    cells.append("Pat")
                else:
                    letter = "O" if kind == OPERATION else (g.type_name(self.btype[p])[:1].upper()
                                                            if self.btype[p] != -2 else "?")
                    num = self.bnum[p]
                    cells.append(f"{letter}{num if num >= 0 else '?'} ")
            if any(x.strip() for x in cells) or k == 0:
                lines.append(f"{k:+3d} " + " " * (2 * abs(k)) + " ".join(cells))
        for q, h in enumerate(self.hands):
            lines.append(f"P{q + 1}: " + ", ".join(g.label(c) for c in h))
        return "\n".join(lines)

