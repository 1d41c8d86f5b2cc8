"""Hostile: the deck compiled from the sheet, the placeholder rules, and the faults."""

import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from validator.kit import TERMINAL, Game, GameRecord, IllegalAction, RulesError, State, shuffle

LEAVE, KEEP = 0, 1  # the actions: sorted whole numbers


class KeepGame(Game):
    """Every card of the sheet as a number: card i has ids[i] and worth[i] (its number, else 1)."""

    def __init__(self, spec, data, players, keep, fault="none", at=5):
        self.spec, self.players, self.keep = spec, players, keep
        self.fault, self.at = fault, at
        self.memo = {"actions": 0}  # (fault=shared: every state and clone of every game shares it)
        cards = data.cards
        if not cards:
            raise RulesError(f"cards.csv: {spec.title} has no cards yet")
        self.ids = [c.id for c in cards]
        self.worth = [1 if c.number is None else c.number for c in cards]
        self.box = [i for i, c in enumerate(cards) for _ in range(c.count)]
        self.mean_worth = sum(self.worth[i] for i in self.box) / len(self.box)

    def new_initial_state(self, chance):
        return KeepState(self, chance)

    def components(self):
        return Counter(self.ids[i] for i in self.box)


@dataclass(frozen=True)
class Seen:
    """What one seat sees: the card on offer, every player's kept cards, the pile's size."""

    me: int
    to_act: int
    offer: int
    kept: tuple
    pile: int
    game: KeepGame = field(compare=False, repr=False)


class KeepState(State):
    def __init__(self, game, chance):
        self.game, self.chance = game, chance
        self.pile = chance.shuffled(list(game.box))  # the last card is the top, face up
        self.kept = [[] for _ in range(game.players)]
        self.discard = []
        self.player, self.turns, self.rounds, self.decisions = 0, 1, 1, 0
        self.end, self.winners, self.left = "", [], 0

    def current_player(self):
        return self.player

    def is_terminal(self):
        return self.player == TERMINAL

    def legal_actions(self, player=None):
        if self.player == TERMINAL:
            return []
        return [LEAVE, KEEP] if len(self.kept[self.player]) < self.game.keep else [LEAVE]

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise IllegalAction(f"P{self.player + 1} cannot {self.action_to_string(action)} now")
        self.apply_unchecked(action)

    def apply_unchecked(self, action):
        if self.decisions == self.game.at:
            misbehave(self.game)
        if self.game.fault == "shared":
            self.game.memo["actions"] += 1
            if self.game.memo["actions"] % 5 == 0:
                action = LEAVE
        elif self.game.fault == "random" and random.random() < 0.3:
            action = LEAVE
        self.decisions += 1
        card = self.pile.pop()
        if action == KEEP:
            self.kept[self.player].append(card)
        else:
            self.discard.append(card)
            self.left += 1
        if not self.pile:
            return self.finish()
        self.player = (self.player + 1) % self.game.players
        self.turns += 1
        if self.player == 0:
            self.rounds += 1

    def finish(self):
        totals = self.standings()
        self.winners = [p for p, t in enumerate(totals) if t == max(totals)]
        self.end = "highest" if len(self.winners) == 1 else "shared"
        self.player = TERMINAL

    def returns(self):
        return [1 / len(self.winners) if p in self.winners else 0.0 for p in range(self.game.players)]

    def stop(self, reason):
        self.player, self.end, self.winners = TERMINAL, reason, []

    def record(self):
        return GameRecord(seats=list(range(self.game.players)), winners=list(self.winners), turns=self.turns,
                          rounds=self.rounds, actions=self.decisions, end=self.end, scores=self.standings(),
                          counters={"left": self.left})

    def standings(self):
        return [sum(self.game.worth[i] for i in hand) for hand in self.kept]

    # -- what each seat may see, and copies
    def observe(self, player):
        offer = self.pile[-1] if self.pile else -1
        return Seen(player, self.player, offer, tuple(tuple(sorted(k)) for k in self.kept), len(self.pile),
                    self.game)

    def determinize(self, player, chance):
        """A copy with the pile below its top card shuffled again (nobody has seen it)."""
        s = self.clone()
        below = s.pile[:-1]
        shuffle(chance, below)
        s.pile[:-1] = below
        return s

    def clone(self):
        s = KeepState.__new__(KeepState)
        s.__dict__.update(self.__dict__)
        s.chance, s.log = self.chance.copy(), None
        s.pile, s.discard = list(self.pile), list(self.discard)
        s.kept, s.winners = [list(k) for k in self.kept], list(self.winners)
        return s

    def zones(self):
        ids = self.game.ids
        out = {"pile": [ids[i] for i in self.pile], "discard": [ids[i] for i in self.discard]}
        for p, hand in enumerate(self.kept):
            out[f"kept P{p + 1}"] = [ids[i] for i in hand]
        return out

    def position_key(self):
        return (self.player, tuple(self.pile), tuple(map(tuple, self.kept)))

    def action_to_string(self, action):
        card = self.game.ids[self.pile[-1]] if self.pile else "nothing"
        return f"keep {card}" if action == KEEP else f"leave {card}"

    def describe(self):
        ids = self.game.ids
        return "\n".join([f"pile {len(self.pile)} cards, top {ids[self.pile[-1]] if self.pile else '-'}"] +
                         [f"P{p + 1} kept {[ids[i] for i in k]}" for p, k in enumerate(self.kept)])


def misbehave(game):
    """What the rules option ``fault`` asks for, at action ``at`` of every game."""
    fault = game.fault
    if fault == "raise":
        raise ValueError("a card that is not there")
    if fault == "exit":
        sys.exit(7)
    if fault == "os-exit":
        os._exit(9)
    if fault == "print":
        print("the engine says hello")
    if fault == "stderr":
        sys.stderr.write("the engine complains\n")
    if fault == "sleep":
        time.sleep(3600)
    if fault == "loop":
        while True:
            try:
                pass
            except BaseException:  # noqa: BLE001 - a hostile engine swallows everything
                pass
    if fault == "interrupt":
        raise KeyboardInterrupt
