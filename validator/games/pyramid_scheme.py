"""Pyramid Scheme (2-4 players): the complete rules, compiled from the sheets.

Everything about the cards comes from ``cards.csv``/``goals.csv`` through the
shared spreadsheet model: numbers, colours, flip conditions (``requires``),
rewards (``effect``), token kinds, goal definitions and all counts.  Edit a row
and the simulation changes with it.  Every reading of an unclear rule is in
docs/rules-notes.md (section "Pyramid Scheme"); the switchable ones are the
rules options in ``SPEC.params``.

Skeleton: constants - spec - Game (compiled data) - Pyramid (one player's
tree) - State - greedy heuristic and evaluation - static checks - registration.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from model.errors import Problem

from ..core import TERMINAL, GameSpec, IllegalAction, Param, RulesError, register, shuffle

# ------------------------------------------------------------------ constants
VICTIM, POLICE, FOUNDER = 0, 1, 2

# Actions are small ints, sorted by kind: take a display slot, spend a reset
# token, end/skip, yes, a target (node, goal or hand index), a placement.
TAKE = 0          # TAKE + slot (slots 0..9)
RESET = 10        # spend a reset token: refresh the display
END = 11          # end the turn / skip an optional reward / stop discarding
YES = 12          # flip the card whose condition is met (rules option optional_flip)
TARGET = 1000     # TARGET + node index, goal index or hand index
PLACE = 100_000   # PLACE + hand index * HSTRIDE + node index
HSTRIDE = 1000

# Phases: who decides what.
MAIN, ENDTURN, OFFER, LIMIT, FLIP, FLIP_SILENT, TRASH, FLIP_POLICE, RESERVE, DISCARD, POLICE_PLACE, OVER = range(12)
PHASE_NAMES = ("main", "end of turn", "flip offer", "limit token", "flip (with reward)", "flip (no reward)",
               "trash police", "flip police", "reserve goal", "discard", "place police", "over")

REWARD_WORDS = ("hand", "discard", "reset", "limit", "pass", "flip", "flip-silent", "trash-police", "flip-police",
                "reserve")
TOKEN_WORDS = ("reset", "limit", "pass")
GOAL_WORDS = ("victims", "each-number", "each-color", "all-colors-flipped", "same-color-flipped",
              "same-number-flipped", "distinct-numbers-flipped", "branch-levels", "limit-tokens", "reset-tokens",
              "flipped-below-one", "flipped-police")
G_VICTIMS, G_EACH_NUMBER, G_EACH_COLOR, G_ALL_COLORS_F, G_SAME_COLOR_F, G_SAME_NUMBER_F, G_DISTINCT_F, G_LEVELS, \
    G_LIMITS, G_RESETS, G_BELOW_ONE, G_F_POLICE = range(len(GOAL_WORDS))

END_REASONS = {
    "last-standing": "one player left standing",
    "deck": "the deck ran out; most smart-asses won",
    "deck-tie": "the deck ran out; smart-ass count tied",
    "turn-cap": "stopped at the turn cap (no winner)",
    "loop": "stopped on a repeated position (no winner)",
    "stuck": "no legal action the rules cover (no winner)",
}
ELIMINATION_CAUSES = {
    "actions": "could not do the 2 actions",
    "police": "could not place a police",
}
STANDING = ("the search bot's evaluation of a player's position: smart-asses + 1.5 per card with room for a police "
            "below it (up to 3) + 0.3 per point of free room below cards + 2 per goal claimed + 0.5 per reset token "
            "+ 0.5 per point the hand limit has risen")

# Greedy's value of each reward word (per unit of its argument where it has one).
REWARD_VALUE = {"hand": 4.0, "discard": 1.0, "reset": 3.0, "limit": 1.5, "pass": 2.0, "flip": 5.0,
                "flip-silent": 3.0, "trash-police": 3.0, "flip-police": 3.0, "reserve": 2.0}

# ------------------------------------------------------------------ spec
PARAMS = {
    "condition_match": Param("at-least", "a flip condition needs at least (or exactly) the listed victims directly "
                             "below", ("at-least", "exactly")),
    "deck_exhaustion": Param("deck-empty", "deck-empty: the game ends as soon as the deck is empty and there is "
                             "no discard pile to reshuffle; refill: only when a display slot cannot be refilled",
                             ("deck-empty", "refill")),
    "optional_flip": Param(False, "ask the player before flipping a card whose condition is met (a flip never "
                           "hurts its owner, so by default it happens at once)"),
    "crumbled_cards": Param("discard", "where a crumbled pyramid's victims and hand go: discard (may be "
                            "reshuffled) or out (removed from the game)", ("discard", "out")),
    "flip_reward_police": Param(True, "the flip rewards ('flip any other card') may flip a police"),
    "reset_after_actions": Param(True, "a reset token may be spent after the second action, before the turn ends"),
    "hands_hidden": Param(True, "victims dealt at setup are hidden from opponents until played (taken cards are "
                          "seen by everyone)"),
    "start_hand": Param(2, "victims dealt to each player"),
    "display": Param(3, "victims displayed below the deck"),
    "hand_limit": Param(3, "victims a player may hold before rewards raise it"),
    "actions": Param(2, "actions per turn"),
    "open_goals": Param(6, "goals opened at setup"),
    "start_resets": Param(1, "reset tokens each player takes from the supply at setup"),
}


def make(data, players: int, **options) -> "PyramidScheme":
    return PyramidScheme(data, players, **options)


SPEC = GameSpec(
    slug="pyramid-scheme",
    title="Pyramid Scheme",
    min_players=2,
    max_players=4,
    params=PARAMS,
    make=make,
    module=__name__,
    end_reasons=END_REASONS,
    elimination_causes=ELIMINATION_CAUSES,
    standing=STANDING,
)


# ------------------------------------------------------------------ the Game
@dataclass(frozen=True)
class Design:
    """One row of the sheets as the report shows it."""

    id: str
    name: str
    deck: str
    color: str
    number: int | None
    requires: str
    effect: str
    where: str


class PyramidScheme:
    """The compiled game: card tables built once from the sheets, then shared by every state."""

    spec = SPEC

    def __init__(self, data, players: int, **options):
        opts = SPEC.options(options)
        if not SPEC.min_players <= players <= SPEC.max_players:
            raise RulesError(f"Pyramid Scheme takes {SPEC.min_players}-{SPEC.max_players} players, not {players}")
        self.players = players
        self.o = opts
        self.exact = opts["condition_match"] == "exactly"
        self.refill_mode = opts["deck_exhaustion"] == "refill"
        self.optional_flip = bool(opts["optional_flip"])
        self.crumble_out = opts["crumbled_cards"] == "out"
        self.flip_police_too = bool(opts["flip_reward_police"])
        self.reset_after = bool(opts["reset_after_actions"])
        self.hands_hidden = bool(opts["hands_hidden"])
        self.start_hand = opts["start_hand"]
        self.display_size = opts["display"]
        self.hand_limit = opts["hand_limit"]
        self.actions = opts["actions"]
        self.open_goals = opts["open_goals"]
        self.start_resets = opts["start_resets"]
        if self.display_size > 10:
            raise RulesError("rules option display: at most 10 victims can be displayed")
        if self.actions < 1:
            raise RulesError("rules option actions: a turn needs at least 1 action")
        self.title = data.title
        self.colors = tuple(data.manifest.colors)
        self._compile(data)

    # -- data -> tables
    def _compile(self, data) -> None:
        colors = self.colors
        cindex = {c: i for i, c in enumerate(colors)}
        designs: list[Design] = []
        kind, number, color, cbit, need, need_total, reward, design = [], [], [], [], [], [], [], []
        victims, police, founders = [], [], []
        problems = []

        def add_design(card) -> int:
            designs.append(Design(card.id, card.name, card.deck, card.color or "", card.number,
                                  str(card.requires), str(card.effect), card.where))
            return len(designs) - 1

        def condition(card):
            if not card.requires:
                return None, 0
            counts = [0] * len(colors)
            any_count = 0
            for term in card.requires:
                if term.word == "any":
                    any_count += term.count
                elif term.word in cindex:
                    counts[cindex[term.word]] += term.count
                else:
                    problems.append(f"{card.where}:requires: the rules engine has no meaning for '{term.word}'; "
                                    f"it knows: any, {', '.join(colors)}")
            pairs = tuple((k, n) for k, n in enumerate(counts) if n)
            return pairs, sum(counts) + any_count

        def rewards(card):
            out = []
            for term in card.effect:
                if term.word not in REWARD_WORDS:
                    problems.append(f"{card.where}:effect: the rules engine has no meaning for '{term.word}'; "
                                    f"it knows: {', '.join(REWARD_WORDS)}")
                    continue
                arg = term.args[0] if term.args else 0
                out.append((term.word, arg))
            return tuple(out)

        for card in data.cards:
            if card.deck not in ("victim", "police", "founder"):
                continue
            d = add_design(card)
            k = {"victim": VICTIM, "police": POLICE, "founder": FOUNDER}[card.deck]
            if card.number is None:
                problems.append(f"{card.where}:number: a {card.deck} needs a number for the placement rules")
                continue
            pairs, total = condition(card) if k != POLICE else (None, 0)
            rw = rewards(card) if k != POLICE else ()
            col = cindex.get(card.color, -1) if k == VICTIM else -1
            if k == VICTIM and col < 0:
                problems.append(f"{card.where}:color: a victim needs one of the colours {', '.join(colors)}")
                continue
            for _ in range(card.count):
                i = len(kind)
                kind.append(k)
                number.append(card.number)
                color.append(col)
                cbit.append(1 << col if col >= 0 else 0)
                need.append(pairs)
                need_total.append(total)
                reward.append(rw)
                design.append(d)
                (victims if k == VICTIM else police if k == POLICE else founders).append(i)

        sup_reset = sup_pass = 0
        sup_limit: dict[int, int] = {}
        for card in data.cards:
            if card.deck != "token":
                continue
            terms = list(card.effect)
            if len(terms) != 1 or terms[0].word not in TOKEN_WORDS:
                problems.append(f"{card.where}:effect: a token is one of {', '.join(TOKEN_WORDS)}, got '{card.effect}'")
                continue
            t = terms[0]
            if t.word == "reset":
                sup_reset += card.count
            elif t.word == "pass":
                sup_pass += card.count
            else:
                sup_limit[t.args[0]] = sup_limit.get(t.args[0], 0) + card.count

        goals, goal_designs = [], []
        for card in data.cards:
            if card.deck != "goal":
                continue
            terms = []
            for t in card.requires:
                if t.word not in GOAL_WORDS:
                    problems.append(f"{card.where}:requires: the rules engine has no meaning for goal word "
                                    f"'{t.word}'; it knows: {', '.join(GOAL_WORDS)}")
                    continue
                col = t.kw("color")
                terms.append((GOAL_WORDS.index(t.word), t.count, cindex[col] if col is not None else -1,
                              t.kw("number")))
            goal_designs.append(Design(card.id, card.name, "goal", "", None, str(card.requires), "", card.where))
            for _ in range(card.count):
                goals.append((len(goal_designs) - 1, tuple(terms)))

        if problems:
            raise RulesError("; ".join(problems))
        self.designs = tuple(designs)
        self.goal_designs = tuple(goal_designs)
        self.KIND, self.NUM, self.COL, self.CBIT = tuple(kind), tuple(number), tuple(color), tuple(cbit)
        self.NEED, self.NEED_TOTAL = tuple(need), tuple(need_total)
        self.REWARD, self.DESIGN = tuple(reward), tuple(design)
        self.victims, self.police, self.founders = tuple(victims), tuple(police), tuple(founders)
        self.goals = tuple(goals)
        self.sup_reset, self.sup_pass, self.sup_limit = sup_reset, sup_pass, dict(sorted(sup_limit.items()))
        self.numbers = tuple(sorted({number[v] for v in victims}))
        self.police_number = number[police[0]] if police else 3
        self.RVAL = tuple(sum(REWARD_VALUE[w] * (a if w in ("hand", "limit") and a else 1) for w, a in rw)
                          for rw in reward)
        self._check_playable()

    def _check_playable(self) -> None:
        n = self.players
        if len(self.founders) < n:
            raise RulesError(f"{n} players need {n} founders; the sheets have {len(self.founders)}")
        need = n * self.start_hand + self.display_size
        if len(self.victims) < need:
            raise RulesError(f"{n} players need at least {need} victims to set up; the sheets have {len(self.victims)}")
        if self.sup_reset < n * self.start_resets:
            raise RulesError(f"{n} players take {self.start_resets} reset token(s) each at setup; "
                             f"the sheets have {self.sup_reset}")

    # -- protocol
    def new_initial_state(self, rng: random.Random) -> "State":
        return State(self, rng)

    def card_label(self, card: int) -> str:
        d = self.designs[self.DESIGN[card]]
        if self.KIND[card] == VICTIM:
            return f"{d.name} ({d.color} {d.number}, {d.id})"
        return d.name


# ------------------------------------------------------------------ one pyramid
class Pyramid:
    """One player's tree of cards.  Node 0 is the founder; a node's parent always
    has a smaller index.  Per node: the card, its parent, the capacity left below
    it (its number + limit tokens - the numbers directly below; -1 where nothing
    may go: an unflipped police or a trashed slot), the colours of unflipped
    victims on its branch (a bit mask), and counts used by conditions and goals."""

    __slots__ = ("card", "parent", "cap", "mask", "flipped", "depth", "nvict", "ccol", "nchild", "fchild", "tok",
                 "passed", "ncol", "fxf", "fxh", "n_victims", "by_color", "by_number", "by_both", "f_color", "f_number",
                 "f_police", "founder_flipped", "limits", "max_depth", "max_fchild", "flips")

    def __init__(self, ncol: int, founder: int = -1, number: int = 0):
        self.ncol = ncol
        self.card = [founder]
        self.parent = [-1]
        self.cap = [number]
        self.mask = [0]
        self.flipped = [False]
        self.depth = [1]
        self.nvict = [0]
        self.ccol = [0] * ncol
        self.nchild = [0]
        self.fchild = [0]
        self.tok = [()]  # the limit tokens on each card (amounts)
        self.passed = []
        self.fxf = [0]  # colours (bits) of which one more victim below would meet the condition
        self.fxh = [0]  # colours (bits) of which one more victim below counts towards it
        self.n_victims = 0
        self.by_color = [0] * ncol
        self.by_number: dict[int, int] = {}
        self.by_both: dict[tuple[int, int], int] = {}
        self.f_color = [0] * ncol
        self.f_number: dict[int, int] = {}
        self.f_police = 0
        self.founder_flipped = False
        self.limits = 0
        self.max_depth = 1
        self.max_fchild = 0
        self.flips = 0  # smart-asses: flipped victims, founder and police

    @classmethod
    def empty(cls, ncol: int) -> "Pyramid":
        """The pyramid of a player who is out: no cards at all."""
        p = cls(ncol)
        for name in ("card", "parent", "cap", "mask", "flipped", "depth", "nvict", "ccol", "nchild", "fchild", "tok",
                     "fxf", "fxh"):
            setattr(p, name, [])
        return p

    def copy(self) -> "Pyramid":
        p = Pyramid.__new__(Pyramid)
        p.ncol = self.ncol
        p.card = self.card[:]
        p.parent = self.parent[:]
        p.cap = self.cap[:]
        p.mask = self.mask[:]
        p.flipped = self.flipped[:]
        p.depth = self.depth[:]
        p.nvict = self.nvict[:]
        p.ccol = self.ccol[:]
        p.nchild = self.nchild[:]
        p.fchild = self.fchild[:]
        p.tok = self.tok[:]
        p.passed = self.passed[:]
        p.fxf = self.fxf[:]
        p.fxh = self.fxh[:]
        p.n_victims = self.n_victims
        p.by_color = self.by_color[:]
        p.by_number = dict(self.by_number)
        p.by_both = dict(self.by_both)
        p.f_color = self.f_color[:]
        p.f_number = dict(self.f_number)
        p.f_police = self.f_police
        p.founder_flipped = self.founder_flipped
        p.limits = self.limits
        p.max_depth = self.max_depth
        p.max_fchild = self.max_fchild
        p.flips = self.flips
        return p

    def __len__(self) -> int:
        return len(self.card)

    def nodes(self):
        """Indices of the cards in the pyramid (trashed slots left out)."""
        return [v for v, c in enumerate(self.card) if c >= 0]

    def add(self, g: PyramidScheme, c: int, v: int, with_pass: bool = False) -> int:
        """Put card ``c`` directly below node ``v``; return the new node."""
        i = len(self.card)
        n = g.NUM[c]
        self.card.append(c)
        self.parent.append(v)
        self.cap[v] -= n
        self.flipped.append(False)
        self.nvict.append(0)
        self.ccol.extend([0] * self.ncol)
        self.nchild.append(0)
        self.fchild.append(0)
        self.tok.append(())
        self.fxf.append(0)
        self.fxh.append(0)
        self.nchild[v] += 1
        if g.KIND[c] == VICTIM:
            col = g.COL[c]
            self.cap.append(n)
            self.mask.append(self.mask[v] | g.CBIT[c])
            d = self.depth[v] + 1
            self.depth.append(d)
            if d > self.max_depth:
                self.max_depth = d
            self.nvict[v] += 1
            self.ccol[v * self.ncol + col] += 1
            self.n_victims += 1
            self.by_color[col] += 1
            self.by_number[n] = self.by_number.get(n, 0) + 1
            key = (col, n)
            self.by_both[key] = self.by_both.get(key, 0) + 1
            if with_pass:
                self.passed.append(i)
            self.refx(g, v)
            if g.NEED_TOTAL[c]:
                self.refx(g, i)
        else:  # a police: nothing below it until flipped; not a level of a branch
            self.cap.append(-1)
            self.mask.append(self.mask[v])
            self.depth.append(self.depth[v])
        return i

    def refx(self, g: PyramidScheme, v: int) -> None:
        """Refresh what one more victim below ``v`` would do to v's condition
        (read by the greedy heuristic; the rules use condition_met)."""
        c = self.card[v]
        need = g.NEED[c]
        if not g.NEED_TOTAL[c] or self.flipped[v] or g.KIND[c] == POLICE:
            self.fxf[v] = self.fxh[v] = 0
            return
        total = g.NEED_TOTAL[c]
        nv = self.nvict[v]
        base = v * self.ncol
        bits = short = 0
        for k, n in need:
            d = n - self.ccol[base + k]
            if d > 0:
                bits |= 1 << k
                short += d
        every = (1 << self.ncol) - 1
        self.fxh[v] = every if nv + short < total else bits
        flip = 0
        if nv + 1 >= total and (not g.exact or nv + 1 == total):
            flip = every if short == 0 else bits if short == 1 else 0
        self.fxf[v] = flip

    def flip(self, g: PyramidScheme, u: int) -> None:
        c = self.card[u]
        self.flipped[u] = True
        self.fxf[u] = self.fxh[u] = 0
        self.flips += 1
        k = g.KIND[c]
        if k == VICTIM:
            self.f_color[g.COL[c]] += 1
            n = g.NUM[c]
            self.f_number[n] = self.f_number.get(n, 0) + 1
            self._remask(g, u)
        elif k == POLICE:
            self.cap[u] = g.NUM[c] + sum(self.tok[u])
            n = g.NUM[c]
            self.f_number[n] = self.f_number.get(n, 0) + 1
            self.f_police += 1
        else:
            self.founder_flipped = True
        p = self.parent[u]
        if p >= 0:
            self.fchild[p] += 1
            if self.fchild[p] > self.max_fchild:
                self.max_fchild = self.fchild[p]

    def _remask(self, g: PyramidScheme, u: int) -> None:
        """Colours on branches below ``u`` after it flipped (parents precede children)."""
        card, parent, mask, flipped, cbit = self.card, self.parent, self.mask, self.flipped, g.CBIT
        for w in range(u, len(card)):
            c = card[w]
            if c < 0:
                continue
            p = parent[w]
            base = mask[p] if p >= 0 else 0
            mask[w] = base if flipped[w] else base | cbit[c]

    def add_limit(self, v: int, amount: int) -> None:
        """Put a +``amount`` limit token on node ``v``."""
        self.tok[v] += (amount,)
        self.limits += 1
        if self.cap[v] >= 0:  # an unflipped police gets its room when it flips
            self.cap[v] += amount

    def remove_leaf(self, g: PyramidScheme, u: int) -> int:
        """Take a childless card out (trash a police) with its limit tokens; return the card."""
        self.limits -= len(self.tok[u])
        self.tok[u] = ()
        c = self.card[u]
        p = self.parent[u]
        self.cap[p] += g.NUM[c]
        self.nchild[p] -= 1
        if self.flipped[u]:
            self.flips -= 1
            n = g.NUM[c]
            self.f_number[n] -= 1
            self.f_police -= 1
            self.fchild[p] -= 1
            self.max_fchild = max(self.fchild)
        self.card[u] = -1
        self.cap[u] = -1
        self.flipped[u] = False
        return c

    def condition_met(self, g: PyramidScheme, v: int) -> bool:
        c = self.card[v]
        need = g.NEED[c]
        if not g.NEED_TOTAL[c]:
            return False
        nv = self.nvict[v]
        total = g.NEED_TOTAL[self.card[v]]
        if nv < total or (g.exact and nv != total):
            return False
        base = v * self.ncol
        ccol = self.ccol
        for k, n in need:
            if ccol[base + k] < n:
                return False
        return True

    def victims(self, col: int = -1, num=None) -> int:
        if col < 0:
            return self.n_victims if num is None else self.by_number.get(num, 0)
        if num is None:
            return self.by_color[col]
        return self.by_both.get((col, num), 0)


# ------------------------------------------------------------------ the State
class State:
    """One game in progress.  ``cur`` decides; ``turn_player`` owns the turn."""

    __slots__ = ("g", "rng", "n", "alive", "hands", "secret", "limit", "resets", "passes", "pyr", "deck", "display",
                 "discard", "out", "police", "box", "sup_reset", "sup_pass", "sup_limit", "goals_open", "reserved",
                 "claimed", "start", "turn_player", "cur", "phase", "actions_left", "todo", "pending", "turns",
                 "rounds", "last_seat", "n_actions", "end", "winners", "eliminated", "log", "_legal", "_near",
                 "st_drawn", "st_placed", "st_flipped", "st_goals", "st_rew", "st_counts")

    def __init__(self, g: PyramidScheme, rng: random.Random | None, *, setup: bool = True):
        self.g = g
        self.rng = rng
        self.log = None
        self._near = None
        if setup:
            self._setup()

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
    def position(cls, g: PyramidScheme, *, pyramids, hands=None, display=(), deck=None, discard=(), goals=None,
                 reserved=None, resets=None, passes=None, limits=None, player=0, actions_left=None,
                 seed=0, unused="deck") -> "State":
        """A constructed position, for tests and examples.

        ``pyramids``: per player a list of ``(design_id, parent_node)`` (node 0 is
        the founder, parent None), optionally ``(id, parent, True)`` for a flipped
        card or ``(id, parent, flipped, limit_tokens)``.  Cards are given by
        design id; every component not named is put where setup would leave it
        (victims at the bottom of the deck - or out of the game with
        ``unused="out"`` - police and tokens in the supply, goals in the box).
        ``deck`` lists the deck from the bottom to the (face-up) top.
        """
        s = cls(g, random.Random(seed), setup=False)
        n = len(pyramids)
        if n != g.players:
            raise ValueError(f"the game was compiled for {g.players} players, the position has {n}")
        s._blank(n)
        free: dict[str, list[int]] = {}
        for c in range(len(g.KIND)):
            free.setdefault(g.designs[g.DESIGN[c]].id, []).append(c)

        def take(design_id: str) -> int:
            try:
                return free[design_id].pop(0)
            except (KeyError, IndexError):
                raise ValueError(f"no copy of '{design_id}' left for the position") from None

        police_used = []
        for p, spec in enumerate(pyramids):
            pyr = None
            for i, item in enumerate(spec):
                did, parent, *rest = item
                flip = bool(rest[0]) if rest else False
                tokens = list(rest[1]) if len(rest) > 1 else []
                c = take(did)
                if i == 0:
                    pyr = Pyramid(len(g.colors), c, g.NUM[c])
                    v = 0
                else:
                    v = pyr.add(g, c, parent)
                if g.KIND[c] == POLICE:
                    police_used.append(c)
                for amount in tokens:
                    s.sup_limit[amount] -= 1
                    pyr.add_limit(v, amount)
                if flip:
                    pyr.flip(g, v)
            s.pyr.append(pyr)
        s.police = [c for c in g.police if c not in set(police_used)]
        for p, h in enumerate(hands or [[] for _ in range(n)]):
            s.hands[p] = [take(d) for d in h]
        s.display = [take(d) if d else -1 for d in display]
        s.discard = [take(d) for d in discard]
        named_deck = [take(d) for d in (deck or [])]
        rest = sorted(c for cs in free.values() for c in cs if g.KIND[c] == VICTIM)
        if unused == "out":
            s.out.extend(rest)
            rest = []
        s.deck = rest + named_deck
        s.box.extend(c for cs in free.values() for c in cs if g.KIND[c] == FOUNDER)
        if goals is None:
            goals = []
        gid = {d.id: i for i, d in enumerate(g.goal_designs)}
        s.goals_open = sorted(next(i for i, (d, _) in enumerate(g.goals) if d == gid[x]) for x in goals)
        s.box.extend(("goal", i) for i in range(len(g.goals)) if i not in s.goals_open)
        for goal_id, p in (reserved or {}).items():
            s.reserved[next(i for i in s.goals_open if g.goals[i][0] == gid[goal_id])] = p
        s.resets = list(resets) if resets is not None else [g.start_resets] * n
        s.sup_reset -= sum(s.resets)
        s.passes = list(passes) if passes is not None else [0] * n
        s.sup_pass -= sum(s.passes)
        if limits is not None:
            s.limit = list(limits)
        s.start = s.turn_player = s.cur = player
        s.phase = MAIN
        s.actions_left = g.actions if actions_left is None else actions_left
        if s.actions_left > 0:
            s._main_or_crumble()  # as at any turn start: a player who cannot act crumbles
        return s

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

    def legal_actions(self) -> list[int]:
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

    def _flip(self, p: int, v: int, with_reward: bool) -> None:
        g = self.g
        pyr = self.pyr[p]
        c = pyr.card[v]
        pyr.flip(g, v)
        self.st_flipped.append((p, g.DESIGN[c]))
        if self.log is not None:
            self._event(f"P{p + 1} flips {g.card_label(c)}" + ("" if with_reward else " (no reward)"))
        if with_reward:
            for word, arg in reversed(g.REWARD[c]):
                self.todo.append(("reward", word, arg))

    def _rew(self, word: str, effect: bool) -> None:
        r = self.st_rew.get(word)
        if r is None:
            r = self.st_rew[word] = [0, 0]
        r[0] += 1
        if effect:
            r[1] += 1

    def _take_token(self, p: int, word: str) -> None:
        """A reset or colour-pass reward: one token from the supply, if one is left."""
        if word == "reset":
            taken = self.sup_reset > 0
            if taken:
                self.sup_reset -= 1
                self.resets[p] += 1
        else:
            taken = self.sup_pass > 0
            if taken:
                self.sup_pass -= 1
                self.passes[p] += 1
        self._rew(word, taken)
        if not taken:
            self.st_counts[f"{word}_short"] += 1
        elif self.log is not None:
            self._event(f"P{p + 1} takes a {'reset' if word == 'reset' else 'colour pass'} token")

    def _reward(self, word: str, arg: int) -> bool:
        """Resolve one reward of the turn player; True when a decision is pending."""
        p = self.turn_player
        g = self.g
        pyr = self.pyr[p]
        if word == "hand":
            self.limit[p] += arg
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1}'s hand limit rises to {self.limit[p]}")
            return False
        if word == "reset" or word == "pass":
            self._take_token(p, word)
            return False
        if word == "limit":
            targets = []
            if self.sup_limit.get(arg, 0) > 0:
                targets = [v for v, c in enumerate(pyr.card) if c >= 0 and (g.KIND[c] != POLICE or pyr.flipped[v])]
            else:
                self.st_counts["limit_short"] += 1
            return self._ask(LIMIT, word, arg, targets)
        if word == "discard":
            return self._ask(DISCARD, word, arg, list(range(len(self.hands[p]))))
        if word in ("flip", "flip-silent"):
            targets = [v for v, c in enumerate(pyr.card)
                       if c >= 0 and not pyr.flipped[v] and (self.g.flip_police_too or g.KIND[c] != POLICE)]
            return self._ask(FLIP if word == "flip" else FLIP_SILENT, word, arg, targets)
        if word == "trash-police":
            targets = [v for v, c in enumerate(pyr.card) if c >= 0 and g.KIND[c] == POLICE and not pyr.nchild[v]]
            return self._ask(TRASH, word, arg, targets)
        if word == "flip-police":
            targets = [v for v, c in enumerate(pyr.card) if c >= 0 and g.KIND[c] == POLICE and not pyr.flipped[v]]
            return self._ask(FLIP_POLICE, word, arg, targets)
        if word == "reserve":
            targets = [i for i, gi in enumerate(self.goals_open) if gi not in self.reserved]
            return self._ask(RESERVE, word, arg, targets)
        raise RulesError(f"no rules for reward '{word}'")  # the compiler rejects unknown words first

    def _ask(self, phase: int, word: str, arg: int, targets: list[int]) -> bool:
        if not targets:
            self._rew(word, False)
            return False
        self.phase = phase
        self.cur = self.turn_player
        self.pending = (word, targets, arg)
        return True

    def _decide(self, ph: int, a: int) -> None:
        g = self.g
        p = self.cur
        pyr = self.pyr[p]
        word = self.pending[0]
        if ph == POLICE_PLACE:
            v = a - TARGET
            c = self.police.pop()
            pyr.add(g, c, v)
            self.st_counts["police_placed"] += 1
            if self.log is not None:
                self._event(f"P{p + 1} places a police below {g.card_label(pyr.card[v])}")
        elif ph == OFFER:
            if a == YES:
                self._flip(p, self.pending[1][0], True)
        elif ph == DISCARD:
            if a == END:
                self._rew(word, self.pending[2] > 0)
            else:
                h = a - TARGET
                c = self.hands[p].pop(h)
                self.secret[p].discard(c)
                self.discard.append(c)
                if self.log is not None:
                    self._event(f"P{p + 1} discards {g.card_label(c)} from the hand")
                if self.hands[p]:
                    self.pending = (word, list(range(len(self.hands[p]))), self.pending[2] + 1)
                    return
                self._rew(word, True)
        elif a == END:
            self._rew(word, False)
        elif ph == LIMIT:
            v = a - TARGET
            amount = self.pending[2]
            self.sup_limit[amount] -= 1
            pyr.add_limit(v, amount)
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1} puts a +{amount} limit token on {g.card_label(pyr.card[v])}")
        elif ph in (FLIP, FLIP_SILENT, FLIP_POLICE):
            self._rew(word, True)
            self._flip(p, a - TARGET, ph == FLIP)
        elif ph == TRASH:
            v = a - TARGET
            for amount in pyr.tok[v]:
                self.sup_limit[amount] += 1
            c = pyr.remove_leaf(g, v)
            self.police.append(c)
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1} trashes a police")
        elif ph == RESERVE:
            gi = self.goals_open[a - TARGET]
            self.reserved[gi] = p
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1} reserves goal {g.goal_designs[g.goals[gi][0]].name}")
        self.phase = MAIN
        self.cur = self.turn_player
        self.pending = None
        self._resume()

    def _check_goals(self, p: int) -> None:
        done = []
        reserved = self.reserved
        for gi in self.goals_open:
            if (not reserved or reserved.get(gi, p) == p) and self.goal_met(p, gi):
                done.append(gi)
        if not done:
            return
        g = self.g
        tasks = []
        order = [(p + k) % self.n for k in range(1, self.n)]
        for gi in done:
            self.goals_open.remove(gi)
            self.reserved.pop(gi, None)
            self.claimed[p].append(gi)
            self.st_goals.append((gi, p, self.turns))
            if self.log is not None:
                self._event(f"P{p + 1} claims goal {g.goal_designs[g.goals[gi][0]].name}: "
                            "every other player must place a police")
            tasks.extend(("police", q) for q in order)
        self.todo.extend(reversed(tasks))

    def _police(self, q: int) -> bool:
        """Player ``q`` must place a police; True when they must choose where."""
        if not self.alive[q]:
            return False
        if not self.police:
            self.st_counts["police_short"] += 1
            if self.log is not None:
                self._event(f"no police left in the supply for P{q + 1}")
            return False
        pyr = self.pyr[q]
        n = self.g.police_number
        targets = [v for v, k in enumerate(pyr.cap) if k >= n]
        if not targets:
            self._eliminate(q, "police")
            return False
        self.phase = POLICE_PLACE
        self.cur = q
        self.pending = ("police", targets, 0)
        return True

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
        pyr = self.pyr[p]
        g = self.g
        for kind, n, col, num in g.goals[gi][1]:
            if kind == G_VICTIMS:
                if col < 0:
                    ok = (pyr.n_victims if num is None else pyr.by_number.get(num, 0)) >= n
                else:
                    ok = (pyr.by_color[col] if num is None else pyr.by_both.get((col, num), 0)) >= n
            elif kind == G_EACH_NUMBER:
                ok = all(pyr.by_number.get(k) for k in g.numbers)
            elif kind == G_EACH_COLOR:
                ok = min(pyr.by_color) >= n
            elif kind == G_ALL_COLORS_F:
                ok = min(pyr.f_color) >= 1
            elif kind == G_SAME_COLOR_F:
                ok = max(pyr.f_color) >= n
            elif kind == G_SAME_NUMBER_F:
                ok = max(pyr.f_number.values(), default=0) >= n
            elif kind == G_DISTINCT_F:
                nums = {k for k, m in pyr.f_number.items() if m}
                if pyr.founder_flipped:
                    nums.add(g.NUM[pyr.card[0]])
                ok = len(nums) >= n
            elif kind == G_LEVELS:
                ok = pyr.max_depth >= n
            elif kind == G_LIMITS:
                ok = pyr.limits >= n
            elif kind == G_RESETS:
                ok = self.resets[p] >= n
            elif kind == G_BELOW_ONE:
                ok = pyr.max_fchild >= n
            else:  # G_F_POLICE
                ok = pyr.f_police >= n
            if not ok:
                return False
        return True

    # -- copies and hidden information
    def clone(self) -> "State":
        s = State.__new__(State)
        s.g = self.g
        s.rng = self.rng
        s.log = None
        s._near = None
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
        s.st_placed = []
        s.st_flipped = []
        s.st_goals = []
        s.st_rew = {}
        s.st_counts = dict(self.st_counts)
        return s

    def determinize(self, player: int, rng: random.Random) -> "State":
        """A copy in which everything ``player`` cannot see is drawn again at
        random: the deck below its face-up top card and the opponents' victims
        that were dealt face down and are still in their hands."""
        s = self.clone()
        s.rng = random.Random(rng.getrandbits(64))
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

    # -- reading the state
    def action_to_string(self, a: int) -> str:
        g = self.g
        p = self.cur
        ph = self.phase
        if ph == MAIN or ph == ENDTURN:
            if a == RESET:
                return "spend a reset token (refresh the display)"
            if a == END:
                return "end the turn"
            if TAKE <= a < RESET:
                c = self.display[a - TAKE] if a - TAKE < len(self.display) else -1
                return f"take {g.card_label(c) if c >= 0 else 'an empty slot'} from display slot {a - TAKE + 1}"
            if a >= PLACE:
                h, v = divmod(a - PLACE, HSTRIDE)
                hand, pyr = self.hands[p], self.pyr[p]
                c = hand[h] if h < len(hand) else -1
                below = g.card_label(pyr.card[v]) if v < len(pyr.card) and pyr.card[v] >= 0 else f"node {v}"
                return f"place {g.card_label(c) if c >= 0 else f'hand card {h}'} below {below} (node {v})"
        if a == END:
            return "skip" if ph != DISCARD else "stop discarding"
        if a == YES:
            return "flip it"
        t = a - TARGET
        pyr = self.pyr[p]
        if ph == RESERVE:
            gi = self.goals_open[t] if t < len(self.goals_open) else -1
            return f"reserve goal {g.goal_designs[g.goals[gi][0]].name}" if gi >= 0 else f"reserve goal {t}"
        if ph == DISCARD:
            h = self.hands[p]
            return f"discard {g.card_label(h[t])}" if t < len(h) else f"discard hand card {t}"
        what = {LIMIT: "put the limit token on", FLIP: "flip", FLIP_SILENT: "flip", TRASH: "trash the police",
                FLIP_POLICE: "flip the police", POLICE_PLACE: "place the police below"}.get(ph, "choose")
        label = g.card_label(pyr.card[t]) if 0 <= t < len(pyr.card) and pyr.card[t] >= 0 else f"node {t}"
        return f"{what} {label} (node {t})"

    def describe(self) -> str:
        """The whole position as text (for replays and error messages)."""
        g = self.g
        lines = [f"turn {self.turns}, round {self.rounds}, phase {PHASE_NAMES[self.phase]}, "
                 f"P{self.cur + 1} to act, {self.actions_left} action(s) left"]
        lines.append("display: " + ", ".join(g.card_label(c) if c >= 0 else "-" for c in self.display)
                     + f"; deck {len(self.deck)} (top {g.card_label(self.deck[-1]) if self.deck else '-'}), "
                     f"discard {len(self.discard)}, police supply {len(self.police)}")
        lines.append("open goals: " + ", ".join(
            g.goal_designs[g.goals[gi][0]].name + (f" (reserved by P{self.reserved[gi] + 1})" if gi in self.reserved
                                                  else "") for gi in self.goals_open))
        for p in range(self.n):
            if not self.alive[p]:
                lines.append(f"P{p + 1}: out")
                continue
            lines.append(f"P{p + 1}: hand [{', '.join(g.card_label(c) for c in self.hands[p])}] limit {self.limit[p]},"
                         f" reset tokens {self.resets[p]}, passes {self.passes[p]}, smart-asses {self.pyr[p].flips}")
            pyr = self.pyr[p]
            kids: dict[int, list[int]] = {}
            for v in pyr.nodes():
                kids.setdefault(pyr.parent[v], []).append(v)
            stack = [(0, 0)] if pyr.card else []
            while stack:  # depth first, so every card sits under the one it is placed below
                v, depth = stack.pop()
                extra = (" flipped" if pyr.flipped[v] else "") + (f" +{sum(pyr.tok[v])}" if pyr.tok[v] else "")
                lines.append(f"    {'  ' * depth}[{v}] {g.card_label(pyr.card[v])}{extra}, room {max(pyr.cap[v], 0)}")
                stack.extend((u, depth + 1) for u in reversed(kids.get(v, [])))
        return "\n".join(lines)

    def _event(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def position_key(self) -> tuple:
        """Everything that matters for the future of the game (loop detection)."""
        return (self.turn_player, self.phase, tuple(self.alive), tuple(tuple(h) for h in self.hands),
                tuple(self.limit), tuple(self.resets), tuple(self.passes), tuple(self.deck), tuple(self.display),
                tuple(self.discard), tuple(tuple(p.card) + tuple(p.flipped) + tuple(map(len, p.tok)) for p in self.pyr),
                tuple(self.goals_open), tuple(sorted(self.reserved.items())))

    # -- the record the runner aggregates
    def record(self) -> dict:
        g = self.g
        placed_by = [set() for _ in range(self.n)]
        placed = {}
        for p, d in self.st_placed:
            placed_by[p].add(g.designs[d].id)
            placed[d] = placed.get(d, 0) + 1
        flipped = {}
        for _, d in self.st_flipped:
            flipped[d] = flipped.get(d, 0) + 1
        cards = {}
        for d, design in enumerate(g.designs):
            if design.deck != "victim" and design.deck != "founder":
                continue
            cards[design.id] = (self.st_drawn[d], placed.get(d, 0), flipped.get(d, 0))
        return {
            "turns": self.turns,
            "rounds": self.rounds,
            "actions": self.n_actions,
            "end": self.end,
            "winners": list(self.winners),
            "seats": [self.seat(p) for p in range(self.n)],
            "eliminations": [(p, cause, turn) for p, cause, turn in self.eliminated],
            "score": [self.pyr[p].flips if self.alive[p] else None for p in range(self.n)],
            "cards": cards,
            "placed_by": [sorted(s) for s in placed_by],
            "goals_open": [g.goal_designs[g.goals[gi][0]].id for gi in self._dealt_goals()],
            "goals_claimed": [(g.goal_designs[g.goals[gi][0]].id, p, turn) for gi, p, turn in self.st_goals],
            "rewards": {w: tuple(v) for w, v in self.st_rew.items()},
            "counts": dict(self.st_counts),
        }

    def _dealt_goals(self) -> list[int]:
        boxed = {x[1] for x in self.box if isinstance(x, tuple)}
        return [i for i in range(len(self.g.goals)) if i not in boxed]

    # -- invariants (--strict)
    def check_invariants(self) -> None:
        """Raise AssertionError naming the first broken invariant."""
        g = self.g
        where: dict[int, str] = {}

        def put(c: int, place: str) -> None:
            if c in where:
                raise AssertionError(f"{g.card_label(c)} is both in {where[c]} and in {place}")
            where[c] = place

        for c in self.deck:
            put(c, "the deck")
        for c in self.display:
            if c >= 0:
                put(c, "the display")
        for c in self.discard:
            put(c, "the discard pile")
        for c in self.out:
            put(c, "out of the game")
        for c in self.police:
            put(c, "the police supply")
        for x in self.box:
            if not isinstance(x, tuple):
                put(x, "the box")
        for p in range(self.n):
            for c in self.hands[p]:
                put(c, f"P{p + 1}'s hand")
            for c in self.pyr[p].card:
                if c >= 0:
                    put(c, f"P{p + 1}'s pyramid")
        missing = [c for c in range(len(g.KIND)) if c not in where]
        if missing:
            raise AssertionError(f"{g.card_label(missing[0])} is nowhere ({len(missing)} component(s) lost)")
        for p in range(self.n):
            if self.alive[p] and len(self.hands[p]) > self.limit[p]:
                raise AssertionError(f"P{p + 1} holds {len(self.hands[p])} victims, over the limit {self.limit[p]}")
            if not self.alive[p] and (self.hands[p] or self.pyr[p].card):
                raise AssertionError(f"P{p + 1} is out but still has cards")
        # tokens: supply + held + placed = printed
        placed_limits: dict[int, int] = {}
        for pyr in self.pyr:
            for v, t in enumerate(pyr.tok):
                for amount in t:
                    placed_limits[amount] = placed_limits.get(amount, 0) + 1
        if self.sup_reset + sum(self.resets) != g.sup_reset:
            raise AssertionError(f"reset tokens: {self.sup_reset} in the supply + {sum(self.resets)} held "
                                 f"!= {g.sup_reset} printed")
        if self.sup_pass + sum(self.passes) != g.sup_pass:
            raise AssertionError(f"pass tokens: {self.sup_pass} + {sum(self.passes)} != {g.sup_pass} printed")
        for amount, total in g.sup_limit.items():
            if self.sup_limit.get(amount, 0) + placed_limits.get(amount, 0) != total:
                raise AssertionError(f"+{amount} limit tokens: {self.sup_limit.get(amount, 0)} in the supply + "
                                     f"{placed_limits.get(amount, 0)} placed != {total} printed")
        goals = list(self.goals_open) + [gi for c in self.claimed for gi in c] + \
            [x[1] for x in self.box if isinstance(x, tuple)]
        if sorted(goals) != list(range(len(g.goals))):
            raise AssertionError(f"goals are lost or doubled: {sorted(goals)}")
        for p in range(self.n):
            if self.alive[p]:
                self._check_pyramid(p)

    def _check_pyramid(self, p: int) -> None:
        g = self.g
        pyr = self.pyr[p]
        who = f"P{p + 1}'s pyramid"
        if g.KIND[pyr.card[0]] != FOUNDER:
            raise AssertionError(f"{who} has no founder at the top")
        below = [0] * len(pyr.card)
        kids = [0] * len(pyr.card)
        for v, c in enumerate(pyr.card):
            if c < 0 or v == 0:
                continue
            u = pyr.parent[v]
            if pyr.card[u] < 0:
                raise AssertionError(f"{who}: {g.card_label(c)} hangs below a removed card")
            below[u] += g.NUM[c]
            kids[u] += 1
            if g.KIND[pyr.card[u]] == POLICE and not pyr.flipped[u]:
                raise AssertionError(f"{who}: {g.card_label(c)} is below an unflipped police")
            if g.KIND[c] == VICTIM and v not in pyr.passed:
                w = u
                while w >= 0:
                    a = pyr.card[w]
                    if g.KIND[a] == VICTIM and g.COL[a] == g.COL[c] and not pyr.flipped[w]:
                        raise AssertionError(f"{who}: {g.card_label(c)} is below {g.card_label(a)} of the same "
                                             "colour, which is not flipped")
                    w = pyr.parent[w]
        for v, c in enumerate(pyr.card):
            if c < 0:
                continue
            room = g.NUM[c] + sum(pyr.tok[v])
            if below[v] > room:
                raise AssertionError(f"{who}: the numbers below {g.card_label(c)} add up to {below[v]}, more than "
                                     f"{room}")
            hosts = g.KIND[c] != POLICE or pyr.flipped[v]
            expect = room - below[v] if hosts else -1
            if pyr.cap[v] != expect:
                raise AssertionError(f"{who}: room below {g.card_label(c)} is {pyr.cap[v]}, should be {expect}")
            if kids[v] != pyr.nchild[v]:
                raise AssertionError(f"{who}: child count of {g.card_label(c)} is off")
            if pyr.tok[v] and g.KIND[c] == POLICE and not pyr.flipped[v]:
                raise AssertionError(f"{who}: a limit token sits on an unflipped police")

    # ------------------------------------------------------------------ greedy heuristic
    def greedy_scores(self, actions: list[int]) -> list[float]:
        """A score per legal action for the greedy bot: flip, finish goals, keep
        capacity.  Reads only what the deciding player may see."""
        ph = self.phase
        if ph == MAIN:
            return self._score_main(actions)
        p = self.cur
        g = self.g
        pyr = self.pyr[p]
        if ph == ENDTURN:
            return [-1.0 if a == RESET else 0.0 for a in actions]
        if ph == OFFER:
            return [1.0 if a == YES else 0.0 for a in actions]
        if ph == POLICE_PLACE:
            return [self._score_police(pyr, a - TARGET) for a in actions]
        out = []
        for a in actions:
            if a == END:
                out.append(0.0 if ph != TRASH else 0.5)
                continue
            t = a - TARGET
            if ph == LIMIT:
                c = pyr.card[t]
                need = g.NEED_TOTAL[c] - pyr.nvict[t] if not pyr.flipped[t] and g.NEED_TOTAL[c] else 0
                short = need - pyr.cap[t] if need > 0 else 0
                out.append(1.0 + 3.0 * (short > 0) + 0.1 * pyr.cap[t] + (0.5 if g.KIND[c] == FOUNDER else 0.0))
            elif ph in (FLIP, FLIP_SILENT):
                c = pyr.card[t]
                k = g.KIND[c]
                val = 2.0
                if ph == FLIP:
                    val += g.RVAL[c]
                if k == POLICE:
                    val += 2.5
                elif k == VICTIM:
                    val += 0.5 * (len(pyr.card) - t > 1)
                out.append(val)
            elif ph == TRASH:
                out.append(3.0 if not pyr.flipped[t] else 0.0)
            elif ph == FLIP_POLICE:
                out.append(2.0)
            elif ph == RESERVE:
                out.append(1.0 + self._goal_progress(p, self.goals_open[t]))
            elif ph == DISCARD:
                c = self.hands[p][t]
                out.append(-0.5 if self._placeable(p, c) else 1.0)
            else:
                out.append(0.0)
        return out

    def _placeable(self, p: int, c: int) -> bool:
        pyr = self.pyr[p]
        n = self.g.NUM[c]
        b = 0 if self.passes[p] else self.g.CBIT[c]
        cap, mask = pyr.cap, pyr.mask
        for v in range(len(cap)):
            if cap[v] >= n and not mask[v] & b:
                return True
        return False

    def _police_spots(self, pyr: Pyramid) -> int:
        """Cards with room for a police below them."""
        n = self.g.police_number
        spots = 0
        for k in pyr.cap:
            if k >= n:
                spots += 1
        return spots

    def _score_police(self, pyr: Pyramid, v: int) -> float:
        g = self.g
        c = pyr.card[v]
        n = g.police_number
        left = pyr.cap[v] - n
        s = 0.2 * left
        if g.KIND[c] == FOUNDER:
            s += 0.5
        if g.NEED_TOTAL[c] and not pyr.flipped[v]:
            s -= 2.0 if left < g.NEED_TOTAL[c] - pyr.nvict[v] else 0.5
        return s

    def _score_main(self, actions: list[int]) -> list[float]:
        g = self.g
        p = self.cur
        pyr = self.pyr[p]
        hand = self.hands[p]
        NUM, CBIT, NEED_TOTAL, RVAL = g.NUM, g.CBIT, g.NEED_TOTAL, g.RVAL
        cap, mask, cards, nvict, fxf, fxh = pyr.cap, pyr.mask, pyr.card, pyr.nvict, pyr.fxf, pyr.fxh
        pn = g.police_number
        if max(actions) >= PLACE:  # placements are judged by these, takes are not
            spots = self._police_spots(pyr)
            open_goals = self._near_goals(p)
        out = []
        base = -HSTRIDE  # PLACE + HSTRIDE * the hand index of the card being placed
        stuck = None  # whether no card of the hand can be placed: found out when it matters
        nodes = None  # set at the first take, with the rest of what takes are judged by
        for a in actions:
            if a >= PLACE:
                v = a - base
                if not 0 <= v < HSTRIDE:  # the next card of the hand
                    h, v = divmod(a - PLACE, HSTRIDE)
                    base = a - v
                    c = hand[h]
                    n = NUM[c]
                    b = CBIT[c]
                    own = 1.0 + (0.3 * RVAL[c] if NEED_TOTAL[c] else 0.0)
                if fxf[v] & b:
                    flips = True
                    sc = own + 12.0 + RVAL[cards[v]]
                else:
                    flips = False
                    k = fxh[v]
                    if k and cap[v] - n < NEED_TOTAL[cards[v]] - nvict[v] - 1:
                        sc = own - 5.0  # leaves too little room to ever flip the card above
                    else:
                        sc = own + (3.0 if k & b else 0.0)
                if mask[v] & b:
                    sc -= 3.0  # spends a colour pass
                k = cap[v]
                after = spots - (k >= pn > k - n) + (n >= pn)
                if after <= 0:
                    sc -= 20.0
                elif after == 1:
                    sc -= 2.0
                if open_goals:
                    sc += 8.0 * self._goals_completed(p, c, v, flips, open_goals)
                out.append(sc)
            elif a == RESET:
                out.append(-3.0)
            else:  # take: worth what the card would do in its best spot (flip the card above, help it, fit)
                if nodes is None:
                    nodes = range(len(cap))
                    colour_rule = 0 if self.passes[p] else -1  # a colour pass lifts the colour rule
                    fills_hand = len(hand) + 1 >= self.limit[p]
                    room_left = self.actions_left > 1 or len(hand) < self.limit[p] - 1
                c = self.display[a - TAKE]
                n = NUM[c]
                b = CBIT[c]
                free = b & colour_rule
                sc = 0.5 + 0.15 * n
                best = None
                for v in nodes:
                    if cap[v] >= n and not mask[v] & free:
                        val = 6.0 + 0.5 * RVAL[cards[v]] if fxf[v] & b else (1.5 if fxh[v] & b else 0.0)
                        if best is None or val > best:
                            best = val
                if best is None:
                    sc -= 4.0
                    if fills_hand:
                        if stuck is None:
                            stuck = not any(self._placeable(p, x) for x in hand)
                        if stuck:
                            sc -= 30.0
                else:
                    sc += best
                    if room_left:
                        sc += 0.5
                out.append(sc)
        return out

    def _near_goals(self, p: int) -> list[int]:
        """Open goals (not reserved by others) one placement and its flip could complete."""
        pyr = self.pyr[p]
        key = (len(pyr.card), pyr.flips, len(self.goals_open), len(self.reserved))
        cache = self._near
        if cache is None:
            cache = self._near = {}
        hit = cache.get(p)
        if hit is not None and hit[0] == key:
            return hit[1]
        g = self.g
        out = []
        reserved = self.reserved
        for gi in self.goals_open:
            if reserved and reserved.get(gi, p) != p:
                continue
            near = True
            for kind, n, col, num in g.goals[gi][1]:
                if kind == G_VICTIMS:
                    if col < 0:
                        have = pyr.n_victims if num is None else pyr.by_number.get(num, 0)
                    else:
                        have = pyr.by_color[col] if num is None else pyr.by_both.get((col, num), 0)
                    near = have >= n - 1
                elif kind == G_EACH_NUMBER:
                    near = sum(1 for k in g.numbers if not pyr.by_number.get(k)) <= 1
                elif kind == G_EACH_COLOR:
                    near = sum(max(0, n - x) for x in pyr.by_color) <= 1
                elif kind == G_LEVELS:
                    near = pyr.max_depth >= n - 1
                elif kind == G_ALL_COLORS_F:
                    near = sum(1 for x in pyr.f_color if not x) <= 1
                elif kind == G_SAME_COLOR_F:
                    near = max(pyr.f_color) >= n - 1
                elif kind == G_SAME_NUMBER_F:
                    near = max(pyr.f_number.values(), default=0) >= n - 1
                elif kind == G_DISTINCT_F:
                    near = len([k for k, m in pyr.f_number.items() if m]) + pyr.founder_flipped >= n - 1
                elif kind == G_BELOW_ONE:
                    near = pyr.max_fchild >= n - 1 or n <= 1
                else:  # limit tokens, reset tokens, flipped police: a placement alone never completes them
                    near = False
                if not near:
                    break
            if near:
                out.append(gi)
        cache[p] = (key, out)
        return out

    def _goals_completed(self, p: int, c: int, v: int, flips: bool, open_goals: list[int]) -> int:
        """How many of ``open_goals`` placing ``c`` below ``v`` would complete (flip included)."""
        pyr = self.pyr[p]
        g = self.g
        col, num = g.COL[c], g.NUM[c]
        depth = pyr.depth[v] + 1
        pc = pyr.card[v]
        fcol = g.COL[pc] if flips and g.KIND[pc] == VICTIM else -2
        fnum = g.NUM[pc] if flips else None
        done = 0
        for gi in open_goals:
            ok = True
            for kind, n, gcol, gnum in g.goals[gi][1]:
                if kind == G_VICTIMS:
                    if gcol < 0:
                        m = pyr.n_victims if gnum is None else pyr.by_number.get(gnum, 0)
                    else:
                        m = pyr.by_color[gcol] if gnum is None else pyr.by_both.get((gcol, gnum), 0)
                    ok = m + ((gcol < 0 or gcol == col) and (gnum is None or gnum == num)) >= n
                elif kind == G_EACH_NUMBER:
                    ok = all(pyr.by_number.get(k) or k == num for k in g.numbers)
                elif kind == G_EACH_COLOR:
                    ok = all(x + (k == col) >= n for k, x in enumerate(pyr.by_color))
                elif kind == G_LEVELS:
                    ok = max(pyr.max_depth, depth) >= n
                elif kind == G_ALL_COLORS_F:
                    ok = all(x + (k == fcol) >= 1 for k, x in enumerate(pyr.f_color))
                elif kind == G_SAME_COLOR_F:
                    ok = max(x + (k == fcol) for k, x in enumerate(pyr.f_color)) >= n
                elif kind == G_SAME_NUMBER_F:
                    ok = max([m + (k == fnum and fcol >= 0) for k, m in pyr.f_number.items()] + [int(fcol >= 0)]) >= n
                elif kind == G_DISTINCT_F:
                    nums = {k for k, m in pyr.f_number.items() if m}
                    if pyr.founder_flipped or (flips and v == 0):
                        nums.add(g.NUM[pyr.card[0]])
                    if flips:
                        nums.add(fnum)
                    ok = len(nums) >= n
                elif kind == G_BELOW_ONE:
                    u = pyr.parent[v]
                    ok = max(pyr.max_fchild, (pyr.fchild[u] + 1) if flips and u >= 0 else 0) >= n
                else:
                    ok = self.goal_met(p, gi)
                if not ok:
                    break
            if ok:
                done += 1
        return done

    def _goal_progress(self, p: int, gi: int) -> float:
        """0..1: how close player ``p`` is to goal ``gi`` (for reserving)."""
        pyr = self.pyr[p]
        g = self.g
        fr = []
        for kind, n, col, num in g.goals[gi][1]:
            if kind == G_VICTIMS:
                fr.append(pyr.victims(col, num) / n)
            elif kind == G_EACH_NUMBER:
                fr.append(sum(1 for k in g.numbers if pyr.by_number.get(k)) / max(len(g.numbers), 1))
            elif kind == G_EACH_COLOR:
                fr.append(sum(min(x, n) for x in pyr.by_color) / (n * len(pyr.by_color)))
            elif kind == G_ALL_COLORS_F:
                fr.append(sum(1 for x in pyr.f_color if x) / len(pyr.f_color))
            elif kind == G_SAME_COLOR_F:
                fr.append(max(pyr.f_color) / n)
            elif kind == G_SAME_NUMBER_F:
                fr.append(max(pyr.f_number.values(), default=0) / n)
            elif kind == G_DISTINCT_F:
                fr.append(len([k for k, m in pyr.f_number.items() if m]) / n)
            elif kind == G_LEVELS:
                fr.append(pyr.max_depth / n)
            elif kind == G_LIMITS:
                fr.append(pyr.limits / n)
            elif kind == G_RESETS:
                fr.append(self.resets[p] / n)
            elif kind == G_BELOW_ONE:
                fr.append(pyr.max_fchild / n)
            else:
                fr.append(pyr.f_police / n)
        return min(1.0, min(fr)) if fr else 0.0

    def _assets(self, q: int) -> tuple[int, int, int, int, int, int]:
        """What a position is worth to player ``q``: smart-asses, cards with room
        for a police (counted up to 3), free room below cards, goals claimed,
        reset tokens, and how far the hand limit has risen."""
        pyr = self.pyr[q]
        n = self.g.police_number
        spots = room = 0
        for k in pyr.cap:
            if k >= n:
                spots += 1
            if k > 0:
                room += k
        return (pyr.flips, min(spots, 3), room, len(self.claimed[q]), self.resets[q],
                self.limit[q] - self.g.hand_limit)

    def _strength(self, q: int) -> float:
        flips, spots, room, goals, resets, hand = self._assets(q)
        return 1.0 * flips + 1.5 * spots + 0.3 * room + 2.0 * goals + 0.5 * resets + 0.5 * hand

    def evaluate(self, p: int) -> float:
        """Value of the position for player ``p`` in [0, 1] (search leaves): its
        strength against the strongest opponent's, around a fair share."""
        if self.phase == OVER:
            r = self.returns()
            return r[p] if self.winners else 1.0 / self.n
        if not self.alive[p]:
            return 0.0
        mine = self._strength(p)
        best_other = None
        alive = 0
        for q in range(self.n):
            if self.alive[q]:
                alive += 1
                if q != p:
                    other = self._strength(q)
                    if best_other is None or other > best_other:
                        best_other = other
        x = (mine - (best_other or 0.0)) / 10.0
        share = 1.0 / alive
        return max(0.01, min(0.99, share + x * share))

    def standings(self) -> list[int | None]:
        """Each player's standing for the report's lead and drama figures: the
        strength :meth:`evaluate` compares, in tenths (an exact integer), None
        for a player who is out.  Reading it changes nothing."""
        out = []
        for q in range(self.n):
            if self.alive[q]:
                flips, spots, room, goals, resets, hand = self._assets(q)
                out.append(10 * flips + 15 * spots + 3 * room + 20 * goals + 5 * resets + 5 * hand)
            else:
                out.append(None)
        return out


