"""The protocol every rules engine speaks (in the spirit of OpenSpiel).

A ``Game`` is compiled once from the shared spreadsheet model (``model.sheets.Game``)
plus rules options; it is picklable, because worker processes receive it.  It
makes states::

    state = game.new_initial_state(chance)      # chance: the runner's seeded generator
    while not state.is_terminal():
        p = state.current_player()
        if p == SIMULTANEOUS:                   # e.g. rock-paper-scissors
            joint = {q: bots[q].step(View(state, q), state.legal_actions(q)) for q in state.acting_players()}
            state.apply_actions(joint)
        else:
            state.apply_action(bots[p].step(View(state, p), state.legal_actions()))
    state.record()                              # a GameRecord

Three notions the rules need beyond turn-taking:

* **chance**: shuffles and draws come from the :class:`~validator.kit.chance.Chance`
  passed to ``new_initial_state``; rules code never imports ``random``.
* **simultaneous moves**: ``current_player()`` is ``SIMULTANEOUS``; the players
  in ``acting_players()`` each choose from ``legal_actions(player)`` without
  seeing the others' choices, and ``apply_actions`` resolves them together.
* **observation**: a bot is handed a :class:`View` of its seat, never the state.
  ``observe(player)`` returns only what that seat may see (its hand, the public
  table, what it was shown and remembers); ``determinize(player, chance)``
  returns a full state in which everything hidden from the player has been drawn
  again, which is what a search bot plays out.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any, Iterable, Mapping

from .record import GameRecord
from .zones import check_conservation

TERMINAL = -4  # current_player() of a finished game, as in OpenSpiel
SIMULTANEOUS = -2  # current_player() when several players choose at once


class Game:
    """A compiled game: the deck and rules options, shared by all its states."""

    spec: Any  # the GameSpec it was made from
    players: int

    def new_initial_state(self, chance) -> "State":
        raise NotImplementedError

    def components(self) -> Counter:
        """Every physical component of the game, by id (the conservation check's reference)."""
        return Counter()

    def component_label(self, component) -> str:
        return str(component)


class State:
    """One position.  Engines subclass it; the members marked *required* must be
    implemented, the rest have sensible defaults."""

    game: Game
    turns: int = 0  # turns begun (the runner watches it for the turn cap and loops)
    rounds: int = 0  # rounds begun (standings are read once per round)
    log: list | None = None  # when a list, rules append one line per event (replays)

    # -- required
    def current_player(self) -> int:
        """The player to act, ``SIMULTANEOUS`` or ``TERMINAL``."""
        raise NotImplementedError

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of the player to act (or of ``player`` at a simultaneous node)."""
        raise NotImplementedError

    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalAction`` showing the position."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def returns(self) -> list[float]:
        """1 for a sole winner, 1/k for each of k who share a win, 0 otherwise."""
        raise NotImplementedError

    def clone(self) -> "State":
        """An independent copy: applying actions to it leaves this state unchanged.
        It keeps a copy of the generator (``kit.copy_generator``), so the copy and
        the original draw the same from here on, each from its own."""
        raise NotImplementedError

    def record(self) -> GameRecord:
        raise NotImplementedError

    def observe(self, player: int) -> Any:
        """What ``player`` may see now: an engine-specific, read-only observation.

        Observations compare by value: two observations of a seat are equal
        (``==``) exactly when the seat sees the same - a tuple, a dataclass or an
        object with ``__eq__``.  The conformance harness checks that a seat's
        observation is unchanged when everything hidden from it is drawn again
        (``determinize``)."""
        raise NotImplementedError

    # -- defaults
    def apply_unchecked(self, action: int) -> None:
        """``apply_action`` without the legality check (bots pick from ``legal_actions``)."""
        self.apply_action(action)

    def acting_players(self) -> list[int]:
        """At a simultaneous node: the players who choose now."""
        return []

    def apply_actions(self, joint: Mapping[int, int]) -> None:
        """At a simultaneous node: every acting player's action at once."""
        raise NotImplementedError

    def determinize(self, player: int, chance) -> "State":
        """A copy with everything hidden from ``player`` drawn again from ``chance``."""
        return self.clone()

    def stop(self, reason: str) -> None:
        """End the game without a result (turn cap, loop, stuck)."""
        raise NotImplementedError

    def position_key(self) -> tuple:
        """Everything that matters for the future of the game (loop detection)."""
        return (id(self),)

    def standings(self) -> list | None:
        """A value per player (None for one who is out) for the lead and drama figures; None: not measured."""
        return None

    def zones(self) -> Mapping[str, Iterable]:
        """Where every component is now: zone name -> component ids."""
        return {}

    def check_invariants(self) -> None:
        """Raise AssertionError naming the first broken invariant.  The default is
        the kit's conservation check over ``zones()``; engines add their own rules."""
        check_conservation(self.zones(), self.game.components(), self.game.component_label)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def describe(self) -> str:
        """The position in a few lines (for replays and error messages)."""
        return ""


class View:
    """What a bot holds of its seat: the observation, and samples of the full
    position consistent with it.  Bots never receive the state itself.

    ``observe()`` returns the seat's observation now (``State.observe``)."""

    __slots__ = ("_state", "player", "observe")

    def __init__(self, state: State, player: int):
        self._state = state
        self.player = player
        self.observe = partial(state.observe, player)  # one call, however often a bot looks

    def determinize(self, chance) -> State:
        return self._state.determinize(self.player, chance)

    @property
    def game(self) -> Game:
        return self._state.game


class Bot:
    """A player.  The runner makes one per seat and game, with a generator of its
    own (seeded from the game's seed) and the compiled game; ``step`` gets the
    seat's :class:`View` and the legal actions and returns one of them.  A bot
    may keep memory between its steps (what it was shown, what others did),
    but may read only its view."""

    name = "bot"

    def __init__(self, rng, game: Game | None = None, **options):
        self.rng = rng
        self.game = game

    def step(self, view: View, actions: list[int]) -> int:
        raise NotImplementedError
