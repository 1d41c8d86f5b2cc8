"""The rules of Pyramid Scheme as a state machine: setup, the two actions,
placement restrictions, flips and rewards (:mod:`.rewards`), goals and police,
elimination and the end.  Rules only: the bots' judgement is in
:mod:`.heuristics`, text in :mod:`.text`, invariants in :mod:`.invariants`.

``cur`` decides; ``turn_player`` owns the turn.  Every shuffle draws from the
``Chance`` the state was made with.
"""

from __future__ import annotations

from model.errors import IllegalAction
from validator.kit import TERMINAL, Chance
from validator.kit import State as KitState
from validator.kit.chance import copy_generator, shuffle

from . import observation, positions
from .accounts import Accounts
from .goals import MET
from .pyramid import Pyramid
from .rewards import Rewards
from .spec import (ELIMINATION_CAUSES, END, END_REASONS, ENDTURN, HSTRIDE, LIMIT, MAIN, OFFER, OVER,
                   PHASE_NAMES, PLACE, POLICE, POLICE_PLACE, RESET, TAKE, TARGET, VICTIM, YES)
from .text import Text


class State(Rewards, Text, Accounts, KitState):
    """One game in progress.  ``cur`` decides; ``turn_player`` owns the turn."""

    __slots__ = ("g", "rng", "n", "alive", "hands", "secret", "limit", "resets", "passes", "pyr", "deck", "display",
                 "discard", "out", "police", "box", "sup_reset", "sup_pass", "sup_limit", "goals_open", "reserved",
                 "claimed", "start", "turn_player", "cur", "phase", "actions_left", "todo", "pending", "turns",
                 "rounds", "last_seat", "n_actions", "end", "winners", "eliminated", "log", "_legal", "memo",
                 "st_drawn", "st_placed", "st_flipped", "st_goals", "st_rew", "st_counts")

    def __init__(self, g, rng: Chance | None, *, setup: bool = True):
        self.g = g
        self.rng = rng
        self.log = None
        self.memo = {}  # observers cache derived figures here; the rules never read it, a copy starts empty
        if setup:
            self._setup()

    @property
    def game(self):
        return self.g

    # -- setup
    def _blank(self, n: int) -> None:
        g = self.g
        self.n = n
        self.alive = [True] * n
        self.hands = [[] for _ in range(n)]
        self.secret = [set() for _ in range(n)]
        self.limit = [g.hand_limit] * n
        self.resets = [0] * n
        self.passes = [0] * n
        self.pyr = []
        self.deck = []
        self.display = []
        self.discard = []
        self.out = []
        self.police = list(g.police)
        self.box = []
        self.sup_reset = g.sup_reset
        self.sup_pass = g.sup_pass
        self.sup_limit = dict(g.sup_limit)
        self.goals_open = []
        self.reserved = {}
        self.claimed = [[] for _ in range(n)]
        self.start = 0
        self.turn_player = 0
        self.cur = 0
        self.phase = MAIN
        self.actions_left = g.actions
        self.todo = []
        self.pending = None
        self.turns = 1
        self.rounds = 1
        self.last_seat = 0
        self.n_actions = 0
        self.end = ""
        self.winners = []
        self.eliminated = []
        self._legal = None
        self.st_drawn = [0] * len(g.designs)
        self.st_placed = []
        self.st_flipped = []
        self.st_goals = []
        self.st_rew = {}
        self.st_counts = {"police_placed": 0, "police_short": 0, "resets_spent": 0, "passes_spent": 0,
                          "reshuffles": 0, "limit_short": 0, "reset_short": 0, "pass_short": 0}

    def _setup(self) -> None:
        g, rng = self.g, self.rng
        n = g.players
        self._blank(n)
        deck = list(g.victims)
        shuffle(rng, deck)
        self.deck = deck
        founders = list(g.founders)
        shuffle(rng, founders)
        self.pyr = [Pyramid(len(g.colors), founders[p], g.NUM[founders[p]]) for p in range(n)]
        for p in range(n):
            d = g.DESIGN[founders[p]]
            self.st_drawn[d] += 1
            self.st_placed.append((p, d))
        self.box.extend(founders[n:])
        for _ in range(g.start_hand):
            for p in range(n):
                c = self._draw()
                self.hands[p].append(c)
                if g.hands_hidden:
                    self.secret[p].add(c)
        self.display = [self._draw() for _ in range(g.display_size)]
        goals = list(range(len(g.goals)))
        shuffle(rng, goals)
        self.goals_open = sorted(goals[:g.open_goals])
        self.box.extend(("goal", i) for i in goals[g.open_goals:])
        for p in range(n):
            self.resets[p] = g.start_resets
        self.sup_reset -= n * g.start_resets
        sums = [sum(g.NUM[c] for c in h) for h in self.hands]
        low = min(sums)
        tied = [p for p in range(n) if sums[p] == low]
        self.start = tied[0] if len(tied) == 1 else tied[int(rng.random() * len(tied))]
        self.turn_player = self.cur = self.start
        self._begin_turn()

    @classmethod
    def position(cls, g, **kw) -> "State":
        """A constructed position, for tests and examples (see :func:`.positions.build`)."""
        return positions.build(cls, g, **kw)

    # -- protocol
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.cur

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.phase != OVER or not self.winners:
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if p in self.winners else 0.0 for p in range(self.n)]

    def seat(self, player: int) -> int:
        """Place in the turn order: 0 for the start player."""
        return (player - self.start) % self.n

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[int]:
        ph = self.phase
        if ph == MAIN:
            return self._main_legal()[0]
        if ph == OVER:
            return []
        if ph == ENDTURN:
            return [RESET, END]
        if ph == OFFER:
            return [END, YES]
        targets = self.pending[1]
        if ph in (LIMIT, POLICE_PLACE):
            return [TARGET + t for t in targets]
        return [END] + [TARGET + t for t in targets]

    def _main_legal(self) -> tuple[list[int], bool]:
        """Main-phase actions, and whether any of them is a real action (take or place)."""
        g = self.g
        p = self.cur
        hand = self.hands[p]
        acts = []
        if len(hand) < self.limit[p]:
            display = self.display
            if -1 in display:  # a slot the deck could not refill
                acts = [TAKE + i for i, c in enumerate(display) if c >= 0]
            else:
                acts = list(range(TAKE, TAKE + len(display)))
        real = bool(acts)
        if self.resets[p]:
            acts.append(RESET)
        pyr = self.pyr[p]
        cap, mask = pyr.cap, pyr.mask
        nodes = range(len(cap))
        NUM, CBIT = g.NUM, g.CBIT
        base = PLACE
        colour_rule = 0 if self.passes[p] > 0 else -1  # a colour pass lifts the colour rule
        before = len(acts)
        for c in hand:
            n = NUM[c]
            b = CBIT[c] & colour_rule
            for v in nodes:
                if cap[v] >= n and not mask[v] & b:
                    acts.append(base + v)
            base += HSTRIDE
        return acts, real or len(acts) > before

    def placement_error(self, p: int, c: int, v: int, use_pass: bool = False) -> str | None:
        """Why card ``c`` may not go directly below node ``v`` of player ``p``'s
        pyramid (the three placement restrictions), or None when it may."""
        g = self.g
        pyr = self.pyr[p]
        if not 0 <= v < len(pyr.card) or pyr.card[v] < 0:
            return f"there is no card at node {v}"
        above = pyr.card[v]
        if g.KIND[above] == POLICE and not pyr.flipped[v]:
            return "nothing may be placed below a police (restriction 3)"
        room = g.NUM[above] + sum(pyr.tok[v])
        total = room - pyr.cap[v] + g.NUM[c]
        if total > room:
            return (f"the numbers directly below {g.card_label(above)} would add up to {total}, more than "
                    f"{room} (restriction 1)")
        if g.KIND[c] == VICTIM and pyr.mask[v] & g.CBIT[c] and not use_pass:
            w = v
            while w >= 0 and not (g.KIND[pyr.card[w]] == VICTIM and g.COL[pyr.card[w]] == g.COL[c]
                                  and not pyr.flipped[w]):
                w = pyr.parent[w]
            where = "directly above it" if w == v else "higher up on the same branch"
            return (f"{g.card_label(pyr.card[w])} of the same colour is {where} and not flipped (restriction 2)")
        return None

    def apply_action(self, a: int) -> None:
        legal = self.legal_actions()
        if a not in legal:
            if self.phase == MAIN and a >= PLACE:
                h, v = divmod(a - PLACE, HSTRIDE)
                hand = self.hands[self.cur]
                if h < len(hand):
                    why = self.placement_error(self.cur, hand[h], v, self.passes[self.cur] > 0)
                    if why:
                        raise IllegalAction(f"player {self.cur + 1} cannot {self.action_to_string(a)}: {why}")
            raise IllegalAction(f"action {a} ({self.action_to_string(a)}) is not legal for player {self.cur + 1} "
                                f"in phase '{PHASE_NAMES[self.phase]}'; legal: {legal[:12]}"
                                f"{' ...' if len(legal) > 12 else ''}")
        self.apply_unchecked(a)

    def apply_unchecked(self, a: int) -> None:
        """Apply a legal action (no legality check: the fast path for bots)."""
        self._legal = None
        self.n_actions += 1
        ph = self.phase
        if ph == MAIN:
            if a >= PLACE:
                h, v = divmod(a - PLACE, HSTRIDE)
                self._place(h, v)
            elif a == RESET:
                self._use_reset()
                if self.phase != OVER:
                    self._main_or_crumble()
            else:
                self._take(a - TAKE)
        elif ph == ENDTURN:
            if a == RESET:
                self._use_reset()
                if self.phase != OVER:
                    if self.resets[self.cur]:
                        self._legal = None
                    else:
                        self._next_turn()
            else:
                self._next_turn()
        else:
            self._decide(ph, a)

    # -- the two actions
    def _take(self, slot: int) -> None:
        p = self.cur
        c = self.display[slot]
        self.hands[p].append(c)
        if self.log is not None:
            self._event(f"P{p + 1} takes {self.g.card_label(c)} from the display")
        self.display[slot] = -1
        self.display[slot] = self._draw()
        if self.log is not None and self.display[slot] >= 0:
            self._event(f"the display gets {self.g.card_label(self.display[slot])} from the deck")
        if self.phase == OVER:
            return
        self.actions_left -= 1
        self._action_done()

    def _place(self, h: int, v: int) -> None:
        g = self.g
        p = self.cur
        hand = self.hands[p]
        c = hand.pop(h)
        self.secret[p].discard(c)
        pyr = self.pyr[p]
        with_pass = bool(pyr.mask[v] & g.CBIT[c])
        if with_pass:
            self.passes[p] -= 1
            self.sup_pass += 1
            self.st_counts["passes_spent"] += 1
        node = pyr.add(g, c, v, with_pass)
        self.st_placed.append((p, g.DESIGN[c]))
        if self.log is not None:
            self._event(f"P{p + 1} places {g.card_label(c)} below {g.card_label(pyr.card[v])}"
                        + (" (spends a colour pass)" if with_pass else ""))
        self.actions_left -= 1
        self.todo.append(("goals",))
        if g.KIND[pyr.card[v]] != POLICE and not pyr.flipped[v] and pyr.condition_met(g, v):
            self.todo.append(("offer", v) if g.optional_flip else ("flip", v, True))
        del node
        self._resume()

    def _use_reset(self) -> None:
        p = self.cur
        self.resets[p] -= 1
        self.sup_reset += 1
        self.st_counts["resets_spent"] += 1
        old = [c for c in self.display if c >= 0]
        self.discard.extend(old)
        if self.log is not None:
            self._event(f"P{p + 1} spends a reset token: the display is discarded")
        self.display = [-1] * len(self.display)
        for i in range(len(self.display)):
            self.display[i] = self._draw()
            if self.phase == OVER:
                return

    def _draw(self) -> int:
        """The top victim of the deck, or -1 when none is left.  Reshuffles the
        discard pile and ends the game as the deck_exhaustion option says."""
        deck = self.deck
        if not deck:
            if self.discard:
                self._reshuffle()
                deck = self.deck
            else:
                self._finish_by_count()
                return -1
        c = deck.pop()
        self.st_drawn[self.g.DESIGN[c]] += 1
        if not deck and not self.g.refill_mode:
            if self.discard:
                self._reshuffle()
            else:
                self._finish_by_count()
        return c

    def _reshuffle(self) -> None:
        self.deck = self.discard
        self.discard = []
        shuffle(self.rng, self.deck)
        self.st_counts["reshuffles"] += 1
        if self.log is not None:
            self._event(f"the discard pile ({len(self.deck)} victims) is shuffled into a new deck")

    # -- after an action
    def _action_done(self) -> None:
        if self.phase == OVER:
            return
        self.cur = self.turn_player
        if self.actions_left <= 0:
            if self.g.reset_after and self.resets[self.cur]:
                self.phase = ENDTURN
            else:
                self._next_turn()
            return
        self._main_or_crumble()

    def _main_or_crumble(self) -> None:
        self.phase = MAIN
        acts, real = self._main_legal()
        if real:
            self._legal = acts
            return
        self._eliminate(self.turn_player, "actions")
        if self.phase != OVER:
            self._next_turn()

    def _next_turn(self) -> None:
        n = self.n
        p = self.turn_player
        for _ in range(n):
            p = (p + 1) % n
            if self.alive[p]:
                break
        seat = (p - self.start) % n
        if seat <= self.last_seat:
            self.rounds += 1
        self.last_seat = seat
        self.turns += 1
        self.turn_player = self.cur = p
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.actions_left = self.g.actions
        self._legal = None
        if self.log is not None:
            self._event(f"-- turn {self.turns} (round {self.rounds}): P{self.turn_player + 1}")
        self._main_or_crumble()

    # -- rewards, goals, police: the queue after a placement
    def _resume(self) -> None:
        """Work through the queue until a player must decide or it is empty."""
        todo = self.todo
        while todo:
            if self.phase == OVER:
                todo.clear()
                return
            task = todo.pop()
            kind = task[0]
            if kind == "flip":
                self._flip(self.cur, task[1], task[2])
            elif kind == "reward":
                if self._reward(task[1], task[2]):
                    return
            elif kind == "goals":
                self._check_goals(self.turn_player)
            elif kind == "police":
                if self._police(task[1]):
                    return
            elif kind == "offer":
                self.phase = OFFER
                self.pending = ("offer", (task[1],))
                return
        if self.phase != OVER:
            self._action_done()

    # -- elimination and the end
    def _eliminate(self, p: int, cause: str) -> None:
        g = self.g
        self.alive[p] = False
        self.eliminated.append((p, cause, self.turns))
        if self.log is not None:
            self._event(f"P{p + 1}'s pyramid crumbles ({ELIMINATION_CAUSES[cause]}): out of the game")
        to = self.out if g.crumble_out else self.discard
        to.extend(self.hands[p])
        self.hands[p] = []
        self.secret[p] = set()
        pyr = self.pyr[p]
        for v, c in enumerate(pyr.card):
            if c < 0:
                continue
            k = g.KIND[c]
            if k == VICTIM:
                to.append(c)
            elif k == POLICE:
                self.police.append(c)
            else:
                self.box.append(c)
            for amount in pyr.tok[v]:
                self.sup_limit[amount] += 1
        self.pyr[p] = Pyramid.empty(len(g.colors))
        self.sup_reset += self.resets[p]
        self.sup_pass += self.passes[p]
        self.resets[p] = self.passes[p] = 0
        for gi, owner in list(self.reserved.items()):
            if owner == p:
                del self.reserved[gi]
        left = [q for q in range(self.n) if self.alive[q]]
        if len(left) == 1:
            self._finish(left, "last-standing")

    def _finish_by_count(self) -> None:
        left = [q for q in range(self.n) if self.alive[q]]
        counts = {q: self.pyr[q].flips for q in left}
        best = max(counts.values())
        winners = [q for q in left if counts[q] == best]
        self._event("the deck is exhausted: smart-asses " + ", ".join(f"P{q + 1} {counts[q]}" for q in left))
        self._finish(winners, "deck" if len(winners) == 1 else "deck-tie")

    def _finish(self, winners: list[int], reason: str) -> None:
        self.phase = OVER
        self.winners = winners
        self.end = reason
        self.todo.clear()
        self._legal = []
        if winners:
            if self.log is not None:
                self._event(f"game over ({END_REASONS[reason]}): " + " and ".join(f"P{w + 1}" for w in winners)
                            + (" win" if len(winners) > 1 else " wins"))

    def stop(self, reason: str) -> None:
        """End the game without a winner (the runner's turn cap, a loop, a stuck position)."""
        self.phase = OVER
        self.winners = []
        self.end = reason
        self._legal = []

    # -- goals
    def goal_met(self, p: int, gi: int) -> bool:
        """Whether player ``p``'s pyramid (and tokens) meet goal ``gi`` now."""
        pyr = self.pyr[p]
        g = self.g
        resets = self.resets[p]
        for kind, n, col, num in g.goals[gi][1]:
            if not MET[kind](pyr, n, col, num, g, resets):
                return False
        return True

    # -- copies and hidden information
    def clone(self) -> "State":
        """An independent copy, with a copy of the generator: both draw the same from here on."""
        s = self._copy()
        s.rng = copy_generator(self.rng)
        return s

    def _copy(self, history: bool = True) -> "State":
        """A copy sharing the generator (for :meth:`determinize`, which replaces it);
        without ``history`` the per-game lists of placements, flips, goals and rewards
        the record reads start empty."""
        s = State.__new__(State)
        s.g = self.g
        s.rng = self.rng
        s.log = None
        s.memo = {}
        s.n = self.n
        s.alive = self.alive[:]
        s.hands = list(map(list.copy, self.hands))
        s.secret = list(map(set.copy, self.secret))
        s.limit = self.limit[:]
        s.resets = self.resets[:]
        s.passes = self.passes[:]
        s.pyr = list(map(Pyramid.copy, self.pyr))
        s.deck = self.deck[:]
        s.display = self.display[:]
        s.discard = self.discard[:]
        s.out = self.out[:]
        s.police = self.police[:]
        s.box = self.box[:]
        s.sup_reset = self.sup_reset
        s.sup_pass = self.sup_pass
        s.sup_limit = dict(self.sup_limit)
        s.goals_open = self.goals_open[:]
        s.reserved = dict(self.reserved)
        s.claimed = list(map(list.copy, self.claimed))
        s.start = self.start
        s.turn_player = self.turn_player
        s.cur = self.cur
        s.phase = self.phase
        s.actions_left = self.actions_left
        s.todo = self.todo[:]
        s.pending = self.pending
        s.turns = self.turns
        s.rounds = self.rounds
        s.last_seat = self.last_seat
        s.n_actions = self.n_actions
        s.end = self.end
        s.winners = self.winners[:]
        s.eliminated = self.eliminated[:]
        s._legal = self._legal
        s.st_drawn = self.st_drawn[:]
        if history:
            s.st_placed = self.st_placed[:]
            s.st_flipped = self.st_flipped[:]
            s.st_goals = self.st_goals[:]
            s.st_rew = {w: r[:] for w, r in self.st_rew.items()}
        else:
            s.st_placed, s.st_flipped, s.st_goals, s.st_rew = [], [], [], {}
        s.st_counts = dict(self.st_counts)
        return s

    def determinize(self, player: int, rng) -> "State":
        """A copy in which everything ``player`` cannot see is drawn again at
        random: the deck below its face-up top card and the opponents' victims
        that were dealt face down and are still in their hands.  (A copy for
        playouts: its record's per-game history starts empty.)"""
        s = self._copy(history=False)
        s.rng = Chance(rng.getrandbits(64))
        pool = s.deck[:-1]
        top = s.deck[-1:]
        slots = []
        for q in range(s.n):
            if q != player and s.secret[q]:
                for i, c in enumerate(s.hands[q]):
                    if c in s.secret[q]:
                        pool.append(c)
                        slots.append((q, i))
        shuffle(rng, pool)
        for q, i in slots:
            s.secret[q].discard(s.hands[q][i])
        for q, i in slots:
            c = pool.pop()
            s.hands[q][i] = c
            s.secret[q].add(c)
        s.deck = pool + top
        return s

    observe = observation.observe  # observe(player): what ``player`` sees now (an Observation)

    def position_key(self) -> tuple:
        """Everything that matters for the future of the game (loop detection)."""
        return (self.turn_player, self.phase, tuple(self.alive), tuple(tuple(h) for h in self.hands),
                tuple(self.limit), tuple(self.resets), tuple(self.passes), tuple(self.deck), tuple(self.display),
                tuple(self.discard), tuple(tuple(p.card) + tuple(p.flipped) + tuple(map(len, p.tok)) for p in self.pyr),
                tuple(self.goals_open), tuple(sorted(self.reserved.items())))
