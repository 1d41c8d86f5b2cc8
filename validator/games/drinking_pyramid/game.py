"""The compiled drinking Pyramid: the 52 cards of the sheet (rank = ``number``)
and the rules options, shared by every state."""

from __future__ import annotations

from collections import Counter

from model.errors import InputErrors, RulesError
from validator.kit import Game

from .constants import PYRAMID


class PyramidGame(Game):
    spec = None  # the GameSpec (set by the package)

    def __init__(self, data, players: int, **options):
        from .checks import parse_royals, static_checks

        SPEC = self.spec
        opts = SPEC.options(options)
        self.o = opts
        self.players = players
        errors = [p for p in static_checks(data, players, opts) if p.is_error]
        if errors:
            raise InputErrors(errors)
        cards = [c for c in data.cards if c.deck == "card"]
        self.ids: list[str] = []
        self.rank: list[int] = []
        self.text: list[str] = []
        for c in cards:
            for k in range(c.count):
                self.ids.append(c.id if c.count == 1 else f"{c.id}.{k + 1}")
                self.rank.append(c.number)
                self.text.append(c.text)
        self.N = len(self.ids)
        royals = parse_royals(opts["royals"])
        self.royal = [r in royals for r in self.rank]
        self.hand = opts["hand_size"] or (4 if players < 8 else 3)
        if PYRAMID + players * self.hand > self.N:
            raise RulesError(f"{players} players with {self.hand} cards each and a pyramid of {PYRAMID} need "
                             f"{PYRAMID + players * self.hand} cards; the sheet has {self.N}")
        self.questions = bool(opts["questions"])
        self.reshuffle = opts["stockpile_out"] == "reshuffle"
        self.tie_lowest = opts["explorer_tie"] == "lowest-card"
        self.dealer_refusal = opts["dealer_refusal"] == "double"  # a dealer's question may be refused
        self.dealer = players - 1  # the last seat deals; seat 1 (on the dealer's left) acts first

    def components(self) -> Counter:
        return Counter(self.ids)

    def component_label(self, component) -> str:
        return f"card {component}"

    def new_initial_state(self, chance):
        from .state import PyramidState

        return PyramidState(self, chance)


def make(data, players: int, **options) -> PyramidGame:
    if not 2 <= players <= 10:
        raise RulesError(f"Pyramid takes 2-10 players, not {players}")
    return PyramidGame(data, players, **options)
