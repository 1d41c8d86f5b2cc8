"""Pyramid Scheme as text: actions, positions and the replay's event lines."""

from __future__ import annotations

from .spec import (DISCARD, END, ENDTURN, FLIP, FLIP_POLICE, FLIP_SILENT, LIMIT, MAIN, PHASE_NAMES, PLACE,
                   POLICE_PLACE, RESERVE, RESET, TAKE, TARGET, TRASH, YES, HSTRIDE)


class Text:
    """The part of :class:`~.state.State` that speaks: ``action_to_string``, ``describe`` and log lines."""

    def action_to_string(self, a: int) -> str:
        g = self.g
        p = self.cur
        ph = self.phase
        if ph == MAIN or ph == ENDTURN:
            if a == RESET:
                return "spend a reset token (refresh the display)"
            if a == END:
                return "end the turn"
            if TAKE <= a < RESET:
                c = self.display[a - TAKE] if a - TAKE < len(self.display) else -1
                return f"take {g.card_label(c) if c >= 0 else 'an empty slot'} from display slot {a - TAKE + 1}"
            if a >= PLACE:
                h, v = divmod(a - PLACE, HSTRIDE)
                hand, pyr = self.hands[p], self.pyr[p]
                c = hand[h] if h < len(hand) else -1
                below = g.card_label(pyr.card[v]) if v < len(pyr.card) and pyr.card[v] >= 0 else f"node {v}"
                return f"place {g.card_label(c) if c >= 0 else f'hand card {h}'} below {below} (node {v})"
        if a == END:
            return "skip" if ph != DISCARD else "stop discarding"
        if a == YES:
            return "flip it"
        t = a - TARGET
        pyr = self.pyr[p]
        if ph == RESERVE:
            gi = self.goals_open[t] if t < len(self.goals_open) else -1
            return f"reserve goal {g.goal_designs[g.goals[gi][0]].name}" if gi >= 0 else f"reserve goal {t}"
        if ph == DISCARD:
            h = self.hands[p]
            return f"discard {g.card_label(h[t])}" if t < len(h) else f"discard hand card {t}"
        what = {LIMIT: "put the limit token on", FLIP: "flip", FLIP_SILENT: "flip", TRASH: "trash the police",
                FLIP_POLICE: "flip the police", POLICE_PLACE: "place the police below"}.get(ph, "choose")
        label = g.card_label(pyr.card[t]) if 0 <= t < len(pyr.card) and pyr.card[t] >= 0 else f"node {t}"
        return f"{what} {label} (node {t})"

    def describe(self) -> str:
        """The whole position as text (for replays and error messages)."""
        g = self.g
        lines = [f"turn {self.turns}, round {self.rounds}, phase {PHASE_NAMES[self.phase]}, "
                 f"P{self.cur + 1} to act, {self.actions_left} action(s) left"]
        lines.append("display: " + ", ".join(g.card_label(c) if c >= 0 else "-" for c in self.display)
                     + f"; deck {len(self.deck)} (top {g.card_label(self.deck[-1]) if self.deck else '-'}), "
                     f"discard {len(self.discard)}, police supply {len(self.police)}")
        lines.append("open goals: " + ", ".join(
            g.goal_designs[g.goals[gi][0]].name + (f" (reserved by P{self.reserved[gi] + 1})" if gi in self.reserved
                                                  else "") for gi in self.goals_open))
        for p in range(self.n):
            if not self.alive[p]:
                lines.append(f"P{p + 1}: out")
                continue
            lines.append(f"P{p + 1}: hand [{', '.join(g.card_label(c) for c in self.hands[p])}] limit {self.limit[p]},"
                         f" reset tokens {self.resets[p]}, passes {self.passes[p]}, smart-asses {self.pyr[p].flips}")
            pyr = self.pyr[p]
            kids: dict[int, list[int]] = {}
            for v in pyr.nodes():
                kids.setdefault(pyr.parent[v], []).append(v)
            stack = [(0, 0)] if pyr.card else []
            while stack:  # depth first, so every card sits under the one it is placed below
                v, depth = stack.pop()
                extra = (" flipped" if pyr.flipped[v] else "") + (f" +{sum(pyr.tok[v])}" if pyr.tok[v] else "")
                lines.append(f"    {'  ' * depth}[{v}] {g.card_label(pyr.card[v])}{extra}, room {max(pyr.cap[v], 0)}")
                stack.extend((u, depth + 1) for u in reversed(kids.get(v, [])))
        return "\n".join(lines)

    def _event(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

