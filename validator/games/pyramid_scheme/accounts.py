"""What the runner reads from a finished or running game: the record, the
standings, and where every component is (for the conservation check)."""

from __future__ import annotations

from validator.kit import GameRecord

from . import invariants


class Accounts:
    """The part of :class:`~.state.State` that reports: ``record``, ``standings``, ``zones``, ``check_invariants``."""

    # -- the record the runner aggregates
    def record(self) -> GameRecord:
        g = self.g
        ids = g.design_ids
        placed_by = [set() for _ in range(self.n)]
        placed = {}
        for p, d in self.st_placed:
            placed_by[p].add(ids[d])
            placed[d] = placed.get(d, 0) + 1
        flipped = {}
        for _, d in self.st_flipped:
            flipped[d] = flipped.get(d, 0) + 1
        drawn = self.st_drawn
        # per victim and founder design: drawn, placed, flipped
        cards = {cid: (drawn[d], placed.get(d, 0), flipped.get(d, 0)) for d, cid in g.card_designs}
        return GameRecord(
            seats=[self.seat(p) for p in range(self.n)],
            winners=list(self.winners),
            turns=self.turns,
            rounds=self.rounds,
            actions=self.n_actions,
            end=self.end,
            eliminations=[(p, cause, turn) for p, cause, turn in self.eliminated],
            scores=[self.pyr[p].flips if self.alive[p] else None for p in range(self.n)],
            counters=dict(self.st_counts),
            details={
                "cards": cards,
                "placed_by": [sorted(s) for s in placed_by],
                "goals_open": [g.goal_designs[g.goals[gi][0]].id for gi in self._dealt_goals()],
                "goals_claimed": [(g.goal_designs[g.goals[gi][0]].id, p, turn) for gi, p, turn in self.st_goals],
                "rewards": {w: tuple(v) for w, v in self.st_rew.items()},
            },
        )

    def _dealt_goals(self) -> list[int]:
        boxed = {x[1] for x in self.box if isinstance(x, tuple)}
        return [i for i in range(len(self.g.goals)) if i not in boxed]

    # -- standings (the lead and drama figures)
    def assets(self, q: int) -> tuple[int, int, int, int, int, int]:
        """What player ``q`` has: smart-asses, cards with room for a police
        (counted up to 3), free room below cards, goals claimed, reset tokens,
        and how far the hand limit has risen."""
        pyr = self.pyr[q]
        n = self.g.police_number
        spots = room = 0
        for k in pyr.cap:
            if k >= n:
                spots += 1
            if k > 0:
                room += k
        return (pyr.flips, min(spots, 3), room, len(self.claimed[q]), self.resets[q],
                self.limit[q] - self.g.hand_limit)

    def standings(self) -> list[int | None]:
        """Each player's standing for the report's lead and drama figures: the
        strength the search bot's evaluation compares (``STANDING``), in tenths
        (an exact integer), None for a player who is out.  Reading it changes nothing."""
        out = []
        for q in range(self.n):
            if self.alive[q]:
                flips, spots, room, goals, resets, hand = self.assets(q)
                out.append(10 * flips + 15 * spots + 3 * room + 20 * goals + 5 * resets + 5 * hand)
            else:
                out.append(None)
        return out

    # -- conservation and invariants (--strict)
    def zones(self) -> dict:
        """Where every component is: cards by index, goals as ("goal", i), tokens
        as "reset", "pass" and ("limit", amount)."""
        z = {"the deck": self.deck, "the display": [c for c in self.display if c >= 0],
             "the discard pile": self.discard, "out of the game": self.out, "the police supply": self.police,
             "the box": self.box, "the open goals": [("goal", gi) for gi in self.goals_open],
             "the reset supply": ["reset"] * self.sup_reset, "the pass supply": ["pass"] * self.sup_pass,
             "the limit supply": [("limit", a) for a, k in self.sup_limit.items() for _ in range(k)]}
        for p in range(self.n):
            who = f"P{p + 1}'s"
            pyr = self.pyr[p]
            z[f"{who} hand"] = self.hands[p]
            z[f"{who} pyramid"] = [c for c in pyr.card if c >= 0]
            z[f"{who} limit tokens"] = [("limit", a) for t in pyr.tok for a in t]
            z[f"{who} goals"] = [("goal", gi) for gi in self.claimed[p]]
            z[f"{who} reset tokens"] = ["reset"] * self.resets[p]
            z[f"{who} passes"] = ["pass"] * self.passes[p]
        return z

    def check_invariants(self) -> None:
        """Raise AssertionError naming the first broken invariant: conservation
        (the kit's check over :meth:`zones`), then the rules' own."""
        super().check_invariants()
        invariants.check(self)
