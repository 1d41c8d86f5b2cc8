"""The compiled game: every card, token and goal of the sheets turned into
tables once, shared by every state (and pickled to worker processes).

Everything comes from ``cards.csv``/``goals.csv`` through the shared spreadsheet
model: numbers, colours, flip conditions (``requires``), rewards (``effect``),
token kinds, goal definitions and all counts.  Edit a row and the simulation
changes with it; a word the engine does not know is a ``RulesError`` naming the
cell.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from model.errors import RulesError
from validator.kit import Game

from .goals import GOAL_WORDS
from .spec import FOUNDER, POLICE, REWARD_WORDS, TOKEN_WORDS, VICTIM
from .state import State


def make(data, players: int, **options) -> "PyramidScheme":
    return PyramidScheme(data, players, **options)


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


class PyramidScheme(Game):
    """The compiled game: card tables built once from the sheets, then shared by every state."""

    spec = None  # the GameSpec (set by the package)

    def __init__(self, data, players: int, **options):
        spec = self.spec
        opts = spec.options(options)
        if not spec.min_players <= players <= spec.max_players:
            raise RulesError(f"Pyramid Scheme takes {spec.min_players}-{spec.max_players} players, not {players}")
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
        self._components = None
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
        self.design_ids = tuple(d.id for d in designs)
        self.card_designs = tuple((i, d.id) for i, d in enumerate(designs) if d.deck in ("victim", "founder"))
        self.goal_designs = tuple(goal_designs)
        self.KIND, self.NUM, self.COL, self.CBIT = tuple(kind), tuple(number), tuple(color), tuple(cbit)
        self.NEED, self.NEED_TOTAL = tuple(need), tuple(need_total)
        self.REWARD, self.DESIGN = tuple(reward), tuple(design)
        self.victims, self.police, self.founders = tuple(victims), tuple(police), tuple(founders)
        self.goals = tuple(goals)
        self.sup_reset, self.sup_pass, self.sup_limit = sup_reset, sup_pass, dict(sorted(sup_limit.items()))
        self.numbers = tuple(sorted({number[v] for v in victims}))
        self.police_number = number[police[0]] if police else 3
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
    def new_initial_state(self, chance) -> State:
        return State(self, chance)

    def components(self) -> Counter:
        """Every component by id: cards by index, goals as ("goal", i), tokens as
        "reset", "pass" and ("limit", amount)."""
        if self._components is None:
            out = Counter(range(len(self.KIND)))
            out.update(("goal", i) for i in range(len(self.goals)))
            out["reset"] = self.sup_reset
            out["pass"] = self.sup_pass
            for amount, n in self.sup_limit.items():
                out[("limit", amount)] = n
            self._components = out
        return self._components

    def component_label(self, component) -> str:
        if isinstance(component, int):
            return self.card_label(component)
        if component == "reset":
            return "a reset token"
        if component == "pass":
            return "a colour pass token"
        kind, x = component
        if kind == "goal":
            return f"goal {self.goal_designs[self.goals[x][0]].name}"
        return f"a +{x} limit token"

    def card_label(self, card: int) -> str:
        d = self.designs[self.DESIGN[card]]
        if self.KIND[card] == VICTIM:
            return f"{d.name} ({d.color} {d.number}, {d.id})"
        return d.name
