"""The drinking Pyramid's position and its rules.

Setup: a 21-card pyramid face down, hands dealt (seen for 15 seconds: each
player's observation keeps what it was shown; what it remembers is the bot's
business).  For each pyramid card, the 6-row first, left to right: everybody
with cards chooses at once which hand slots to lay (a bit mask, 0 = pass);
the lays are resolved from the dealer's left, slot by slot: a matching card
stays on the pyramid and its layer gives the row value in drinks; the first
wrong card goes back, costs its layer the row value and bars them from that
pyramid card.  Then the drinks are given (and, in the question edition,
answered), the dealer may ask a player who laid two or more cards a question.
After the top card, the player with the most cards left explores: chance only,
resolved at once.
"""

from __future__ import annotations

from model.errors import IllegalAction
from validator.kit import SIMULTANEOUS, TERMINAL, GameRecord, State
from validator.kit.chance import copy_generator

from .constants import (ANSWER, ANSWERING, ASK, ASK_NONE, ASKING, GIVE, GIVING, LAY, OVER, PHASE_NAMES, PYRAMID,
                        REFUSE, ROW_OF, ROW_SIZES, ROW_START, ROW_VALUES)

EXPLORE_CAP = 1000  # restarts of one exploration before the game is stopped as a loop (a deck of royals only)
COUNTERS = ("cards_laid", "wrong_cards", "sips", "max_sips", "empty_cards", "empty_rows", "questions", "refusals",
            "dealer_questions", "explore_turns", "explore_restarts", "explore_sips", "stockpile_out", "exploration")
RANKS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class PyramidObs:
    """What one seat knows: the table, and its own hand as it was shown for 15
    seconds (``shown``) plus the true ranks of its cards that came back after
    a wrong lay (``revealed``).  Read-only by convention."""

    __slots__ = ("player", "phase", "pos", "rank", "value", "held", "shown", "revealed", "sips", "given", "hand_sizes",
                 "task", "n", "dealer", "questions", "game")

    def _key(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__ if k != "game")

    def __eq__(self, other) -> bool:
        return isinstance(other, type(self)) and self._key() == other._key()

    __hash__ = None

    def __init__(self, s: "PyramidState", player: int):
        g = s.game
        self.player = player
        self.phase = s.phase
        self.pos = s.pos
        self.rank = g.rank[s.pyramid[s.pos]] if s.pos < PYRAMID else 0
        self.value = ROW_VALUES[ROW_OF[s.pos]] if s.pos < PYRAMID else 0
        hand = s.hands[player]
        self.held = tuple([k for k, c in enumerate(hand) if c >= 0])
        self.shown = s.shown[player]
        self.revealed = s.revealed[player]  # read-only
        self.sips = tuple(s.sips)
        self.given = s.given  # public: who made whom drink (read-only)
        self.hand_sizes = tuple(s.left)
        self.task = s.tasks[0] if s.tasks else None
        self.n = s.n
        self.dealer = g.dealer
        self.questions = g.questions
        self.game = g


