"""The checks every rules engine must pass, whatever its game.

``tests/validator/test_conformance_all.py`` runs them over every engine in
``ENGINES``; an engine's own tests may call them too.  Each check plays random
games from fixed seeds through the protocol alone and raises AssertionError
with the seed and step when the engine breaks a promise:

* :func:`check_playouts` - random playouts end, keep every invariant
  (``check_invariants`` after every action), offer sorted unique legal actions,
  and leave a consistent :class:`~.record.GameRecord`;
* :func:`check_determinism` - the same seed gives the same record, also from a
  pickled copy of the game (worker processes receive the game pickled);
* :func:`check_clones` - a clone is faithful (the same position) and
  independent (playing it on leaves the original as it was);
* :func:`check_observations` - observing changes nothing, and a seat's
  observation stays the same when everything hidden from it is drawn again
  (``determinize``): it shows nothing hidden;
* :func:`check_bots` - a bot chooses the same from its seat's :class:`~.protocol.View`
  of the real position and of a copy where what the seat cannot see was drawn
  again: it reads nothing else;
* :func:`check_zones` - every component is in exactly one zone after every
  action, nothing created or lost (what ``check_invariants`` does by default);
* :func:`perft` - golden legal-action counts: the sum of the numbers of legal
  actions along the first ``steps`` decisions of a seeded random playout.

The position-level pieces (:func:`check_record`, :func:`check_clone`,
:func:`check_observation`, :func:`check_position_zones`) are what ``pnp validate
SLUG --conformance`` applies inside the runner's own games, so that every
failure it reports can be replayed with ``--replay SEED``.

Golden counts are recorded with::

    python -m validator.kit.conformance perft SLUG --write tests/validator/perft.json
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import sys
from pathlib import Path

from .chance import Chance, derive_seed
from .protocol import SIMULTANEOUS, TERMINAL, View
from .record import GameRecord
from .zones import check_conservation

MAX_STEPS = 50_000  # a random playout longer than this is a game that does not end

__all__ = ["check_playouts", "check_record", "check_determinism", "check_clones", "check_clone", "check_observations",
           "check_observation", "check_zones", "check_position_zones", "check_bots", "WatchedView", "playout",
           "choose", "apply", "fingerprint", "perft", "tree_perft", "MAX_STEPS"]


# ------------------------------------------------------------------ playing
def choose(state, pick: Chance):
    """A random legal move of ``state``: ``(player, action)``, or ``(SIMULTANEOUS, joint)``
    at a simultaneous node; None when the player to act has no legal action."""
    p = state.current_player()
    if p == SIMULTANEOUS:
        joint = {}
        for q in state.acting_players():
            acts = state.legal_actions(q)
            if acts:
                joint[q] = acts[pick.draw(len(acts))]
        return (SIMULTANEOUS, joint) if joint else None
    acts = state.legal_actions()
    return (p, acts[pick.draw(len(acts))]) if acts else None


def apply(state, move, checked: bool = True) -> None:
    p, a = move
    if p == SIMULTANEOUS:
        state.apply_actions(a)
    elif checked:
        state.apply_action(a)
    else:
        state.apply_unchecked(a)


def legal_counts(state) -> int:
    """Legal actions of the player to act (summed over the acting players at a simultaneous node)."""
    if state.current_player() == SIMULTANEOUS:
        return sum(len(state.legal_actions(q)) for q in state.acting_players())
    return len(state.legal_actions())


def playout(game, seed: int, strict: bool = True, on_step=None, max_steps: int = MAX_STEPS):
    """A random game from ``seed`` (the game's chance and the moves drawn from
    generators derived from it); with ``strict``, invariants are checked before
    the first and after every action.  ``on_step(step, state)`` is called
    before each action.  Returns the final state."""
    state = game.new_initial_state(Chance(seed))
    pick = Chance(derive_seed(seed, "conformance"))
    where = f"{game.spec.slug}, {game.players} players, seed {seed}"
    if strict:
        _invariants(state, where, "setup")
    for step in range(max_steps):
        if state.is_terminal():
            return state
        _check_legal(state, where, step)
        if on_step is not None:
            on_step(step, state)
        move = choose(state, pick)
        if move is None:
            raise AssertionError(f"{where}: no legal action at step {step} although the game is not over:\n"
                                 f"{state.describe()}")
        apply(state, move)
        if strict:
            _invariants(state, where, f"step {step}")
    raise AssertionError(f"{where}: not over after {max_steps} random actions")


def _invariants(state, where: str, when: str) -> None:
    try:
        state.check_invariants()
    except AssertionError as exc:
        raise AssertionError(f"{where}: invariant broken at {when}: {exc}") from None


def _check_legal(state, where: str, step: int) -> None:
    players = state.acting_players() if state.current_player() == SIMULTANEOUS else [None]
    for q in players:
        acts = state.legal_actions(q) if q is not None else state.legal_actions()
        if list(acts) != sorted(set(acts)) or not all(isinstance(a, int) for a in acts):
            raise AssertionError(f"{where}: legal actions at step {step} are not sorted unique ints: {acts[:20]}")


# ------------------------------------------------------------------ the checks
def check_playouts(game, seeds, strict: bool = True) -> list[GameRecord]:
    """Random playouts of ``seeds`` end with a consistent record; return the records."""
    records = []
    for seed in seeds:
        state = playout(game, seed, strict)
        records.append(check_record(game, state, f"{game.spec.slug}, {game.players} players, seed {seed}"))
    return records


def check_record(game, state, where: str, allow_stall: bool = False) -> GameRecord:
    """A finished game's ``returns()`` and ``record()`` agree with each other and with
    the spec (seats, winners, end reason, eliminations, declared counters); return the record.
    A stall (an end in ``spec.stalls``: the turn cap, or an ending of the engine's own for a
    position nobody can finish) fails unless ``allow_stall``."""
    spec = game.spec
    n = game.players
    assert state.current_player() == TERMINAL, f"{where}: current_player() of a finished game is not TERMINAL"
    r = state.returns()
    assert len(r) == n, f"{where}: returns() has {len(r)} values for {n} players"
    rec = state.record()
    assert isinstance(rec, GameRecord), f"{where}: record() must return a GameRecord, not {type(rec).__name__}"
    assert sorted(rec.seats) == list(range(n)), f"{where}: seats {rec.seats} are not a permutation of 0..{n - 1}"
    assert rec.end in spec.end_reasons, f"{where}: end '{rec.end}' is not a key of the spec's end_reasons"
    assert allow_stall or rec.end not in spec.stalls, f"{where}: a random game ended without a result ({rec.end})"
    assert all(0 <= w < n for w in rec.winners) and len(set(rec.winners)) == len(rec.winners), \
        f"{where}: winners {rec.winners}"
    if rec.winners:
        assert abs(sum(r) - 1.0) < 1e-9, f"{where}: returns {r} of a game with winners do not add up to 1"
        assert all((r[p] > 0) == (p in rec.winners) for p in range(n)), f"{where}: returns {r} vs winners"
    assert rec.turns >= 1 and rec.rounds >= 1 and rec.actions >= 1, f"{where}: turns, rounds and actions"
    for p, cause, turn in rec.eliminations:
        assert 0 <= p < n and cause in spec.elimination_causes, f"{where}: elimination {(p, cause, turn)}"
    unknown = set(rec.counters) - set(spec.counters)
    assert not unknown, f"{where}: counters {sorted(unknown)} are not declared in the spec's counters"
    for name, values in rec.per_player.items():
        assert name in spec.per_player, f"{where}: per-player counter '{name}' is not declared in the spec"
        assert len(values) == n, f"{where}: per-player counter '{name}' has {len(values)} values"
    if rec.scores:
        assert len(rec.scores) == n, f"{where}: {len(rec.scores)} scores for {n} players"
    return rec


def check_determinism(game, seed: int) -> None:
    """The same seed plays the same game, here and in a pickled copy of the game
    (made after playing, as a worker process would receive it)."""
    a = playout(game, seed, strict=False).record()
    b = playout(game, seed, strict=False).record()
    assert a == b, f"{game.spec.slug}, seed {seed}: two playouts of the same seed differ:\n{a}\n{b}"
    try:
        copy = pickle.loads(pickle.dumps(game))
    except Exception as exc:  # noqa: BLE001 - reported as the engine's failure
        raise AssertionError(f"{game.spec.slug}: the compiled game does not pickle ({exc}); worker processes "
                             "receive it pickled") from None
    c = playout(copy, seed, strict=False).record()
    assert a == c, f"{game.spec.slug}, seed {seed}: a pickled copy of the game plays the seed differently"


def fingerprint(state) -> tuple:
    """What a position shows through the protocol: player to act, legal actions,
    every seat's observation, the record so far."""
    n = state.game.players
    p = state.current_player()
    if p == SIMULTANEOUS:
        legal = tuple((q, tuple(state.legal_actions(q))) for q in state.acting_players())
    else:
        legal = tuple(state.legal_actions())
    return (p, legal, tuple(state.observe(q) for q in range(n)), state.record())


