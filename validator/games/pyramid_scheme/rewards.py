"""Rewards, goals and police: what happens after a placement, as a queue of
tasks the turn player (or a player who must place a police) works through."""

from __future__ import annotations

from model.errors import RulesError

from .goals import MET
from .spec import (DISCARD, END, FLIP, FLIP_POLICE, FLIP_SILENT, LIMIT, MAIN, OFFER, POLICE, POLICE_PLACE, RESERVE,
                   TARGET, TRASH, YES)


class Rewards:
    """The part of :class:`~.state.State` that resolves flips, rewards, goals and police."""

    def _flip(self, p: int, v: int, with_reward: bool) -> None:
        g = self.g
        pyr = self.pyr[p]
        c = pyr.card[v]
        pyr.flip(g, v)
        self.st_flipped.append((p, g.DESIGN[c]))
        if self.log is not None:
            self._event(f"P{p + 1} flips {g.card_label(c)}" + ("" if with_reward else " (no reward)"))
        if with_reward:
            for word, arg in reversed(g.REWARD[c]):
                self.todo.append(("reward", word, arg))

    def _rew(self, word: str, effect: bool) -> None:
        r = self.st_rew.get(word)
        if r is None:
            r = self.st_rew[word] = [0, 0]
        r[0] += 1
        if effect:
            r[1] += 1

    def _take_token(self, p: int, word: str) -> None:
        """A reset or colour-pass reward: one token from the supply, if one is left."""
        if word == "reset":
            taken = self.sup_reset > 0
            if taken:
                self.sup_reset -= 1
                self.resets[p] += 1
        else:
            taken = self.sup_pass > 0
            if taken:
                self.sup_pass -= 1
                self.passes[p] += 1
        self._rew(word, taken)
        if not taken:
            self.st_counts[f"{word}_short"] += 1
        elif self.log is not None:
            self._event(f"P{p + 1} takes a {'reset' if word == 'reset' else 'colour pass'} token")

    def _reward(self, word: str, arg: int) -> bool:
        """Resolve one reward of the turn player; True when a decision is pending."""
        p = self.turn_player
        g = self.g
        pyr = self.pyr[p]
        if word == "hand":
            self.limit[p] += arg
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1}'s hand limit rises to {self.limit[p]}")
            return False
        if word == "reset" or word == "pass":
            self._take_token(p, word)
            return False
        if word == "limit":
            targets = []
            if self.sup_limit.get(arg, 0) > 0:
                targets = [v for v, c in enumerate(pyr.card) if c >= 0 and (g.KIND[c] != POLICE or pyr.flipped[v])]
            else:
                self.st_counts["limit_short"] += 1
            return self._ask(LIMIT, word, arg, targets)
        if word == "discard":
            return self._ask(DISCARD, word, arg, list(range(len(self.hands[p]))))
        if word in ("flip", "flip-silent"):
            targets = [v for v, c in enumerate(pyr.card)
                       if c >= 0 and not pyr.flipped[v] and (self.g.flip_police_too or g.KIND[c] != POLICE)]
            return self._ask(FLIP if word == "flip" else FLIP_SILENT, word, arg, targets)
        if word == "trash-police":
            targets = [v for v, c in enumerate(pyr.card) if c >= 0 and g.KIND[c] == POLICE and not pyr.nchild[v]]
            return self._ask(TRASH, word, arg, targets)
        if word == "flip-police":
            targets = [v for v, c in enumerate(pyr.card) if c >= 0 and g.KIND[c] == POLICE and not pyr.flipped[v]]
            return self._ask(FLIP_POLICE, word, arg, targets)
        if word == "reserve":
            targets = [i for i, gi in enumerate(self.goals_open) if gi not in self.reserved]
            return self._ask(RESERVE, word, arg, targets)
        raise RulesError(f"no rules for reward '{word}'")  # the compiler rejects unknown words first

    def _ask(self, phase: int, word: str, arg: int, targets: list[int]) -> bool:
        if not targets:
            self._rew(word, False)
            return False
        self.phase = phase
        self.cur = self.turn_player
        self.pending = (word, targets, arg)
        return True

    def _decide(self, ph: int, a: int) -> None:
        g = self.g
        p = self.cur
        pyr = self.pyr[p]
        word = self.pending[0]
        if ph == POLICE_PLACE:
            v = a - TARGET
            c = self.police.pop()
            pyr.add(g, c, v)
            self.st_counts["police_placed"] += 1
            if self.log is not None:
                self._event(f"P{p + 1} places a police below {g.card_label(pyr.card[v])}")
        elif ph == OFFER:
            if a == YES:
                self._flip(p, self.pending[1][0], True)
        elif ph == DISCARD:
            if a == END:
                self._rew(word, self.pending[2] > 0)
            else:
                h = a - TARGET
                c = self.hands[p].pop(h)
                self.secret[p].discard(c)
                self.discard.append(c)
                if self.log is not None:
                    self._event(f"P{p + 1} discards {g.card_label(c)} from the hand")
                if self.hands[p]:
                    self.pending = (word, list(range(len(self.hands[p]))), self.pending[2] + 1)
                    return
                self._rew(word, True)
        elif a == END:
            self._rew(word, False)
        elif ph == LIMIT:
            v = a - TARGET
            amount = self.pending[2]
            self.sup_limit[amount] -= 1
            pyr.add_limit(v, amount)
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1} puts a +{amount} limit token on {g.card_label(pyr.card[v])}")
        elif ph in (FLIP, FLIP_SILENT, FLIP_POLICE):
            self._rew(word, True)
            self._flip(p, a - TARGET, ph == FLIP)
        elif ph == TRASH:
            v = a - TARGET
            for amount in pyr.tok[v]:
                self.sup_limit[amount] += 1
            c = pyr.remove_leaf(g, v)
            self.police.append(c)
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1} trashes a police")
        elif ph == RESERVE:
            gi = self.goals_open[a - TARGET]
            self.reserved[gi] = p
            self._rew(word, True)
            if self.log is not None:
                self._event(f"P{p + 1} reserves goal {g.goal_designs[g.goals[gi][0]].name}")
        self.phase = MAIN
        self.cur = self.turn_player
        self.pending = None
        self._resume()

    def _check_goals(self, p: int) -> None:
        reserved = self.reserved
        g = self.g
        goals, met = g.goals, MET
        pyr = self.pyr[p]
        resets = self.resets[p]
        done = []
        for gi in self.goals_open:
            if reserved and reserved.get(gi, p) != p:
                continue
            for kind, n, col, num in goals[gi][1]:
                if not met[kind](pyr, n, col, num, g, resets):
                    break
            else:
                done.append(gi)
        if not done:
            return
        tasks = []
        order = [(p + k) % self.n for k in range(1, self.n)]
        for gi in done:
            self.goals_open.remove(gi)
            self.reserved.pop(gi, None)
            self.claimed[p].append(gi)
            self.st_goals.append((gi, p, self.turns))
            if self.log is not None:
                self._event(f"P{p + 1} claims goal {g.goal_designs[g.goals[gi][0]].name}: "
                            "every other player must place a police")
            tasks.extend(("police", q) for q in order)
        self.todo.extend(reversed(tasks))

    def _police(self, q: int) -> bool:
        """Player ``q`` must place a police; True when they must choose where."""
        if not self.alive[q]:
            return False
        if not self.police:
            self.st_counts["police_short"] += 1
            if self.log is not None:
                self._event(f"no police left in the supply for P{q + 1}")
            return False
        pyr = self.pyr[q]
        n = self.g.police_number
        targets = [v for v, k in enumerate(pyr.cap) if k >= n]
        if not targets:
            self._eliminate(q, "police")
            return False
        self.phase = POLICE_PLACE
        self.cur = q
        self.pending = ("police", targets, 0)
        return True

