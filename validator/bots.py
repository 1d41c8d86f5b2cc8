"""The generic bots: random, greedy (the engine's heuristic) and search
(determinized Monte Carlo), plus whatever bots an engine declares.

A bot gets its seat's :class:`~validator.kit.View` and the legal actions and
returns one of them.  It reads only what its player may see: greedy rates the
actions from ``view.observe()`` with the engine's ``Heuristic.scores``; search
plays out *determinized* copies (``view.determinize``) in which everything
hidden from its player has been drawn again from its own generator, and rates
where they lead with ``Heuristic.evaluate``.  Every bot owns a ``Chance`` the
runner seeds.
"""

from __future__ import annotations

from model.errors import CommandLineError, PnpError
from validator.kit import SIMULTANEOUS, Bot


class RandomBot(Bot):
    """Uniformly random legal actions: the floor every deck should beat."""

    name = "random"

    def step(self, view, actions):
        return actions[int(self.rng.random() * len(actions))]


class GreedyBot(Bot):
    """The highest-scoring action by the engine's one-step heuristic; ties broken at random."""

    name = "greedy"

    def __init__(self, rng, game=None, **options):
        super().__init__(rng, game)
        heuristic = _heuristic(game, self.name)
        self.scores = heuristic.scores

    def step(self, view, actions):
        scores = self.scores(view.observe(), actions)
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

    def __init__(self, rng, game=None, budget: int = 12, width: int = 3, horizon: int = 1, margin: float = 4.0,
                 max_steps: int = 80, **options):
        super().__init__(rng, game)
        heuristic = _heuristic(game, self.name)
        self.scores = heuristic.scores
        self.evaluate = heuristic.evaluate
        self.budget = budget
        self.width = width
        self.horizon = horizon
        self.margin = margin
        self.max_steps = max_steps

    def step(self, view, actions):
        scores = self.scores(view.observe(), actions)
        ranked = sorted(range(len(actions)), key=lambda i: (-scores[i], i))
        top = scores[ranked[0]]
        cands = [actions[i] for i in ranked[: self.width] if scores[i] >= top - self.margin]
        if len(cands) == 1:
            return cands[0]
        me = view.player
        per = max(1, self.budget // len(cands))
        best, best_value = cands[0], -1.0
        for a in cands:
            total = 0.0
            for _ in range(per):
                sim = view.determinize(self.rng)
                if sim.current_player() == SIMULTANEOUS:  # the others choose greedily at the same time
                    sim.apply_actions({q: a if q == me else self._choose(sim, q, sim.legal_actions(q))
                                       for q in sim.acting_players()})
                else:
                    sim.apply_unchecked(a)
                total += self._playout(sim, me)
            value = total / per
            if value > best_value + 1e-12:
                best, best_value = a, value
        return best

    def _choose(self, sim, player: int, acts: list[int]) -> int:
        return acts[0] if len(acts) == 1 else self._pick(sim, player, acts)

    def _pick(self, sim, player: int, acts: list[int]) -> int:
        """The greedy choice of ``player`` in the copy (ties broken with this bot's generator)."""
        scores = self.scores(sim.observe(player), acts)
        best = max(scores)
        if scores.count(best) == 1:
            return acts[scores.index(best)]
        top = [a for a, s in zip(acts, scores) if s == best]
        return top[int(self.rng.random() * len(top))]

    def _playout(self, sim, me: int) -> float:
        """Greedy play until ``horizon`` turns have ended; the evaluation there."""
        stop = sim.turns + self.horizon
        steps = 0
        while not sim.is_terminal() and sim.turns < stop and steps < self.max_steps:
            p = sim.current_player()
            if p == SIMULTANEOUS:
                sim.apply_actions({q: self._choose(sim, q, sim.legal_actions(q)) for q in sim.acting_players()})
            else:
                acts = sim.legal_actions()
                if not acts:
                    break
                sim.apply_unchecked(acts[0] if len(acts) == 1 else self._pick(sim, p, acts))
            steps += 1
        return self.evaluate(sim, me)


def _heuristic(game, bot: str):
    spec = getattr(game, "spec", None)
    heuristic = getattr(spec, "heuristic", None)
    if heuristic is None:
        title = getattr(spec, "title", "this game")
        raise PnpError(f"the {bot} bot needs a heuristic; {title} declares none (use the random bot)")
    return heuristic


#: the bots every engine gets (greedy and search need the engine's heuristic)
BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def known_bots(spec=None) -> dict:
    """Bot name -> class for an engine: the generic bots it can use, then its own."""
    out = dict(BOTS) if spec is None or spec.heuristic is not None else {"random": RandomBot}
    if spec is not None:
        out.update(spec.bots)
    return out


def make_bots(names, rngs, game=None) -> list[Bot]:
    """The bots of a game's seats (a name and a generator each): the engine's own bot of
    that name, else the generic one."""
    spec = getattr(game, "spec", None)
    bots = spec.bots if spec is not None else {}
    return [(bots.get(name) or BOTS[name])(rng, game) for name, rng in zip(names, rngs)]


def parse_bots(text: str, players: int, spec=None) -> tuple[str, ...]:
    """``greedy`` (every seat) or ``greedy,random,random,search`` (one per player)."""
    known = known_bots(spec)
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise CommandLineError("--bots needs a bot name; known bots: " + ", ".join(known))
    bad = [n for n in names if n not in known]
    if bad:
        raise CommandLineError(f"unknown bot '{bad[0]}'; known bots: {', '.join(known)}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise CommandLineError(f"--bots lists {len(names)} bots for {players} players; give one name or one per player")
    return names