class PyramidState(State):
    __slots__ = ("game", "chance", "n", "pyramid", "rest", "hands", "shown", "revealed", "laid", "pos", "phase",
                 "barred", "tasks", "sips", "given", "turns", "rounds", "n_actions", "end", "winners", "log", "c",
                 "laid_by", "wrong_by", "row_laid", "explorer", "stock", "discard", "explore_pyr", "ask_pending", "left", "empty")

    def __init__(self, game, chance, *, setup: bool = True):
        self.game = game
        self.chance = chance
        self.log = None
        if setup:
            self._setup()

    # ------------------------------------------------------------ setup
    def _blank(self) -> None:
        n = self.n = self.game.players
        self.pyramid = []
        self.rest = []
        self.hands = [[] for _ in range(n)]
        self.shown = [()] * n
        self.revealed = [{} for _ in range(n)]
        self.laid = [[] for _ in range(PYRAMID)]  # cards laid on each pyramid card
        self.pos = 0
        self.phase = LAY
        self.barred = 0  # bit per player barred from the current pyramid card
        self.tasks = []  # pending decisions: ("give", giver, value, pos), ("answer", p, sips, pos), ("ask", p)
        self.sips = [0] * n
        self.given = [[0] * n for _ in range(n)]
        self.turns = 1
        self.rounds = 1
        self.n_actions = 0
        self.end = ""
        self.winners = []
        self.c = dict.fromkeys(COUNTERS, 0)
        self.laid_by = [0] * n
        self.wrong_by = [0] * n
        self.row_laid = 0
        self.explorer = -1
        self.stock = []
        self.discard = []
        self.explore_pyr = []
        self.ask_pending = []
        self.left = [0] * n  # cards left in each hand
        self.empty = []  # rows nobody laid a matching card on

    def _setup(self) -> None:
        g = self.game
        self._blank()
        deck = list(range(g.N))
        self.chance.shuffled(deck)
        self.pyramid = deck[:PYRAMID]
        k = PYRAMID
        for p in range(self.n):
            self.hands[p] = deck[k:k + g.hand]
            k += g.hand
        self.rest = deck[k:]
        self.shown = [tuple(g.rank[c] for c in h) for h in self.hands]
        self.left = [len(h) for h in self.hands]
        self._open()

    @classmethod
    def position(cls, game, pyramid: list[str], hands: list[list[str]], *, pos: int = 0, chance=None):
        """A constructed position for tests: the pyramid (21 ids, the 6-row first),
        the hands; the other cards are the undealt rest; the card at ``pos`` is turned."""
        s = cls(game, chance, setup=False)
        s._blank()
        index = {cid: i for i, cid in enumerate(game.ids)}
        s.pyramid = [index[c] for c in pyramid]
        s.hands = [[index[c] for c in h] for h in hands]
        used = set(s.pyramid) | {c for h in s.hands for c in h}
        s.rest = [i for i in range(game.N) if i not in used]
        s.shown = [tuple(game.rank[c] for c in h) for h in s.hands]
        s.left = [len(h) for h in s.hands]
        s.pos = pos
        s.rounds = ROW_OF[pos] + 1
        s.turns = pos + 1
        s._open()
        return s

    # ------------------------------------------------------------ protocol
    def current_player(self) -> int:
        ph = self.phase
        if ph == LAY:
            return SIMULTANEOUS
        if ph == OVER:
            return TERMINAL
        if ph == ASKING:
            return self.game.dealer
        return self.tasks[0][1]  # the giver, or the player asked

    def acting_players(self) -> list[int]:
        if self.phase != LAY:
            return []
        barred = self.barred
        left = self.left
        return [p for p in range(self.n) if left[p] and not barred >> p & 1]

    def legal_actions(self, player: int | None = None) -> list[int]:
        ph = self.phase
        if ph == LAY:
            if player is None or self.barred >> player & 1:
                return []
            subsets = [0]  # every subset of the slots holding a card, in increasing order
            for k, c in enumerate(self.hands[player]):
                if c >= 0:
                    bit = 1 << k
                    subsets += [m | bit for m in subsets]
            return subsets if len(subsets) > 1 else []
        if ph == GIVING:
            giver = self.tasks[0][1]
            return [GIVE + q for q in range(self.n) if q != giver]
        if ph == ANSWERING:
            return [ANSWER, REFUSE] if self.tasks[0][5] >= 0 else [ANSWER]
        if ph == ASKING:
            return [ASK_NONE] + [ASK + k for k in range(self.pos + 1)]
        return []

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        w = self.winners
        share = 1.0 / len(w) if w else 0.0
        return [share if p in w else 0.0 for p in range(self.n)]

    def apply_action(self, action: int) -> None:
        if self.phase == LAY:
            raise IllegalAction(f"everybody lays at once here: use apply_actions\n{self.describe()}")
        if action not in self.legal_actions():
            raise IllegalAction(f"action {action} ({self.action_to_string(action)}) is not legal in phase "
                                f"'{PHASE_NAMES[self.phase]}'; legal: {self.legal_actions()}\n{self.describe()}")
        self.apply_unchecked(action)

    def apply_unchecked(self, action: int) -> None:
        ph = self.phase
        self.n_actions += 1
        if ph == GIVING:
            self._give(action - GIVE)
        elif ph == ANSWERING:
            self._answer(action == REFUSE)
        elif ph == ASKING:
            kind, p = self.tasks.pop(0)[:2]
            if action != ASK_NONE:
                k = action - ASK
                self.c["dealer_questions"] += 1
                refusal = 2 * ROW_VALUES[ROW_OF[k]] if self.game.dealer_refusal else -1  # (-1: may not refuse)
                self.tasks.insert(0, ("answer", p, 0, k, -1, refusal))
                if self.log is not None:
                    self._event(f"the dealer asks P{p + 1} the question of pyramid card {k + 1}")
            self._run()
        elif ph == LAY:  # one player's lay alone (a search trying its options): everyone else passes
            self.apply_actions({})

    def apply_actions(self, joint) -> None:
        if self.phase != LAY:
            raise IllegalAction(f"nobody lays now (phase '{PHASE_NAMES[self.phase]}')\n{self.describe()}")
        g = self.game
        pos = self.pos
        rank = g.rank[self.pyramid[pos]]
        value = ROW_VALUES[ROW_OF[pos]]
        n = self.n
        c = self.c
        any_laid = False
        for p in range(n):  # from the dealer's left: seat 1 first
            mask = joint.get(p, 0)
            if not mask:
                continue
            hand = self.hands[p]
            if self.barred >> p & 1:
                raise IllegalAction(f"P{p + 1} is barred from this pyramid card")
            good = 0
            for k in range(len(hand)):
                if not mask >> k & 1:
                    continue
                card = hand[k]
                if card < 0:
                    raise IllegalAction(f"P{p + 1} has no card in slot {k + 1}\n{self.describe()}")
                self.n_actions += 1
                if g.rank[card] == rank:
                    hand[k] = -1
                    self.left[p] -= 1
                    self.laid[pos].append(card)
                    good += 1
                    self.laid_by[p] += 1
                    c["cards_laid"] += 1
                    self.tasks.append(("give", p, value, pos))
                    if self.log is not None:
                        self._event(f"P{p + 1} lays {g.ids[card]}")
                else:
                    self.wrong_by[p] += 1
                    c["wrong_cards"] += 1
                    self.revealed[p][k] = g.rank[card]
                    self.barred |= 1 << p
                    self._drink(p, value)
                    if self.log is not None:
                        self._event(f"P{p + 1} lays {g.ids[card]}: wrong, takes it back and drinks {value}")
                    break
            if good:
                any_laid = True
            if good >= 2 and g.questions:
                self.tasks.append(("ask", p))
        if any_laid:
            self.row_laid = 1
        else:
            c["empty_cards"] += 1
        self._run()

    # ------------------------------------------------------------ the rules
    def _open(self) -> None:
        """The card at ``pos`` is turned: everyone may lay."""
        self.phase = LAY
        self.barred = 0
        if self.log is not None:
            self._event(f"-- pyramid card {self.pos + 1} (row value {ROW_VALUES[ROW_OF[self.pos]]}): "
                        f"{self.game.ids[self.pyramid[self.pos]]}")
        if not any(self.left):  # nobody holds a card (nobody is barred yet): nobody lays
            self._next_card()

    def _run(self) -> None:
        """Work through pending tasks until one needs a decision; then the next card."""
        tasks = self.tasks
        while tasks:
            t = tasks[0]
            kind = t[0]
            if kind == "give":
                self.phase = GIVING
                return
            if kind == "answer":
                self.phase = ANSWERING
                return
            if kind == "ask":
                self.phase = ASKING
                return
            tasks.pop(0)
        self._next_card()

    def _give(self, q: int) -> None:
        kind, giver, value, pos = self.tasks[0]
        g = self.game
        if g.questions:  # one player drinks it all and answers, or drinks double
            self.tasks[0] = ("answer", q, value, pos, giver, 2 * value)
            if self.log is not None:
                self._event(f"P{giver + 1} names P{q + 1} for {value}")
        else:
            self._drink(q, 1, giver)
            value -= 1
            if value:
                self.tasks[0] = ("give", giver, value, pos)
            else:
                self.tasks.pop(0)
        self._run()

    def _answer(self, refuse: bool) -> None:
        kind, p, sips, pos, giver, double = self.tasks.pop(0)
        self.c["questions"] += 1
        if refuse:
            self.c["refusals"] += 1
        self._drink(p, double if refuse else sips, giver)
        if self.log is not None:
            self._event(f"P{p + 1} {'refuses' if refuse else 'answers'} the question of card {pos + 1}")
        self._run()

    def _drink(self, p: int, sips: int, giver: int = -1) -> None:
        if sips <= 0:
            return
        self.sips[p] += sips
        self.c["sips"] += sips
        if giver >= 0:
            self.given[giver][p] += sips

    def _next_card(self) -> None:
        pos = self.pos
        if pos + 1 == PYRAMID or ROW_OF[pos + 1] != ROW_OF[pos]:
            if not self.row_laid:
                self.c["empty_rows"] += 1
                self.empty.append(ROW_OF[pos])
            self.row_laid = 0
        self.pos = pos + 1
        if self.pos == PYRAMID:
            self._explore()
            return
        self.turns += 1
        if ROW_OF[self.pos] != ROW_OF[pos]:
            self.rounds += 1
        self._open()

    # ------------------------------------------------------------ the exploration
    def _explore(self) -> None:
        g = self.game
        chance = self.chance
        left = self.left
        most = max(left)
        if most == 0:
            self._finish("no-explorer")
            return
        tied = [p for p in range(self.n) if left[p] == most]
        if len(tied) > 1 and g.tie_lowest:  # each turns one of their cards at random: the lowest explores
            shown = {}
            for p in tied:
                cards = [c for c in self.hands[p] if c >= 0]
                shown[p] = g.rank[chance.pick(cards)]
            low = min(shown.values())
            tied = [p for p in tied if shown[p] == low]
        explorer = tied[0] if len(tied) == 1 else chance.pick(tied)
        self.explorer = explorer
        self.c["exploration"] = 1
        if self.log is not None:
            self._event(f"P{explorer + 1} explores the pyramid")
        # the dealer takes in every card, shuffles, builds a new pyramid; the rest is the stockpile
        cards = list(range(g.N))
        chance.shuffled(cards)
        pyr = cards[:PYRAMID]
        stock = cards[PYRAMID:]
        discard: list[int] = []
        c = self.c
        reason = "explored"
        row = 0
        turned: list[int] = []  # positions turned in this pass
        while row < len(ROW_SIZES):
            k = ROW_START[row] + chance.draw(ROW_SIZES[row])
            turned.append(k)
            self.turns += 1
            c["explore_turns"] += 1
            card = pyr[k]
            if not g.royal[card]:
                row += 1
                continue
            self._drink(explorer, ROW_VALUES[row])
            c["explore_sips"] += ROW_VALUES[row]
            if self.log is not None:
                self._event(f"P{explorer + 1} turns {g.ids[card]} in row {row + 1}: drinks {ROW_VALUES[row]}, "
                            "starts over")
            if len(stock) < len(turned) and g.reshuffle and discard:
                chance.shuffled(discard)
                stock = discard + stock
                discard = []
            if len(stock) < len(turned):
                reason = "stockpile"
                c["stockpile_out"] = 1
                break
            for t in turned:
                discard.append(pyr[t])
                pyr[t] = stock.pop()
            turned = []
            c["explore_restarts"] += 1
            self.rounds += 1
            row = 0
            if c["explore_restarts"] >= EXPLORE_CAP:  # (a deck of royals only: the top is never reached)
                reason = "loop"
                break
        self.explore_pyr, self.stock, self.discard = pyr, stock, discard
        if reason == "loop":
            self.stop("loop")
        else:
            self._finish(reason)

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.end = reason
        self.tasks = []
        low = min(self.sips)
        self.winners = [p for p in range(self.n) if self.sips[p] == low]
        self.c["max_sips"] = max(self.sips)
        if self.log is not None:
            self._event(f"game over ({reason}); sips: " + ", ".join(f"P{p + 1} {s}"
                                                                     for p, s in enumerate(self.sips)))

    def stop(self, reason: str) -> None:
        self.phase = OVER
        self.end = reason
        self.winners = []
        self.tasks = []

    # ------------------------------------------------------------ copies and views
    def clone(self) -> "PyramidState":
        s = PyramidState.__new__(PyramidState)
        s.game, s.chance, s.log, s.n = self.game, copy_generator(self.chance), None, self.n
        s.pyramid = list(self.pyramid)
        s.rest = list(self.rest)
        s.hands = [list(h) for h in self.hands]
        s.shown = list(self.shown)
        s.revealed = [dict(r) for r in self.revealed]
        s.laid = [list(x) for x in self.laid]
        s.pos, s.phase, s.barred = self.pos, self.phase, self.barred
        s.tasks = list(self.tasks)
        s.sips = list(self.sips)
        s.given = [list(x) for x in self.given]
        s.turns, s.rounds, s.n_actions, s.end = self.turns, self.rounds, self.n_actions, self.end
        s.winners = list(self.winners)
        s.c = dict(self.c)
        s.laid_by, s.wrong_by = list(self.laid_by), list(self.wrong_by)
        s.row_laid, s.explorer = self.row_laid, self.explorer
        s.stock, s.discard, s.explore_pyr = list(self.stock), list(self.discard), list(self.explore_pyr)
        s.ask_pending = []
        s.left = list(self.left)
        s.empty = list(self.empty)
        return s

    def determinize(self, player: int, chance) -> "PyramidState":
        """A copy where the face-down pyramid cards still to turn, the undealt
        cards and the other players' hands are dealt again from ``chance``."""
        s = self.clone()
        s.chance = chance
        if self.phase == OVER:
            return s
        hidden = list(s.pyramid[s.pos + 1:]) + s.rest
        for p in range(s.n):
            if p != player:
                hidden += [c for c in s.hands[p] if c >= 0]
        chance.shuffled(hidden)
        k = 0
        for i in range(s.pos + 1, PYRAMID):
            s.pyramid[i] = hidden[k]
            k += 1
        for p in range(s.n):
            if p != player:
                for j, c in enumerate(s.hands[p]):
                    if c >= 0:
                        s.hands[p][j] = hidden[k]
                        k += 1
        s.rest = hidden[k:]
        return s

    def observe(self, player: int) -> PyramidObs:
        return PyramidObs(self, player)

    # ------------------------------------------------------------ record
    def record(self) -> GameRecord:
        n = self.n
        c = dict(self.c)
        return GameRecord(
            seats=list(range(n)),
            winners=list(self.winners),
            turns=self.turns,
            rounds=self.rounds,
            actions=self.n_actions,
            end=self.end,
            eliminations=[],
            scores=list(self.sips),
            counters=c,
            per_player={"sips": list(self.sips), "cards_laid": list(self.laid_by), "wrong_cards": list(self.wrong_by),
                        "sips_given": [sum(row) for row in self.given],
                        "explored": [1 if p == self.explorer else 0 for p in range(n)]},
            details={"explorer": self.explorer, "empty_rows": list(self.empty)},
        )

    def standings(self) -> list:
        return [-s for s in self.sips]

    def position_key(self) -> tuple:
        return (self.turns, self.pos, self.phase, tuple(self.sips), len(self.tasks))

    # ------------------------------------------------------------ invariants
    def zones(self):
        g = self.game
        ids = g.ids
        if self.phase == OVER and self.explore_pyr:
            return {"explored pyramid": [ids[c] for c in self.explore_pyr], "stockpile": [ids[c] for c in self.stock],
                    "turned": [ids[c] for c in self.discard]}
        z = {"pyramid": [ids[c] for c in self.pyramid], "rest of the deck": [ids[c] for c in self.rest]}
        for p in range(self.n):
            z[f"P{p + 1}'s hand"] = [ids[c] for c in self.hands[p] if c >= 0]
        z["laid on the pyramid"] = [ids[c] for x in self.laid for c in x]
        return z

    def check_invariants(self) -> None:
        super().check_invariants()
        g = self.game
        for k, cards in enumerate(self.laid):
            for c in cards:
                if g.rank[c] != g.rank[self.pyramid[k]]:
                    raise AssertionError(f"{g.ids[c]} lies on pyramid card {g.ids[self.pyramid[k]]} of another rank")
            if cards and k > self.pos:
                raise AssertionError(f"cards lie on pyramid card {k + 1}, which is not turned yet")
        if sum(self.sips) != self.c["sips"]:
            raise AssertionError(f"{sum(self.sips)} sips drunk but {self.c['sips']} counted")
        if sum(map(sum, self.given)) > self.c["sips"]:
            raise AssertionError("more sips given than drunk")
        for p in range(self.n):
            if len(self.hands[p]) != g.hand:
                raise AssertionError(f"P{p + 1} has {len(self.hands[p])} hand slots, not {g.hand}")
            if self.left[p] != sum(1 for c in self.hands[p] if c >= 0):
                raise AssertionError(f"P{p + 1} is counted {self.left[p]} cards but holds another number")
        if self.phase != OVER and self.pos >= PYRAMID:
            raise AssertionError("the pyramid is done but the game goes on")

    # ------------------------------------------------------------ text
    def action_to_string(self, action: int) -> str:
        ph = self.phase
        if ph == LAY:
            return "pass" if action == 0 else "lay slot(s) " + "+".join(str(k + 1) for k in range(8)
                                                                        if action >> k & 1)
        if ph == GIVING and action >= GIVE:
            return f"P{action - GIVE + 1} drinks"
        if ph == ANSWERING:
            return "answer" if action == ANSWER else "refuse (drink double)"
        if ph == ASKING:
            return "ask nothing" if action == ASK_NONE else f"ask the question of pyramid card {action - ASK + 1}"
        return str(action)

    def describe(self) -> str:
        g = self.game
        lines = [f"pyramid card {self.pos + 1} of {PYRAMID}, phase '{PHASE_NAMES[self.phase]}'"]
        if self.pos < PYRAMID:
            lines[0] += f": {g.ids[self.pyramid[self.pos]]} (row value {ROW_VALUES[ROW_OF[self.pos]]})"
        for p in range(self.n):
            hand = " ".join(g.ids[c] if c >= 0 else "-" for c in self.hands[p])
            lines.append(f"  P{p + 1}: {hand}; {self.sips[p]} sips")
        if self.tasks:
            lines.append(f"  next: {self.tasks[0]}")
        return "\n".join(lines)

    def _event(self, text: str) -> None:
        if self.log is not None and text:
            self.log.append(text)


__all__ = ["PyramidState", "PyramidObs", "COUNTERS", "RANKS"]
