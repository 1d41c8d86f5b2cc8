"""The Pyramid Shambo position and its rules.

A turn: the active player chooses a rival (``TARGET + p``); both throw at once
(``SIMULTANEOUS``: rock, paper or scissors); a tie raises the fee and they throw
again; the loser owes the fee, settled by a payment plan the *acting* player
chooses (``PLAN + i``) when there is more than one.  A knock-out by a challenge
queues the knock-out bonus: every other remaining player owes the winner a
small pyramid's pips, settled the same way.  Decisions with a single option are
taken at once (a forced rival, a forced payment), so every node a bot sees has
a real choice, except throws, which always have three.
"""

from __future__ import annotations

from operator import attrgetter

from model.errors import IllegalAction
from validator.kit import SIMULTANEOUS, TERMINAL, GameRecord, State
from validator.kit.chance import copy_generator

from .constants import (BEATS, BONUS, CHALLENGE, CHANGE_OTHER, CHANGE_PAYEE, DEBT_NAMES, END_REASONS, EXACT, FEE,
                        OVER, PAY, PHASE_NAMES, PLAN, PLAN_KINDS, SHORT, SKIP, TARGET, THROW, THROWS)

TIE_GUARD = 1000  # ties in one challenge before the game is stopped as a loop (never reached by sane throwers)
COUNTERS = ("challenges", "throws", "ties", "max_fee", "showdown", "showdown_challenges", "knockouts", "cascades",
            "self_eliminations", "bonus_paid", "bonus_skipped", "change_payee", "change_other", "no_change",
            "short_payments")

_COUNTER_SLOTS = tuple("c_" + k for k in COUNTERS)
_COUNTER_VALUES = attrgetter(*_COUNTER_SLOTS)


class ShamboObs:
    """What a seat sees: everything on the table (Shambo hides nothing but the
    throws being made, which are never in the state).  Read-only by convention."""

    __slots__ = ("player", "phase", "acting", "turn_player", "rival", "ties", "alive", "hold", "pips", "debt",
                 "plans", "log", "showdown", "n_start", "game")

    def _key(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__ if k != "game")

    def __eq__(self, other) -> bool:
        return isinstance(other, type(self)) and self._key() == other._key()

    __hash__ = None

    def __init__(self, s: "ShamboState", player: int):
        self.player = player
        self.phase = s.phase
        self.acting = s.acting
        self.turn_player = s.turn_player
        self.rival = s.rival
        self.ties = s.ties
        self.alive = tuple(s.alive)
        self.hold = tuple(s.hold)
        self.pips = tuple(s.pips)
        self.debt = s.debt
        self.plans = s.plans
        self.log = s.throw_log
        g = self.game = s.game
        self.showdown = g.showdown and s.n_alive == 2
        self.n_start = g.players


