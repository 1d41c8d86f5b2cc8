"""What one seat sees: the observation the bots' heuristics read.

Public: every pyramid (with its tokens), the display, the deck's size and its
face-up top card, the discard pile, the supplies, the goals and who reserved or
claimed them, every player's tokens and hand limit, whose turn it is and what
is being decided.  Private: the seat's own hand.  Hidden from the seat: the
deck below its top card and the victims opponents were dealt face down (with
``hands-hidden``) and still hold - they show as -1.

An observation is taken when the seat decides and is valid until the next
action: the fields the greedy heuristic reads on every decision are plain
attributes, the rest are read on demand.  Two observations are equal when the
seat sees the same.
"""

from __future__ import annotations


class Observation:
    """``player``'s view: ``g`` (the compiled game), ``phase``, ``hand`` and ``pyr``
    (the seat's own), ``display``, ``passes`` and ``limit`` (the seat's colour
    passes and hand limit), ``actions_left``, ``goals_open``, ``reserved``
    (goal -> player), ``memo`` (a cache for figures heuristics derive from this
    position; the rules never read it).  Lists are the table's own: read only."""

    __slots__ = ("g", "player", "phase", "hand", "pyr", "display", "passes", "limit", "actions_left", "goals_open",
                 "reserved", "memo", "_s")

    def __init__(self, state, player: int):
        observe(state, player, self)

    # -- the rest of the table, on demand
    @property
    def resets(self) -> int:
        """The seat's reset tokens."""
        return self._s.resets[self.player]

    @property
    def pyramids(self) -> list:
        return self._s.pyr

    @property
    def pending(self):
        """What is being decided: (word, targets, argument), or None."""
        return self._s.pending

    @property
    def deck_size(self) -> int:
        return len(self._s.deck)

    @property
    def deck_top(self) -> int:
        """The face-up top card of the deck, -1 when the deck is empty."""
        deck = self._s.deck
        return deck[-1] if deck else -1

    def hand_of(self, q: int) -> tuple[int, ...]:
        """Player ``q``'s hand as this seat sees it: cards dealt face down show as -1."""
        s = self._s
        if q == self.player:
            return tuple(s.hands[q])
        secret = s.secret[q]
        return tuple(-1 if c in secret else c for c in s.hands[q])

    def key(self) -> tuple:
        """Everything this seat sees, as one comparable value."""
        s = self._s
        pending = s.pending
        if pending is not None:
            pending = tuple(tuple(x) if isinstance(x, (list, tuple)) else x for x in pending)
        return (self.player, s.phase, s.cur, s.turn_player, s.start, s.actions_left, pending, s.turns, s.rounds,
                tuple(s.alive), tuple(s.limit), tuple(s.resets), tuple(s.passes),
                tuple(self.hand_of(q) for q in range(s.n)),
                tuple((tuple(p.card), tuple(p.parent), tuple(p.flipped), tuple(p.tok)) for p in s.pyr),
                tuple(s.display), len(s.deck), self.deck_top, tuple(s.discard), tuple(s.out), len(s.police),
                s.sup_reset, s.sup_pass, tuple(sorted(s.sup_limit.items())), tuple(s.goals_open),
                tuple(sorted(s.reserved.items())), tuple(tuple(c) for c in s.claimed), tuple(s.winners), s.end)

    def __eq__(self, other) -> bool:
        return isinstance(other, Observation) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<Pyramid Scheme observation of P{self.player + 1}, phase {self.phase}>"


def observe(s, player: int, o: Observation | None = None) -> Observation:
    """``player``'s observation of state ``s`` now (valid until the next action);
    ``State.observe`` is this function."""
    if o is None:
        o = _new(Observation)
    o._s = s
    o.g = s.g  # the compiled game: the rules and the card list, public
    o.player = player
    o.phase = s.phase
    o.hand = s.hands[player]  # own hand (read only)
    o.pyr = s.pyr[player]  # own pyramid (read only)
    o.display = s.display
    o.passes = s.passes[player]
    o.limit = s.limit[player]
    o.actions_left = s.actions_left
    o.goals_open = s.goals_open
    o.reserved = s.reserved
    o.memo = s.memo  # a cache for figures derived from this position (never read by the rules)
    return o


_new = object.__new__
