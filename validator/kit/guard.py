"""How the runner ends a game that would not end: the turn cap and the loop check.

Every game loop (the runner's protocol loop and the engines' whole-game fast
paths) asks ``TurnGuard.stops(state, turn)`` once at the start of each new
turn.  Past ``turn_cap`` turns the game stops with the end reason
``turn-cap``; from turn ``loop_after`` on, a position seen at the start of an
earlier turn (``state.position_key()``) stops it with ``loop``.  Both loops
share this one object, so they end the same games the same way.
"""

from __future__ import annotations


class TurnGuard:
    __slots__ = ("turn_cap", "loop_after", "watch_from", "_seen")

    def __init__(self, turn_cap: int, loop_after: int):
        self.turn_cap = turn_cap
        self.loop_after = loop_after
        #: before this turn, ``stops`` always answers False (a loop may skip the call)
        self.watch_from = min(turn_cap + 1, loop_after)
        self._seen: set | None = None

    def stops(self, state, turn: int) -> bool:
        """At the start of turn ``turn``: stop the game (``state.stop(reason)``) and return True, or False."""
        if turn > self.turn_cap:
            state.stop("turn-cap")
            return True
        if turn >= self.loop_after:
            key = state.position_key()
            seen = self._seen
            if seen is None:
                seen = self._seen = set()
            elif key in seen:
                state.stop("loop")
                return True
            seen.add(key)
        return False