def check_clones(game, seed: int, every: int = 5, depth: int = 8) -> None:
    """Every ``every`` steps: a clone shows the same position; playing it on for
    ``depth`` random actions leaves the original unchanged; and the game played
    that way ends as a plain playout of the seed does."""
    where = f"{game.spec.slug}, {game.players} players, seed {seed}"

    def poke(step, state):
        if not step % every:
            check_clone(state, where, step, Chance(derive_seed(seed, "clone", step)), depth)

    poked = playout(game, seed, strict=False, on_step=poke).record()
    plain = playout(game, seed, strict=False).record()
    assert poked == plain, f"{where}: playing clones on changed how the original game went"


def check_clone(state, where: str, step: int, pick: Chance, depth: int = 8) -> None:
    """A clone of ``state`` shows the same position, and playing it on for ``depth``
    random actions (drawn from ``pick``) leaves ``state`` as it was."""
    before = fingerprint(state)
    twin = state.clone()
    assert fingerprint(twin) == before, f"{where}: a clone at step {step} differs from its original"
    for _ in range(depth):
        if twin.is_terminal():
            break
        move = choose(twin, pick)
        if move is None:
            break
        apply(twin, move, checked=False)
    assert fingerprint(state) == before, f"{where}: playing a clone on changed the original at step {step}"