# ------------------------------------------------------------------ static checks
def static_checks(data, players: int = 4) -> list[Problem]:
    """Deck checks before any simulation: counts against the rulebook, colour and
    number distributions, conditions and goals no arrangement can ever meet,
    rewards whose tokens do not exist."""
    from model.checks import static_checks as sheet_checks
    from model.sheets import Project

    out: list[Problem] = []
    for p in sheet_checks(Project(root=None, games={data.slug: data}, problems=None)):
        out.append(p)
    colors = tuple(data.manifest.colors)
    victims = [c for c in data.cards if c.deck == "victim"]
    tokens = [c for c in data.cards if c.deck == "token"]
    police = [c for c in data.cards if c.deck == "police"]
    founders = [c for c in data.cards if c.deck == "founder"]
    goals = [c for c in data.cards if c.deck == "goal"]
    by_color = {col: sum(c.count for c in victims if c.color == col) for col in colors}
    min_number = {col: min((c.number for c in victims if c.color == col), default=None) for col in colors}
    numbers = sorted({c.number for c in victims})
    limit_tokens: dict[int, int] = {}
    resets = passes = 0
    for t in tokens:
        for term in t.effect:
            if term.word == "limit":
                limit_tokens[term.args[0]] = limit_tokens.get(term.args[0], 0) + t.count
            elif term.word == "reset":
                resets += t.count
            elif term.word == "pass":
                passes += t.count
    all_limits = sum(a * n for a, n in limit_tokens.items())
    n_police = sum(c.count for c in police)

    def problem(card, column, message, severity="error"):
        out.append(Problem(card.sheet, card.row, column, message, severity))

    counts = sorted(set(by_color.values()))
    if len(counts) > 1:
        out.append(Problem("cards.csv", None, "color", "victims per colour differ: " + ", ".join(
            f"{col} {n}" for col, n in by_color.items()) + "; the colour rule and goals treat colours alike",
            "warning"))
    per_number = {col: sorted(c.number for c in victims if c.color == col for _ in range(c.count)) for col in colors}
    shapes = {tuple(v) for v in per_number.values()}
    if len(shapes) > 1:
        out.append(Problem("cards.csv", None, "number", "the numbers differ between colours: " + "; ".join(
            f"{col} {_histogram(v)}" for col, v in per_number.items()), "warning"))
    for card in victims + founders:
        if not card.requires:
            continue
        need_colors: dict[str, int] = {}
        total = 0
        for term in card.requires:
            total += term.count
            if term.word != "any":
                need_colors[term.word] = need_colors.get(term.word, 0) + term.count
        smallest = min((c.number for c in victims), default=1)
        low = sum(min_number.get(col) or 99 for col, k in need_colors.items() for _ in range(k)) + \
            smallest * (total - sum(need_colors.values()))
        number = card.number or 0
        for col, k in need_colors.items():
            if by_color.get(col, 0) < k:
                problem(card, "requires", f"needs {k} {col} victim(s) below it; the deck has {by_color.get(col, 0)}")
            elif card.deck == "victim" and col == card.color:
                if passes < k:
                    problem(card, "requires", f"needs {k} {col} victim(s) below a {col} card: the colour rule "
                            f"forbids it and the game has only {passes} colour pass token(s)")
                else:
                    problem(card, "requires", f"needs {col} below a {col} card: only a colour pass token makes "
                            "that possible", "warning")
        if low > number:
            if low > number + all_limits:
                problem(card, "requires", f"can never be met: the victims it needs add up to at least {low}, more "
                        f"than its number {number} even with every limit token")
            else:
                problem(card, "requires", f"can never be met within its number: the victims it needs add up to "
                        f"at least {low} but its number is {number} (only limit tokens, +{low - number}, make room)")
        if card.deck == "founder" and total == 0:
            problem(card, "requires", "a founder without a condition never flips", "warning")
    for card in victims + founders:
        for term in card.effect:
            if term.word == "limit" and term.args[0] not in limit_tokens:
                have = ", ".join(f"+{a}" for a in sorted(limit_tokens)) or "none"
                problem(card, "effect", f"'limit {term.args[0]}' does not resolve: the tokens have no +{term.args[0]} "
                        f"limit token (they have: {have})")
            if term.word in ("reset", "pass") and not (resets if term.word == "reset" else passes):
                problem(card, "effect", f"'{term.word}' does not resolve: the tokens have no {term.word} token")
    # goals
    flippable = [c for c in victims if c.requires]
    for card in goals:
        for term in card.requires:
            w, n = term.word, term.count
            msg = None
            if w == "victims":
                col, num = term.kw("color"), term.kw("number")
                have = sum(c.count for c in victims
                           if (col is None or c.color == col) and (num is None or c.number == num))
                if have < n:
                    msg = f"needs {n} such victims; the deck has {have}"
            elif w == "each-color" and min(by_color.values(), default=0) < n:
                msg = f"needs {n} victims of each colour; the deck has {min(by_color.values(), default=0)} of one"
            elif w == "same-color-flipped":
                best = max((sum(c.count for c in flippable if c.color == col) for col in colors), default=0)
                if best < n:
                    msg = f"needs {n} smart-asses of one colour; at most {best} victims of a colour have a condition"
            elif w == "same-number-flipped":
                per = {}
                for c in flippable:
                    per[c.number] = per.get(c.number, 0) + c.count
                if police:
                    per[police[0].number] = per.get(police[0].number, 0) + n_police
                if max(per.values(), default=0) < n:
                    msg = f"needs {n} smart-asses with one number; no number has that many flippable cards"
            elif w == "distinct-numbers-flipped":
                nums = {c.number for c in flippable} | {c.number for c in founders if c.requires}
                if n_police:
                    nums.add(police[0].number)
                if len(nums) < n:
                    msg = f"needs {n} different numbers among smart-asses; only {len(nums)} exist"
            elif w == "branch-levels" and n > 1 + len(colors):
                out.append(Problem(card.sheet, card.row, "requires", f"a branch {n} levels deep needs a smart-ass "
                                   f"or a colour pass on it: {len(colors)} colours give at most {1 + len(colors)} "
                                   "levels otherwise", "warning"))
            elif w == "limit-tokens" and sum(limit_tokens.values()) < n:
                msg = f"needs {n} limit tokens; the game has {sum(limit_tokens.values())}"
            elif w == "reset-tokens" and resets < n:
                msg = f"needs {n} reset tokens; the game has {resets}"
            elif w == "flipped-police" and n_police < n:
                msg = f"needs {n} flipped police; the game has {n_police}"
            elif w == "each-number" and not numbers:
                msg = "needs one victim of each number; the deck has no victims"
            if msg:
                problem(card, "requires", "this goal can never be met: " + msg)
    goals_needed = 6
    if sum(g.count for g in goals) < goals_needed:
        out.append(Problem("goals.csv", None, "count", f"setup opens {goals_needed} goals; the sheet has "
                           f"{sum(g.count for g in goals)}"))
    police_needed = goals_needed * (players - 1)
    if n_police < police_needed:
        out.append(Problem("cards.csv", None, "count", f"{goals_needed} goals can send {police_needed} police in a "
                           f"{players}-player game; there are {n_police} (when they run out, nobody places one)",
                           "warning"))
    return out


def _histogram(values: list[int]) -> str:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return " ".join(f"{k}x{n}" for k, n in sorted(counts.items()))


register(SPEC)