class ShamboState(State):
    __slots__ = ("game", "chance", "n", "hold", "pips", "alive", "n_alive", "out", "turn_player", "acting", "rival",
                 "phase", "ties", "debts", "debt", "plans", "turns", "rounds", "end", "winners", "doubled",
                 "eliminated", "log", "throw_log", "fees", "knockouts", "wave", "kos", "showdown_at",
                 "pending") + tuple("c_" + k for k in COUNTERS)  # c_NAME: the counter NAME (``c``: all of them)

    def __init__(self, game, chance, *, setup: bool = True):
        self.game = game
        self.chance = chance
        self.log = None
        if setup:
            self._setup()

    @property
    def n_actions(self) -> int:
        """Decisions taken: a rival challenged, a throw, a payment (each settled debt)."""
        return self.c_challenges + self.c_throws + len(self.fees) + self.c_bonus_paid

    @property
    def c(self) -> dict:
        """The counters of the game so far, by name (a copy)."""
        return dict(zip(COUNTERS, _COUNTER_VALUES(self)))

    # ------------------------------------------------------------ setup
    def _blank(self) -> None:
        g = self.game
        n = self.n = g.players
        self.hold = list(g.start_hold)
        self.pips = list(g.pips_of)
        self.alive = [True] * n
        self.n_alive = n
        self.doubled = 1 if g.showdown and n == 2 else 0  # 1 in the showdown: fees are doubled
        self.out = ((1 << g.N) - 1) & ~g.held_at_start  # unused colours are set aside
        self.turn_player = self.acting = 0
        self.rival = -1
        self.phase = CHALLENGE
        self.ties = 0
        self.debts = []
        self.debt = None
        self.plans = None
        self.turns = 0
        self.rounds = 0
        self.end = ""
        self.winners = []
        self.eliminated = []
        self.throw_log = []  # public: (turn, ties before, challenger, throw, rival, throw)
        self.c_challenges = self.c_throws = self.c_ties = self.c_max_fee = self.c_showdown = \
            self.c_showdown_challenges = self.c_knockouts = self.c_cascades = self.c_self_eliminations = \
            self.c_bonus_paid = self.c_bonus_skipped = self.c_change_payee = self.c_change_other = \
            self.c_no_change = self.c_short_payments = 0  # every counter of COUNTERS
        self.fees = []  # (ties, fee owed, pips paid, showdown) per challenge settled
        self.knockouts = [0] * n
        self.kos = []  # (victim, knocker or -1, cause, turn, players left before)
        self.wave = []
        self.showdown_at = 0
        self.pending = -1  # a throw of the challenger's given alone (apply_unchecked at a throw, for searches)

    def _setup(self) -> None:
        self._blank()
        self.rounds = 1
        self._begin_turn(0)

    @classmethod
    def position(cls, game, holdings: list[list[str]], *, turn_player: int = 0, out: list[int] = (),
                 chance=None) -> "ShamboState":
        """A constructed position for tests: ``holdings[p]`` lists the piece ids
        player p holds; pieces nobody holds are out of the game; players in
        ``out`` are already eliminated.  The turn of ``turn_player`` begins."""
        s = cls(game, chance, setup=False)
        s._blank()
        index = {p.id: p.index for p in game.pieces}
        held = 0
        for p, ids in enumerate(holdings):
            m = 0
            for pid in ids:
                b = 1 << index[pid]
                if held & b:
                    raise ValueError(f"piece {pid} is held twice")
                m |= b
            held |= m
            s.hold[p] = m
            s.pips[p] = game.pips(m)
        s.out = ((1 << game.N) - 1) & ~held
        for p in out:
            s.alive[p] = False
        s.n_alive = sum(s.alive)
        s.doubled = 1 if game.showdown and s.n_alive == 2 else 0
        s.rounds = 1
        s._begin_turn(turn_player)
        return s

    # ------------------------------------------------------------ protocol
    def current_player(self) -> int:
        ph = self.phase
        if ph == THROW:
            return SIMULTANEOUS
        if ph == OVER:
            return TERMINAL
        return self.acting

    def acting_players(self) -> list[int]:
        if self.phase != THROW:
            return []
        return [self.turn_player, self.rival] if self.pending < 0 else [self.rival]

    def legal_actions(self, player: int | None = None) -> list[int]:
        ph = self.phase
        if ph == THROW:
            if player is None or player == self.turn_player or player == self.rival:
                return [0, 1, 2]
            return []
        if ph == CHALLENGE:
            me = self.turn_player
            return [TARGET + q for q in range(self.n) if q != me and self.alive[q]]
        if ph == PAY:
            return list(range(PLAN, PLAN + len(self.plans)))
        return []

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        w = self.winners
        share = 1.0 / len(w) if w else 0.0
        return [share if p in w else 0.0 for p in range(self.n)]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"action {action} ({self.action_to_string(action)}) is not legal in phase "
                                f"'{PHASE_NAMES[self.phase]}'; legal: {self.legal_actions()}\n{self.describe()}")
        self.apply_unchecked(action)

    def apply_unchecked(self, action: int) -> None:
        ph = self.phase
        if ph == CHALLENGE:
            self._challenge(action - TARGET)
        elif ph == PAY:
            plan = self.plans[action - PLAN]
            self.plans = None
            kind, payer, payee, due = self.debt
            self._settle(plan, kind, payer, payee, due)
            self._advance()
        elif ph == THROW:
            # one throw alone (a search trying its options): the challenger's first, then the rival's
            if not 0 <= action <= 2:
                raise IllegalAction(f"a throw is 0 (rock), 1 (paper) or 2 (scissors); got {action}")
            if self.pending < 0:
                self.pending = action
            else:
                first, self.pending = self.pending, -1
                self.throw(first, action)

    def apply_actions(self, joint) -> None:
        if self.phase != THROW:
            raise IllegalAction(f"nobody throws now (phase '{PHASE_NAMES[self.phase]}')\n{self.describe()}")
        a, b = self.turn_player, self.rival
        try:
            ta = joint[a] if self.pending < 0 else self.pending
            tb = joint[b]
            self.pending = -1
        except KeyError:
            raise IllegalAction(f"the throw needs P{a + 1} and P{b + 1}; got {sorted(joint)}") from None
        if ta not in (0, 1, 2) or tb not in (0, 1, 2):
            raise IllegalAction(f"a throw is 0 (rock), 1 (paper) or 2 (scissors); got {ta}, {tb}")
        self.throw(ta, tb)

    # ------------------------------------------------------------ the rules
    def _begin_turn(self, p: int) -> None:
        self.turn_player = self.acting = p
        self.turns += 1
        self.ties = 0
        self.rival = -1
        self.phase = CHALLENGE
        if self.log is not None:
            self._event(f"-- turn {self.turns}: P{p + 1} ({self._pips_line()})")
        if self.n_alive == 2:  # the only rival: no decision
            alive = self.alive
            for q in range(self.n):
                if q != p and alive[q]:
                    self._challenge(q)
                    return

    def _challenge(self, q: int) -> None:
        self.rival = q
        self.phase = THROW
        self.c_challenges += 1
        if self.doubled:
            self.c_showdown_challenges += 1
        if self.log is not None:
            self._event(f"P{self.turn_player + 1} challenges P{q + 1}")

    def throw(self, ta: int, tb: int) -> None:
        """Resolve one simultaneous throw of the challenger (``ta``) and the rival (``tb``)."""
        a, b, ties = self.turn_player, self.rival, self.ties
        self.throw_log.append((self.turns, ties, a, ta, b, tb))
        self.c_throws += 1
        if ta == tb:
            ties = self.ties = ties + 1
            self.c_ties += 1
            if self.log is not None:
                self._event(f"both throw {THROWS[ta]}: tie {ties}")
            if ties >= TIE_GUARD:
                self.stop("loop")
            return
        g = self.game
        if BEATS[ta] == tb:
            winner, loser = a, b
        else:
            winner, loser = b, a
        fee = g.unit + g.escalation * ties
        if self.doubled:
            fee *= 2
        if fee > self.c_max_fee:
            self.c_max_fee = fee
        if self.log is not None:
            self._event(f"P{a + 1} {THROWS[ta]}, P{b + 1} {THROWS[tb]}: P{winner + 1} wins a {fee}-pip fee")
        if self.debts:  # (never during a challenge: queued debts are settled before the next turn)
            self.debts.append((FEE, loser, winner, fee))
            self._advance()
        elif self._owe(FEE, loser, winner, fee):  # (both are in: they just threw)
            self._advance()

    def in_showdown(self) -> bool:
        return self.game.showdown and self.n_alive == 2

    def _advance(self) -> None:
        """Settle queued debts until a decision is needed; then the next turn."""
        debts = self.debts
        alive = self.alive
        while debts:
            kind, payer, payee, due = debts.pop(0)
            if alive[payer] and alive[payee] and not self._owe(kind, payer, payee, due):
                return
        self.debt = None
        self.plans = None
        p = self.turn_player  # the next turn: the next seat still in, round the table
        alive = self.alive
        for q in self.game.seats_after[p]:
            if alive[q]:
                if q <= p:
                    self.rounds += 1
                self._begin_turn(q)
                return
        self._finish([], "stuck")

    def _owe(self, kind: int, payer: int, payee: int, due: int) -> bool:
        """One debt between two players still in: settled at once when it leaves
        no choice.  False when a payment decision waits (phase PAY) or the game is over."""
        if kind == BONUS:
            due = self._bonus_due(payer, due)
            if due is None:
                return True
        plans = self.game.plans(self.hold, payer, payee, due, self.alive)
        if len(plans) == 1:
            if self.log is not None:
                self.debt = (kind, payer, payee, due)  # (for the replay's line)
            self._settle(plans[0], kind, payer, payee, due)
            return self.phase != OVER
        self.debt = (kind, payer, payee, due)
        self.plans = plans
        self.phase = PAY
        return False

    def bonus_owed(self) -> int:
        """The knock-out bonus each remaining player owes for the knock-out just made: a small pyramid's
        pips, doubled when the knock-out leaves two players (the showdown) unless ``showdown_bonus=single``.
        "all remaining players must immediately give a small pyramid to the winner": every payer owes
        this amount, whatever a cascade during the payments changes."""
        g = self.game
        return g.unit * (2 if g.showdown and g.showdown_bonus and self.n_alive == 2 else 1)

    def _bonus_due(self, payer: int, due: int) -> int | None:
        """The knock-out bonus ``payer`` pays: ``due`` (set at the knock-out, ``bonus_owed``), or None when
        it is not paid (``bonus_without_small=skip`` and no small pyramid held; counted)."""
        g = self.game
        if g.bonus_skip and not (self.hold[payer] & g.small_mask):
            self.c_bonus_skipped += 1
            if self.log is not None:
                self._event(f"P{payer + 1} holds no small pyramid: no bonus")
            return None
        return due

    def _settle(self, plan: tuple, kind: int, payer: int, payee: int, due: int) -> None:
        """Move the pieces of one payment plan for the debt, then
        knock out whoever holds nothing."""
        pk, give, back, maker, broken, pieces, paid = plan
        hold = self.hold
        if pk != EXACT:
            if pk == CHANGE_PAYEE:
                self.c_change_payee += 1
            elif pk == CHANGE_OTHER:
                self.c_change_other += 1
                hold[payer] = (hold[payer] & ~broken) | pieces
                hold[maker] = (hold[maker] & ~pieces) | broken
            elif pk == SHORT:
                self.c_short_payments += 1
            else:
                self.c_no_change += 1
        left = hold[payer] = (hold[payer] & ~give) | back
        hold[payee] = (hold[payee] & ~back) | give
        pips = self.pips
        pips[payer] -= paid
        pips[payee] += paid
        if kind == FEE:
            self.fees.append((self.ties, due, paid, self.doubled))
        else:
            self.c_bonus_paid += 1
        if self.log is not None:
            self._event(self._plan_text(plan, self.debt))
        if left == 0:
            self._paid_out(kind, payer, payee)

    def _paid_out(self, kind: int, payer: int, payee: int) -> None:
        """``payer`` paid their last piece: knocked out (a fee: by ``payee``, who is owed
        the bonus by everyone else), and the game ends if at most one is left."""
        self.wave = []
        if kind == FEE:
            cause = "own-challenge" if payer == self.turn_player else "challenge"
            self._eliminate(payer, cause, payee)
            if payer == self.turn_player:
                self.acting = payee  # self-elimination: the player who beat you acts for the rest of the turn
                self.c_self_eliminations += 1
            if self.n_alive > 1:  # the others from the payee's left (seats_after ends with the payee), all owing
                alive, debts = self.alive, self.debts  # the amount the knock-out sets
                bonus = self.bonus_owed()
                for q in self.game.seats_after[payee][:-1]:
                    if q != payer and alive[q]:
                        debts.append((BONUS, q, payee, bonus))
        else:
            self._eliminate(payer, "bonus", -1)
        if self.n_alive <= 1:
            if self.n_alive == 1:
                self._finish([p for p in range(self.n) if self.alive[p]], "last-standing")
            else:
                self._finish(sorted(self.wave), "wipe-out")

    def _eliminate(self, q: int, cause: str, knocker: int) -> None:
        g = self.game
        alive, turns = self.alive, self.turns
        before = self.n_alive
        alive[q] = False
        n_alive = self.n_alive = before - 1
        showdown = g.showdown and n_alive == 2  # (in_showdown)
        self.doubled = 1 if showdown else 0
        self.wave.append(q)
        self.eliminated.append((q, cause, turns))
        self.kos.append((q, knocker, cause, turns, before))
        if knocker >= 0:
            self.knockouts[knocker] += 1
            self.c_knockouts += 1
        else:
            self.c_cascades += 1
        if self.log is not None:
            self._event(f"P{q + 1} is out ({cause}); every {g.colors[g.player_color[q]]} piece leaves the game")
        if showdown and not self.showdown_at:
            self.showdown_at = turns
            self.c_showdown = 1
        gone = g.colmask[g.player_color[q]] & ~self.out
        self.out |= gone
        hold, pips, mask_pips = self.hold, self.pips, g.mask_pips
        hit = []
        for p, m in enumerate(hold):
            if m & gone:
                m = hold[p] = m & ~gone
                pips[p] = mask_pips[m]
                if m == 0 and alive[p]:
                    hit.append(p)
        for p in hit:
            if alive[p]:
                self._eliminate(p, "colour", -1)

    def _finish(self, winners: list[int], reason: str) -> None:
        self.phase = OVER
        self.winners = winners
        self.end = reason
        self.debts = []
        self.plans = None
        if self.log is not None:
            self._event(f"game over ({END_REASONS[reason]}): " + " and ".join(f"P{w + 1}" for w in winners))

    def stop(self, reason: str) -> None:
        self.phase = OVER
        self.winners = []
        self.end = reason
        self.debts = []
        self.plans = None

    # ------------------------------------------------------------ copies and views
    def clone(self) -> "ShamboState":
        s = ShamboState.__new__(ShamboState)
        s.game = self.game
        s.chance = copy_generator(self.chance)
        s.log = None
        s.n = self.n
        s.hold = list(self.hold)
        s.pips = list(self.pips)
        s.alive = list(self.alive)
        s.n_alive, s.doubled = self.n_alive, self.doubled
        s.out = self.out
        s.turn_player, s.acting, s.rival = self.turn_player, self.acting, self.rival
        s.phase, s.ties = self.phase, self.ties
        s.debts = list(self.debts)
        s.debt = self.debt
        s.plans = self.plans  # a list never mutated once set
        s.turns, s.rounds = self.turns, self.rounds
        s.end = self.end
        s.winners = list(self.winners)
        s.eliminated = list(self.eliminated)
        s.throw_log = list(self.throw_log)
        for k in _COUNTER_SLOTS:
            setattr(s, k, getattr(self, k))
        s.fees = list(self.fees)
        s.knockouts = list(self.knockouts)
        s.kos = list(self.kos)
        s.wave = list(self.wave)
        s.showdown_at = self.showdown_at
        s.pending = self.pending
        return s

    def determinize(self, player: int, chance) -> "ShamboState":
        return self.clone()  # nothing is hidden on the table

    def observe(self, player: int) -> ShamboObs:
        return ShamboObs(self, player)

    # ------------------------------------------------------------ record
    def record(self) -> GameRecord:
        n = self.n
        place = [0] * n
        if self.winners:
            for w in self.winners:
                place[w] = 1
            k = len(self.winners) + 1
            for ko in reversed(self.kos):
                q = ko[0]
                if not place[q]:
                    place[q] = k
                    k += 1
        scores = [x if a else None for x, a in zip(self.pips, self.alive)]
        return GameRecord(
            seats=list(range(n)), winners=list(self.winners), turns=self.turns, rounds=self.rounds,
            actions=self.n_actions, end=self.end, eliminations=list(self.eliminated), scores=scores,
            counters=dict(zip(COUNTERS, _COUNTER_VALUES(self))),  # (self.c)
            per_player={"knockouts": list(self.knockouts), "place": place,
                        "final_pips": [0 if x is None else x for x in scores]},
            details={"fees": list(self.fees), "kos": list(self.kos), "showdown_at": self.showdown_at},
        )

    def standings(self) -> list:
        return [self.pips[p] if self.alive[p] else None for p in range(self.n)]

    def position_key(self) -> tuple:
        # the turn is part of it: throws are chance, so a position that comes back is no loop
        return (self.turns, self.turn_player, self.phase, self.ties, tuple(self.hold), tuple(self.alive))

    # ------------------------------------------------------------ invariants
    def zones(self):
        g = self.game
        z = {f"P{p + 1}": [g.pieces[i].id for i in g.bits(self.hold[p])] for p in range(self.n)}
        z["out of the game"] = [g.pieces[i].id for i in g.bits(self.out)]
        return z

    def check_invariants(self) -> None:
        super().check_invariants()
        g = self.game
        seen = self.out
        for p in range(self.n):
            m = self.hold[p]
            if m & seen:
                raise AssertionError(f"P{p + 1} holds {g.describe_mask(m & seen)}, which is also elsewhere")
            seen |= m
            if self.pips[p] != g.pips(m):
                raise AssertionError(f"P{p + 1} is counted {self.pips[p]} pips but holds {g.pips(m)}")
            if self.alive[p] != bool(m) and self.phase != OVER:
                state = "in the game with nothing" if self.alive[p] else "out but holds pieces"
                raise AssertionError(f"P{p + 1} is {state} ({g.describe_mask(m)})")
            if not self.alive[p] and m:
                raise AssertionError(f"P{p + 1} is out but holds {g.describe_mask(m)}")
            for i in g.bits(m):
                owner = g.player_color.index(g.COLOR[i]) if g.COLOR[i] in g.player_color else -1
                if owner >= 0 and not self.alive[owner]:
                    raise AssertionError(f"P{p + 1} holds {g.pieces[i].id}, whose colour left the game with "
                                         f"P{owner + 1}")
        if seen != (1 << g.N) - 1:
            raise AssertionError(f"pieces in no place: {g.describe_mask(((1 << g.N) - 1) & ~seen)}")
        if sum(self.alive) != self.n_alive:
            raise AssertionError(f"{self.n_alive} players counted in, {sum(self.alive)} are")
        if self.phase != OVER and self.n_alive < 2:
            raise AssertionError("the game goes on with fewer than two players")
        if self.phase in (CHALLENGE, THROW, PAY) and not self.alive[self.acting]:
            raise AssertionError(f"P{self.acting + 1} acts but is out")
        if self.phase == THROW and not (self.alive[self.turn_player] and self.alive[self.rival]):
            raise AssertionError("a challenge with a player who is out")
        total = sum(self.pips)
        if total != g.total_pips - g.pips(self.out):
            raise AssertionError(f"{total} pips held, but {g.total_pips - g.pips(self.out)} are in the game")

    # ------------------------------------------------------------ text
    def action_to_string(self, action: int) -> str:
        if self.phase == THROW and 0 <= action <= 2:
            return THROWS[action]
        if TARGET <= action < PLAN:
            return f"challenge P{action - TARGET + 1}"
        if action >= PLAN and self.plans and action - PLAN < len(self.plans):
            return self._plan_text(self.plans[action - PLAN], self.debt)
        return str(action)

    def _plan_text(self, plan: tuple, debt) -> str:
        g = self.game
        kind, payer, payee, due = debt
        pk, give, back, maker, broken, pieces, paid = plan
        text = f"{DEBT_NAMES[kind]} of {due}: P{payer + 1} pays {g.describe_mask(give)} to P{payee + 1}"
        if back:
            text += f", gets {g.describe_mask(back)} back"
        if maker >= 0 and broken:
            text = (f"P{maker + 1} changes {g.describe_mask(broken)} for {g.describe_mask(pieces)}; " + text)
        if pk not in (EXACT, CHANGE_PAYEE, CHANGE_OTHER):
            text += f" ({PLAN_KINDS[pk]})"
        return text

    def _pips_line(self) -> str:
        return ", ".join(f"P{p + 1} {self.pips[p]}" if self.alive[p] else f"P{p + 1} out" for p in range(self.n))

    def describe(self) -> str:
        g = self.game
        lines = [f"turn {self.turns}, round {self.rounds}, phase '{PHASE_NAMES[self.phase]}', "
                 f"P{self.turn_player + 1}'s turn, P{self.acting + 1} decides"]
        for p in range(self.n):
            status = "" if self.alive[p] else " (out)"
            lines.append(f"  P{p + 1} [{g.colors[g.player_color[p]]}]{status}: {self.pips[p]} pips: "
                         f"{g.describe_mask(self.hold[p])}")
        if self.phase == THROW:
            lines.append(f"  challenge P{self.turn_player + 1} v P{self.rival + 1}, ties {self.ties}")
        if self.debt is not None and self.phase == PAY:
            kind, payer, payee, due = self.debt
            lines.append(f"  P{payer + 1} owes P{payee + 1} a {DEBT_NAMES[kind]} of {due} pips")
        return "\n".join(lines)

    def _event(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)



__all__ = ["ShamboState", "ShamboObs", "COUNTERS", "SKIP"]