def check_observations(game, seed: int, every: int = 3, samples: int = 2) -> None:
    """Every ``every`` steps, for every seat: observing changes nothing, and the
    observation of a determinized copy (everything hidden from the seat drawn
    again) equals the seat's observation of the real position."""
    where = f"{game.spec.slug}, {game.players} players, seed {seed}"

    def look(step, state):
        if not step % every:
            check_observation(state, where, step, seed, samples)

    playout(game, seed, strict=False, on_step=look)


def check_observation(state, where: str, step: int, seed: int, samples: int = 2) -> None:
    """For every seat of ``state``: two observations are equal, and so is the seat's
    observation of ``samples`` copies with what it cannot see drawn again."""
    before = fingerprint(state)
    for p in range(state.game.players):
        seen = state.observe(p)
        assert seen == state.observe(p), f"{where}: two observations of P{p + 1} at step {step} differ " \
                                         "(observations must compare equal by value)"
        for k in range(samples):
            d = state.determinize(p, Chance(derive_seed(seed, "determinize", step, p, k)))
            _invariants(d, where, f"step {step} (a determinized copy for P{p + 1})")
            assert d.observe(p) == seen, (f"{where}: P{p + 1}'s observation changed at step {step} when what is "
                                          f"hidden from P{p + 1} was drawn again: it shows hidden information")
    assert fingerprint(state) == before, f"{where}: observing or determinizing changed the position at step {step}"


def check_zones(game, seed: int) -> int:
    """A random playout of ``seed`` keeps every component in exactly one zone after
    every action; returns how many components the game lists (0: it declares no
    zones, and nothing was checked)."""
    where = f"{game.spec.slug}, {game.players} players, seed {seed}"
    if not sum(game.components().values()):
        return 0

    def look(step, state):
        check_position_zones(state, where, "setup" if step == 0 else f"action {step - 1}")

    final = playout(game, seed, strict=False, on_step=look)
    check_position_zones(final, where, "the end")
    return sum(game.components().values())


def check_position_zones(state, where: str, when: str) -> None:
    """The kit's conservation check on one position (``State.zones`` against ``Game.components``)."""
    game = state.game
    try:
        check_conservation(state.zones(), game.components(), game.component_label)
    except AssertionError as exc:
        raise AssertionError(f"{where}: components not conserved after {when}: {exc}") from None


class WatchedView(View):
    """A :class:`View` that notes whether its bot drew positions of its own (``determinize``)."""

    __slots__ = ("sampled",)

    def __init__(self, state, player: int):
        super().__init__(state, player)
        self.sampled = False

    def determinize(self, chance):
        self.sampled = True
        return super().determinize(chance)


