"""Bots: random, greedy (the game's heuristic) and search (determinized Monte Carlo).

A bot gets the state and the legal actions and returns one of them.  It reads
only what its player may see: the greedy scores are computed from the player's
own hand and the public table, and the search bot plays out *determinized*
copies in which everything hidden from its player (the deck below its face-up
top, the opponents' face-down cards) has been drawn again from its own
generator.  Every bot owns a ``random.Random`` the runner seeds.
"""

from __future__ import annotations

import random


class Bot:
    name = "bot"

    def __init__(self, rng: random.Random, **options):
        self.rng = rng

    def step(self, state, actions: list[int]) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random legal actions: the floor every deck should beat."""

    name = "random"

    def step(self, state, actions):
        return actions[int(self.rng.random() * len(actions))]


class GreedyBot(Bot):
    """The highest-scoring action by the game's one-step heuristic; ties broken at random."""

    name = "greedy"

    def step(self, state, actions):
        scores = state.greedy_scores(actions)
        best = max(scores)
        if scores.count(best) == 1:
            return actions[scores.index(best)]
        top = [a for a, s in zip(actions, scores) if s == best]
        return top[int(self.rng.random() * len(top))]


class SearchBot(Bot):
    """Determinized Monte Carlo over the heuristic's close calls.

    When the greedy scores leave the best few actions within ``margin`` of each
    other, each of those (at most ``width``) is tried in ``budget // width``
    determinized copies - everything hidden from the player drawn again at
    random - played on greedily until ``horizon`` turns have ended, and the
    action with the best mean evaluation is kept.  Clear decisions cost nothing
    extra, so the bot spends its budget where judgement matters.
    """

    name = "search"

    def __init__(self, rng, budget: int = 12, width: int = 3, horizon: int = 1, margin: float = 4.0,
                 max_steps: int = 80):
        super().__init__(rng)
        self.budget = budget
        self.width = width
        self.horizon = horizon
        self.margin = margin
        self.max_steps = max_steps
        self._greedy = GreedyBot(rng)

    def step(self, state, actions):
        scores = state.greedy_scores(actions)
        ranked = sorted(range(len(actions)), key=lambda i: (-scores[i], i))
        top = scores[ranked[0]]
        cands = [actions[i] for i in ranked[: self.width] if scores[i] >= top - self.margin]
        if len(cands) == 1:
            return cands[0]
        me = state.current_player()
        per = max(1, self.budget // len(cands))
        best, best_value = cands[0], -1.0
        for a in cands:
            total = 0.0
            for _ in range(per):
                sim = state.determinize(me, self.rng)
                sim.apply_unchecked(a)
                total += self._playout(sim, me)
            value = total / per
            if value > best_value + 1e-12:
                best, best_value = a, value
        return best

    def _playout(self, sim, me: int) -> float:
        """Greedy play until ``horizon`` turns have ended; the evaluation there."""
        greedy = self._greedy
        stop = sim.turns + self.horizon
        steps = 0
        while not sim.is_terminal() and sim.turns < stop and steps < self.max_steps:
            acts = sim.legal_actions()
            if not acts:
                break
            sim.apply_unchecked(acts[0] if len(acts) == 1 else greedy.step(sim, acts))
            steps += 1
        return sim.evaluate(me)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(name: str, rng: random.Random) -> Bot:
    return BOTS[name](rng)


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``greedy`` (every seat) or ``greedy,random,random,search`` (one per player)."""
    from model.errors import PnpError

    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise PnpError("--bots needs a bot name; known bots: " + ", ".join(BOTS))
    bad = [n for n in names if n not in BOTS]
    if bad:
        raise PnpError(f"unknown bot '{bad[0]}'; known bots: {', '.join(BOTS)}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise PnpError(f"--bots lists {len(names)} bots for {players} players; give one name or one per player")
    return names
