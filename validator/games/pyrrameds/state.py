"""One game of Pyrrameds in progress: the rules only.

The pyramid is four lists by position (card, kind, number and type once placed);
hands are sorted lists of card ids; what each player knows of another's hand is a
bit mask over card ids (``known[p * n + q]``: what p knows q holds), fed by the cards
revealed for swaps (to everyone), shown as a patient's reward (to one player),
given away (to the giver) and looked at (X-ray)."""

from __future__ import annotations

from model.errors import IllegalAction
from validator.kit import TERMINAL, Chance, State as KitState

from .rules import bounds, keeps_rule, pair_ok, path_ok, swap_arrays
from .views import StateViews

ANYTYPE, OTHER = 1 << 40, 1 << 41  # in a mask of types: an `any` medicine (flexible), a patient or operation
from .spec import (CHOOSE, COUNTERS, DISCARD, GIVE, MAIN, MEDICINE, NONUM, OPERATION, OVER, PATIENT, PEEK, PHASE_NAMES,
                   PICK, SHOW, SWAP_A, SWAP_B)


class State(StateViews, KitState):
    __slots__ = ("game", "chance", "n", "board", "bkind", "bnum", "btype", "open", "hands", "known", "revealed",
                 "discard", "cur", "tp", "phase", "queue", "swap_a", "swap_card", "picker", "shown_now", "again",
                 "skip", "no_place", "passes", "placed_turn", "uncounted", "turns", "rounds", "n_actions", "end",
                 "winners", "log", "moved", "sup_at", "counts", "placed_pp", "dealt", "placed_designs", "_legal",
                 "_snap", "_bnd")

    # ------------------------------------------------------------------ setup
    @classmethod
    def blank(cls, g, chance=None) -> "State":
        """An empty table: no card anywhere, player 0 to place (tests build positions on it)."""
        s = cls.__new__(cls)
        s.game = g
        s.chance = chance if chance is not None else Chance(0)
        n = s.n = g.players
        P = g.geo.P
        s.board, s.bkind, s.bnum, s.btype = [-1] * P, [0] * P, [NONUM] * P, [-1] * P
        s.open = []
        s.hands = [[] for _ in range(n)]
        s.known = [0] * (n * n)
        s.revealed = [0] * n
        s.discard = []
        s.cur = s.tp = 0
        s.phase = MAIN
        s.queue = []
        s.swap_a = s.swap_card = s.picker = -1
        s.shown_now = 0
        s.again = False
        s.skip = [0] * n
        s.no_place = s.passes = 0
        s.placed_turn = False
        s.uncounted = False
        s.turns = s.rounds = 1
        s.n_actions = 0
        s.end = ""
        s.winners = []
        s.log = None
        s.moved = 0
        s.sup_at = [0] * P  # which supports a placed card had when it was placed (bits of SUP[pos])
        s.counts = dict.fromkeys(COUNTERS, 0)
        s.placed_pp = [0] * n
        s.dealt = []
        s.placed_designs = []
        s._legal = None
        s._snap = s._bnd = None
        return s

    @classmethod
    def new(cls, g, chance) -> "State":
        """The rulebook's setup: 2 medicine and 2 patients to each player, everything
        else shuffled together, a starting row, the rest dealt evenly, leftovers shown
        and discarded.  Player 0 starts.  (The house rule fewer-cards deals the seats
        it names one card fewer of the rest.)"""
        s = cls.blank(g, chance)
        n = s.n
        med, pat = list(g.medicine), list(g.patients)
        chance.shuffled(med)
        chance.shuffled(pat)
        for _ in range(g.start_medicine):
            for p in range(n):
                s.hands[p].append(med.pop())
        for _ in range(g.start_patients):
            for p in range(n):
                s.hands[p].append(pat.pop())
        rest = chance.shuffled(med + pat + list(g.others))
        for pos in g.geo.ROWPOS:
            s._put(rest.pop(), pos, None)
        each = len(rest) // n
        for k in range(each):
            for p in range(n):
                if k < each - g.fewer[p]:  # the house rule fewer-cards: a seat dealt one card fewer
                    s.hands[p].append(rest.pop())
        s.discard = rest  # shown and discarded
        for h in s.hands:
            h.sort()
            s.dealt.extend(g.DESIGN[c] for c in h)
        s.open = sorted(g.geo.FIRST)
        s._begin_turn()
        return s

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.cur

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        w = self.winners
        return [(1.0 / len(w) if p in w else 0.0) for p in range(self.n)]

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply_action(self, action: int) -> None:
        if self._legal is None:
            self._legal = self._compute_legal()
        if action not in self._legal:
            raise IllegalAction(f"action {action} ({self.action_to_string(action)}) is not legal for player "
                                f"{self.cur + 1} ({PHASE_NAMES[self.phase]}); legal: {self._legal[:20]}"
                                f"{' ...' if len(self._legal) > 20 else ''}\n{self.describe()}")
        self.apply_unchecked(action)

    def apply_unchecked(self, a: int) -> None:
        cd = self.game.codes
        self._legal = None
        self.n_actions += 1
        ph = self.phase
        if ph == MAIN:
            if a >= cd.PLACE:
                c, pos = cd.decode_place(a)
                if self.game.NAMED[c]:
                    self.swap_a, self.swap_card = pos, c  # the placement waiting for its named type or number
                    self.phase = CHOOSE
                else:
                    self._place(c, pos, 0)
            elif a >= cd.REVEAL:
                self._reveal(a - cd.REVEAL)
            else:
                self._pass()
        elif ph == SWAP_A:
            self.swap_a = a - cd.POS
            self.phase = SWAP_B
        elif ph == SWAP_B:
            self._swap(self.swap_a, a - cd.POS)
        elif ph == PICK:
            self._pick(a - cd.PICK)
        elif ph == PEEK:
            self._peek(a - cd.PICK)
        elif ph == SHOW:
            self._show(self.cur, a - cd.SHOWC)
        elif ph == GIVE:
            c, q = divmod(a - cd.GIVE, self.n)
            self._give(c, q)
        elif ph == DISCARD:
            self._discard(a - cd.DISC)
        elif ph == CHOOSE:
            c, pos = self.swap_card, self.swap_a
            self.swap_a = self.swap_card = -1
            self.phase = MAIN
            self._place(c, pos, a - cd.CHOOSE)

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> list[int]:
        ph = self.phase
        g = self.game
        cd = g.codes
        if ph == OVER:
            return []
        if ph == MAIN:
            acts = [cd.REVEAL + c for c in self.hands[self.cur] if self.reveal_ok(c)]
            acts += self.placements(self.cur)
            acts = acts or [cd.PASS]
            if self.uncounted:
                self.uncounted = False
                self._count_turn(acts)
            return acts
        if ph == SWAP_A:
            return [cd.POS + a for a in self._swap_firsts()]
        if ph == SWAP_B:
            a = self.swap_a
            return [cd.POS + b for b in range(g.geo.P) if self._pair(a, b)]
        if ph == PICK or ph == PEEK:
            me = self.picker
            return [cd.PICK + q for q in range(self.n) if q != me and self.hands[q]]
        if ph == SHOW:
            hand = self.hands[self.cur]
            fresh = [c for c in hand if not (self.shown_now >> c) & 1]
            return [cd.SHOWC + c for c in (fresh or hand)]
        if ph == GIVE:
            p = self.cur
            return [cd.GIVE + c * self.n + q for c in self.hands[p] for q in range(self.n) if q != p]
        if ph == DISCARD:
            return [cd.DISC + c for c in self.hands[self.cur]]
        if ph == CHOOSE:
            return [cd.CHOOSE + ch for ch in self.choices(self.swap_card, self.swap_a)]
        raise AssertionError(f"unknown phase {ph}")

    def placements(self, p: int) -> list[int]:
        """Every legal placement of player p's hand cards (sorted actions; a
        wildcard's type or number is named in a second decision)."""
        g = self.game
        geo = g.geo
        NB = geo.NB
        bkind, btype = self.bkind, self.btype
        P = geo.P
        if g.under_check:
            spots = [(pos, lo, hi, self._under(pos)) for pos, (lo, hi) in self.bounds().items()]
        else:
            spots = [(pos, lo, hi, None) for pos, (lo, hi) in self.bounds().items()]
        acts = []
        near = None
        KIND, NUM, WNUM = g.KIND, g.NUM, g.WNUM
        plain = not g.under_check
        PL = g.codes.PLACE
        nums = g.numbers if g.choose_number else None
        for c in self.hands[p]:
            base = PL + c * P
            k = KIND[c]
            if k != PATIENT:
                n = NUM[c]
                if WNUM[c]:
                    if nums is None:  # wild-number=blank: fits anywhere
                        acts += [base + pos for pos, _, _, _ in spots]
                    else:
                        acts += [base + pos for pos, lo, hi, under in spots
                                 if any((x < lo or x > hi) and (under is None or under(x)) for x in nums)]
                elif plain:
                    acts += [base + pos for pos, lo, hi, _ in spots if n < lo or n > hi]
                else:
                    acts += [base + pos for pos, lo, hi, under in spots if (n < lo or n > hi) and
                             (under is None or under(n))]
                continue
            need, nw, extra, want = g.NEED[c], g.NWILD[c], g.path_extra, g.WANT[c] | ANYTYPE
            if near is None:  # the types of the medicine touching each open position
                near = {}
                for pos, _, _, _ in spots:
                    m = 0
                    for q, _, _ in NB[pos]:
                        if bkind[q] == MEDICINE:
                            m |= ANYTYPE if btype[q] == -2 else 1 << btype[q]
                        elif bkind[q]:
                            m |= OTHER
                    near[pos] = m
            for pos, _, _, _ in spots:
                m = near[pos]
                if (m & want or extra and m & OTHER) and path_ok(NB, bkind, btype, pos, need, nw, extra):
                    acts.append(base + pos)
        return acts

    def choices(self, c: int, pos: int) -> list[int]:
        """The types and numbers wildcard c may be named when placed at pos (choice indices)."""
        g = self.game
        nt = g.NT if g.TYPE[c] == -2 and not g.flexible else 1
        if g.WNUM[c] and g.choose_number:
            lo, hi = self.bounds()[pos]
            under = self._under(pos) if g.under_check else None
            good = [i for i, x in enumerate(g.numbers) if (x < lo or x > hi) and (under is None or under(x))]
        else:
            good = [0]
        return [ti * g.NN + i for ti in range(nt) for i in good]

    def bounds(self) -> dict:
        """Open position -> (lowest, highest) number among its supports (cached until the pyramid changes)."""
        b = self._bnd
        if b is None:
            SUP, board, bnum = self.game.geo.SUP, self.board, self.bnum
            b = self._bnd = {pos: bounds(SUP, board, bnum, pos) for pos in self.open}
        return b

    def _under(self, pos: int):
        """under-check: a test of a number placed at ``pos`` against the numbered
        cards already resting on it (None when there are none)."""
        geo = self.game.geo
        tests = []
        for o in geo.OUT[pos]:
            if self.board[o] >= 0 and self.bnum[o] != NONUM and self.bkind[o] != PATIENT:
                lo, hi = bounds(geo.SUP, self.board, self.bnum, o)
                tests.append((self.bnum[o], lo, hi))
        if not tests:
            return None
        return lambda x: all(m < min(lo, x) or m > max(hi, x) for m, lo, hi in tests)

    def reveal_ok(self, c: int) -> bool:
        """Is there a swap this hand card allows?"""
        g = self.game
        if g.KIND[c] == OPERATION and not g.reveal_op:
            return False
        if g.keep_rule:
            return bool(self._swap_firsts(c))
        bkind, btype = self.bkind, self.btype
        k = g.KIND[c]
        if k == OPERATION:
            return True
        if k == MEDICINE:
            t = g.TYPE[c]
            for q in range(g.geo.P):
                if bkind[q] == MEDICINE and (t == -2 or btype[q] == t or btype[q] == -2):
                    return True
            return False
        w, have = g.WANT[c], 0
        for q in range(g.geo.P):
            if bkind[q] == MEDICINE and (btype[q] == -2 or btype[q] >= 0 and (w >> btype[q]) & 1):
                have += 1
                if have == 2:
                    return True
        return False

    def _pair(self, a: int, b: int, c: int | None = None) -> bool:
        g = self.game
        c = self.swap_card if c is None else c
        if not pair_ok(g, self.bkind, self.btype, c, a, b):
            return False
        return not g.keep_rule or keeps_rule(g.geo.SUP, g.geo.OUT, self.board, self.bkind, self.bnum, a, b)

    def _swap_firsts(self, c: int | None = None) -> list[int]:
        """The cards that can be the first of a swap allowed by revealing c (-1: free)."""
        g = self.game
        c = self.swap_card if c is None else c
        P = g.geo.P
        filled = [q for q in range(P) if self.board[q] >= 0]
        if g.keep_rule:
            return [a for a in filled if any(self._pair(a, b, c) for b in filled)]
        if len(filled) < 2:
            return []
        if c < 0 or g.KIND[c] == OPERATION:
            return filled if c < 0 or g.reveal_op else []
        bkind, btype = self.bkind, self.btype
        if g.KIND[c] == PATIENT:
            w = g.WANT[c]
            wanted = [a for a in filled
                      if bkind[a] == MEDICINE and (btype[a] == -2 or btype[a] >= 0 and w >> btype[a] & 1)]
            return wanted if len(wanted) >= 2 else []
        # a medicine: one of the two must be of its type (any medicine for an `any` one)
        t = g.TYPE[c]
        typed = [a for a in filled if bkind[a] == MEDICINE and (t == -2 or btype[a] == t or btype[a] == -2)]
        return filled if typed else []

    # ------------------------------------------------------------------ moves
    def _put(self, c: int, pos: int, ch: int | None) -> None:
        g = self.game
        t, n = g.effective(c, ch)
        self._snap = self._bnd = None
        self.board[pos] = c
        self.bkind[pos] = g.KIND[c]
        self.bnum[pos] = n
        self.btype[pos] = t

    def _forget(self, p: int, c: int) -> None:
        """Card c left p's hand: nobody knows it is there any more."""
        bit = ~(1 << c)
        n = self.n
        for q in range(n):
            self.known[q * n + p] &= bit
        self.revealed[p] &= bit

    def _place(self, c: int, pos: int, ch: int) -> None:
        g = self.game
        p = self.cur
        self.hands[p].remove(c)
        self._forget(p, c)
        self._put(c, pos, ch)
        self.sup_at[pos] = sum(1 << i for i, x in enumerate(g.geo.SUP[pos]) if self.board[x] >= 0)
        opn = self.open
        opn.remove(pos)
        for o in g.geo.OUT[pos]:
            if self.board[o] < 0 and o not in opn:
                opn.append(o)
        opn.sort()
        self.placed_turn = True
        self.placed_pp[p] += 1
        self.placed_designs.append(g.DESIGN[c])
        cnt = self.counts
        cnt["placements"] += 1
        k = g.KIND[c]
        if self.log is not None:
            extra = ""
            if g.WNUM[c] or g.TYPE[c] == -2:
                extra = f" as {g.type_name(self.btype[pos])} {self.bnum[pos] if self.bnum[pos] >= 0 else '?'}"
            self._event(f"P{p + 1} places {g.label(c)} at {g.geo.name(pos)}{extra}")
        if not self.hands[p]:
            self._finish("empty-hand", [p])
            return
        if k == PATIENT:
            cnt["patients"] += 1
            if g.NREQ[c]:
                self.queue.append(["show", g.NREQ[c]])
        elif k == OPERATION:
            cnt["operations"] += 1
            self.queue.extend([w, x] for w, x in g.EFFECT[c])
        self._resume()

    def _reveal(self, c: int) -> None:
        p = self.cur
        bit = 1 << c
        self.revealed[p] |= bit
        for q in range(self.n):
            self.known[q * self.n + p] |= bit
        self.swap_card = c
        self.counts["swaps"] += 1
        if self.log is not None:
            self._event(f"P{p + 1} reveals {self.game.label(c)} to swap")
        self.phase = SWAP_A

    def _swap(self, a: int, b: int) -> None:
        g = self.game
        swap_arrays((self.board, self.bkind, self.bnum, self.btype), a, b)
        self._snap = self._bnd = None
        self.moved |= (1 << a) | (1 << b)
        if self.log is not None:
            self._event(f"P{self.cur + 1} swaps {g.geo.name(a)} and {g.geo.name(b)}: "
                        f"{g.label(self.board[a])} <-> {g.label(self.board[b])}")
        self.swap_a = -1
        self.swap_card = -1
        self._resume()

    def _pass(self) -> None:
        self.counts["passes"] += 1
        if self.log is not None:
            self._event(f"P{self.cur + 1} can neither place nor swap: passes")
        self._end_turn(passed=True)

    def _pick(self, q: int) -> None:
        if self.game.random_show:
            hand = self.hands[q]
            fresh = [c for c in hand if not (self.shown_now >> c) & 1] or hand
            self._show(q, fresh[self.chance.draw(len(fresh))])
            return
        self.phase = SHOW
        self.cur = q

    def _show(self, q: int, c: int) -> None:
        p = self.picker
        self.known[p * self.n + q] |= 1 << c
        self.shown_now |= 1 << c
        self.counts["shown"] += 1
        if self.log is not None:
            self._event(f"P{q + 1} shows P{p + 1} a card ({self.game.label(c)})")
        self.cur = p
        self._resume()

    def _peek(self, q: int) -> None:
        p = self.picker
        mask = 0
        for c in self.hands[q]:
            mask |= 1 << c
        self.known[p * self.n + q] = mask
        self.counts["peeks"] += 1
        if self.log is not None:
            self._event(f"P{p + 1} looks at P{q + 1}'s hand")
        self._resume()

    def _give(self, c: int, q: int) -> None:
        p = self.cur
        self.hands[p].remove(c)
        self._forget(p, c)
        self.hands[q].append(c)
        self.hands[q].sort()
        self.known[p * self.n + q] |= 1 << c
        self.counts["given"] += 1
        if self.log is not None:
            self._event(f"P{p + 1} gives P{q + 1} a card ({self.game.label(c)})")
        if not self.hands[p]:
            self._finish("empty-hand", [p])
            return
        self._resume()

    def _discard(self, c: int) -> None:
        p = self.cur
        self.hands[p].remove(c)
        self._forget(p, c)
        self.discard.append(c)
        if self.log is not None:
            self._event(f"P{p + 1} discards {self.game.label(c)}")
        if not self.hands[p]:
            self._finish("empty-hand", [p])
            return
        self._resume()

    def _resume(self) -> None:
        """Carry out the pending effects in order; end the turn when none is left."""
        q = self.queue
        p = self.tp
        while q:
            word, k = q[0]
            if k <= 0:
                q.pop(0)
                self.shown_now = 0
                continue
            q[0][1] = k - 1
            if word == "again":
                self.again = True
            elif word == "skip":
                self.skip[(p + 1) % self.n] += 1
            elif word == "swap":
                self.swap_card = -1
                if self._swap_firsts(-1):
                    self.counts["free_swaps"] += 1
                    self.phase = SWAP_A
                    self.cur = p
                    return
            elif word in ("show", "peek"):
                if any(self.hands[x] for x in range(self.n) if x != p):
                    self.picker = p
                    self.phase = PICK if word == "show" else PEEK
                    self.cur = p
                    return
            elif word == "give":
                self.phase = GIVE
                self.cur = p
                return
            elif word == "discard":
                self.phase = DISCARD
                self.cur = p
                return
        self.shown_now = 0
        self.picker = -1
        self.cur = p
        self.phase = MAIN
        self._end_turn()

    def _end_turn(self, passed: bool = False) -> None:
        n = self.n
        self.no_place = 0 if self.placed_turn else self.no_place + 1
        self.passes = self.passes + 1 if passed else 0
        mode = self.game.stalemate
        if mode == "no-placement" and self.no_place >= n or mode == "no-move" and self.passes >= n:
            self._finish_by_count()
            return
        if mode == "never" and self.passes >= n:
            self.stop("stuck")
            return
        if self.again:
            self.again = False
            nxt = self.tp
        else:
            nxt = self.tp
            while True:
                prev = nxt
                nxt = (nxt + 1) % n
                if nxt <= prev:
                    self.rounds += 1
                if self.skip[nxt]:
                    self.skip[nxt] -= 1
                    if self.log is not None:
                        self._event(f"P{nxt + 1} misses a turn")
                    continue
                break
        self.tp = self.cur = nxt
        self.turns += 1
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.phase = MAIN
        self.placed_turn = False
        self._legal = None
        self.uncounted = True  # the turn's counters are taken when its legal actions are first asked for

    def _count_turn(self, legal: list[int]) -> None:
        """A turn begins: count whether a patient could be placed and whether a swap is the only move."""
        g = self.game
        p = self.tp
        cnt = self.counts
        PL = g.codes.PLACE
        if any(g.KIND[c] == PATIENT for c in self.hands[p]):
            cnt["patient_turns"] += 1
            P = g.geo.P
            for a in legal:
                if a >= PL and g.KIND[(a - PL) // P] == PATIENT:
                    cnt["patient_chances"] += 1
                    break
        if legal[-1] < PL and legal[0] != g.codes.PASS:
            cnt["swap_only"] += 1

    def _finish_by_count(self) -> None:
        least = min(len(h) for h in self.hands)
        winners = [p for p in range(self.n) if len(self.hands[p]) == least]
        self._finish("stalemate" if len(winners) == 1 else "stalemate-tie", winners)

    def _finish(self, reason: str, winners: list[int]) -> None:
        self.end = reason
        self.winners = winners
        self.phase = OVER
        self._legal = []
        if self.log is not None:
            self._event(f"game over ({reason}): " + ", ".join(f"P{p + 1}" for p in winners) + " won")

    def stop(self, reason: str) -> None:
        self.end = reason
        self.winners = []
        self.phase = OVER
        self._legal = []

    def _event(self, text: str) -> None:
        self.log.append(text)