def check_bots(game, seed: int, bots: list, name: str = "bot", max_steps: int = MAX_STEPS, where: str = "") -> int:
    """Play ``seed`` with ``bots`` (one per seat, made as the runner makes them) the
    way the runner does; at every decision, two copies of the deciding bot are asked,
    one through the seat's View of the position and one through its View of a copy
    in which everything hidden from the seat was drawn again.  They must choose the
    same, unless the bot drew positions of its own (then the decision is not
    compared).  Returns the number of decisions compared; ``where`` names the game in messages."""
    where = where or f"{game.spec.slug}, {game.players} players, seed {seed}"
    state = game.new_initial_state(Chance(seed))
    bots = list(bots)
    compared = 0
    keep = {id(game): game}  # the copies share the compiled game

    def ask(p: int, actions: list, step: int) -> int:
        nonlocal compared
        bot = bots[p]
        one, two = copy.deepcopy(bot, dict(keep)), copy.deepcopy(bot, dict(keep))
        hidden = state.determinize(p, Chance(derive_seed(seed, "hidden", step, p)))
        real, other = WatchedView(state, p), WatchedView(hidden, p)
        a = one.step(real, list(actions))
        b = two.step(other, list(actions))
        if not (real.sampled or other.sampled):
            compared += 1
            assert a == b, (f"{where}: the {name} bot of P{p + 1} chose {state.action_to_string(a)} at step {step}, "
                            f"and {hidden.action_to_string(b)} when what P{p + 1} cannot see was drawn again: "
                            "it reads more than its seat's View")
        bots[p] = one  # the game goes on with the copy that saw the real position
        return a

    for step in range(max_steps):
        p = state.current_player()
        if p == TERMINAL:
            return compared
        if p == SIMULTANEOUS:
            joint = {}
            for q in state.acting_players():
                acts = state.legal_actions(q)
                if acts:
                    joint[q] = acts[0] if len(acts) == 1 else ask(q, acts, step)
            if not joint:
                return compared
            state.apply_actions(joint)
        else:
            acts = state.legal_actions()
            if not acts:
                return compared
            state.apply_unchecked(acts[0] if len(acts) == 1 else ask(p, acts, step))
    return compared


def perft(game, seed: int, steps: int) -> dict:
    """Golden counts of one seeded random playout: the decisions taken (at most
    ``steps``) and the legal actions summed over them."""
    state = game.new_initial_state(Chance(seed))
    pick = Chance(derive_seed(seed, "conformance"))
    decisions = legal = 0
    while decisions < steps and not state.is_terminal():
        move = choose(state, pick)
        if move is None:
            break
        legal += legal_counts(state)
        decisions += 1
        apply(state, move)
    return {"players": game.players, "seed": seed, "steps": steps, "decisions": decisions, "legal": legal}


def tree_perft(state, depth: int) -> int:
    """Legal action sequences of length ``depth`` from ``state`` (turn-based nodes;
    each child is a clone).  Chance draws below the root follow the clones'
    copies of the generator."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += tree_perft(child, depth - 1)
    return total


# ------------------------------------------------------------------ recording golden counts
PERFT_SEEDS = (1, 2)
PERFT_STEPS = 300


def record_perft(spec, data) -> list[dict]:
    """The golden counts of an engine: every player count, seeds ``PERFT_SEEDS``."""
    out = []
    for players in range(spec.min_players, spec.max_players + 1):
        game = spec.make(data, players)
        for seed in PERFT_SEEDS:
            out.append(perft(game, seed, PERFT_STEPS))
    return out


def main(argv=None) -> int:
    from model.sheets import load_project

    from .registry import get_spec

    ap = argparse.ArgumentParser(prog="python -m validator.kit.conformance",
                                 description="Record an engine's golden legal-action counts (perft).")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="print (or write) the golden counts of an engine")
    p.add_argument("slug")
    p.add_argument("--data", default=".", help="the folder with cards.csv, goals.csv and templates/")
    p.add_argument("--write", metavar="FILE", help="update this JSON file (e.g. tests/validator/perft.json)")
    args = ap.parse_args(argv)
    spec = get_spec(args.slug)
    data = load_project(args.data, [args.slug]).games[args.slug]
    entry = record_perft(spec, data)
    if args.write:
        path = Path(args.write)
        table = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        table[args.slug] = entry
        path.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(entry)} golden counts for {args.slug} to {path}")
    else:
        json.dump({args.slug: entry}, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
