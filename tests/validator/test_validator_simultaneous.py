"""Simultaneous moves through the generic runner, bots and conformance checks,
on a toy game: every round each player shows 0 or 1 at once; whoever shows
what the fewest showed scores a point; after three rounds the most points win."""

from __future__ import annotations

from collections import Counter

from model.errors import IllegalAction
from validator.kit import SIMULTANEOUS, TERMINAL, Bot, Game, GameRecord, GameSpec, Heuristic, State, conformance
from validator.runner import PlayOptions, play

ROUNDS = 3


class Toy(Game):
    def __init__(self, players: int):
        self.players = players

    def new_initial_state(self, chance):
        return ToyState(self, chance)

    def components(self):
        return Counter()


class ToyState(State):
    def __init__(self, game, chance):
        self.game, self.chance = game, chance
        self.turns = self.rounds = 1
        self.points = [0] * game.players
        self.shown: list[dict] = []
        self.actions = 0

    def current_player(self):
        return TERMINAL if self.is_terminal() else SIMULTANEOUS

    def acting_players(self):
        return list(range(self.game.players))

    def legal_actions(self, player=None):
        return [] if self.is_terminal() else [0, 1]

    def apply_actions(self, joint):
        if sorted(joint) != self.acting_players() or any(a not in (0, 1) for a in joint.values()):
            raise IllegalAction(f"joint action {joint} in round {self.rounds}")
        self.shown.append(dict(joint))
        self.actions += len(joint)
        counts = Counter(joint.values())
        if len(counts) == 2:
            fewest = min(counts, key=lambda a: (counts[a], a))
            for p, a in joint.items():
                self.points[p] += a == fewest
        self.turns += 1
        self.rounds += 1

    def is_terminal(self):
        return len(self.shown) >= ROUNDS

    def returns(self):
        best = max(self.points)
        winners = [p for p, x in enumerate(self.points) if x == best]
        return [1 / len(winners) if p in winners else 0.0 for p in range(self.game.players)]

    def clone(self):
        s = ToyState.__new__(ToyState)
        s.game, s.chance = self.game, self.chance.copy()
        s.turns, s.rounds, s.actions = self.turns, self.rounds, self.actions
        s.points, s.shown = self.points[:], [dict(x) for x in self.shown]
        return s

    def observe(self, player):
        return (self.rounds, tuple(tuple(sorted(x.items())) for x in self.shown), tuple(self.points))

    def record(self):
        r = self.returns() if self.is_terminal() else [0.0] * self.game.players
        return GameRecord(seats=list(range(self.game.players)), winners=[p for p, x in enumerate(r) if x > 0],
                          turns=self.turns, rounds=self.rounds, actions=max(1, self.actions),
                          end="over" if self.is_terminal() else "", scores=list(self.points),
                          counters={"ties": sum(1 for x in self.shown if len(set(x.values())) == 1)})


class Spy(Bot):
    """Shows 1, and remembers the views it was handed."""

    name = "spy"
    seen: list = []

    def step(self, view, actions):
        Spy.seen.append((view.player, view.observe(), tuple(actions)))
        return 1


SPEC = GameSpec(slug="toy-simultaneous", title="Toy", min_players=2, max_players=3, params={},
                make=lambda data, players: Toy(players), end_reasons={"over": "three rounds played"},
                counters={"ties": "rounds everyone showed the same"}, bots={"spy": Spy},
                heuristic=Heuristic(scores=lambda obs, actions: [float(a) for a in actions],
                                    evaluate=lambda state, p: state.points[p] / ROUNDS))
Toy.spec = SPEC


def test_each_acting_player_chooses_with_its_own_view():
    Spy.seen.clear()
    state, stats = play(Toy(3), 5, ("spy", "random", "greedy"), PlayOptions(strict=True))
    assert state.is_terminal() and len(state.shown) == ROUNDS
    assert [p for p, _, _ in Spy.seen] == [0] * ROUNDS  # the spy decides for its seat only, once a round
    assert all(actions == (0, 1) for _, _, actions in Spy.seen)
    assert [obs[0] for _, obs, _ in Spy.seen] == [1, 2, 3]  # what it saw: the round before the joint move
    assert all(x[0] == 1 and x[2] == 1 for x in state.shown)  # spy and greedy both show 1
    assert stats["decisions"] == 3 * ROUNDS and stats["choices"] == 3 * ROUNDS
    assert stats["turns_with_choice"] == ROUNDS


def test_replays_and_search_bots_at_simultaneous_nodes():
    a, _ = play(Toy(2), 9, ("search", "random"), PlayOptions(strict=True))
    b, _ = play(Toy(2), 9, ("search", "random"), PlayOptions(strict=True))
    assert a.shown == b.shown and a.record() == b.record()
    lines = []
    play(Toy(2), 9, ("search", "random"), PlayOptions(), on_action=lambda step, s, p, act: lines.append((step, p, act)))
    assert [(step, p) for step, p, _ in lines] == [(r, p) for r in range(ROUNDS) for p in (0, 1)]


def test_conformance_checks_handle_simultaneous_nodes():
    game = Toy(3)
    records = conformance.check_playouts(game, range(4))
    assert all(r.end == "over" for r in records)
    conformance.check_determinism(game, 3)
    conformance.check_clones(game, 3, every=1, depth=2)
    conformance.check_observations(game, 3, every=1)
    assert conformance.perft(game, 1, 10) == {"players": 3, "seed": 1, "steps": 10, "decisions": ROUNDS,
                                              "legal": 2 * 3 * ROUNDS}
