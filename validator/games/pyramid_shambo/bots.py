"""Pyramid Shambo bots: a chooser (whom to challenge, which pieces pay) with a thrower.

Bot names are ``CHOOSER`` or ``CHOOSER@THROWER``:

* choosers: ``naive`` (a random rival, a random payment plan) and ``smart``
  (the rival and the plan the heuristic rates best: knock-outs that pay the
  bonus, paying with pieces whose colour is about to leave the game, taking
  safe ones);
* throwers: ``uniform`` (each throw a third: the game-theoretic optimum, and
  the default), ``biased`` (human-like: a little more rock on the first throw,
  win-stay/lose-shift between challenges, shifting to what beats one's own
  throw after a tie) and ``exploit`` (counts every rival's throws - the first
  throw of a challenge, and how they shift after a tie - and plays the best
  reply, a quarter of the time a uniform throw).

A bot draws from its generator only when it has a real choice, so the same
game is played whether or not the runner asks it about forced moves.
"""

from __future__ import annotations

from validator.kit import Bot

from .constants import BEATEN_BY, BEATS, CHALLENGE, TARGET
from .heuristics import smart_plan, smart_rival

CHOOSERS = ("naive", "smart")
THROWERS = ("uniform", "biased", "exploit")
FIRST = (0.36, 0.34, 0.30)  # biased: rock, paper, scissors on a challenge's first throw
STAY = 0.45  # biased: repeat the throw that won the last challenge / play what beats the throw that beat you
AFTER_TIE = (0.25, 0.45, 0.30)  # biased, after a tie on X: repeat X, play what beats X, play what X beats
EXPLORE = 0.25  # exploit: share of uniform throws
THIRD, TWO_THIRDS = 1 / 3, 2 / 3  # a uniform throw from r in [0, 1): int(r * 3), which crosses 1 and 2 here


def uniform_throw(r: float) -> int:
    """``int(r * 3)``: rock, paper or scissors a third of the time each."""
    return 0 if r < THIRD else 1 if r < TWO_THIRDS else 2


def best_reply(q: list[float]) -> int:
    """The throw with the best expected result against the distribution ``q``."""
    best, value = 0, -9.0
    for x in (0, 1, 2):
        v = q[BEATS[x]] - q[BEATEN_BY[x]]
        if v > value + 1e-12:
            best, value = x, v
    return best


class ShamboBot(Bot):
    chooser = "naive"
    thrower = "uniform"
    name = "naive"  # each bot class: CHOOSER or CHOOSER@THROWER

    def __init__(self, rng, game=None, **options):
        Bot.__init__(self, rng, game)
        if self.thrower == "exploit":  # what it has counted of the throws logged so far
            self._seen = 0
            self._first: dict[int, list[float]] = {}
            self._shift: dict[int, list[float]] = {}

    def step(self, view, actions: list[int]) -> int:
        if actions[0] < TARGET:  # a throw
            return self.throw(view)
        if len(actions) == 1:
            return actions[0]
        if self.chooser == "naive":
            return actions[int(self.rng.random() * len(actions))]
        obs = view.observe()
        me = view.player
        if obs.phase == CHALLENGE:  # the first of the best rival_scores
            return TARGET + smart_rival(obs.game, me, obs.hold, obs.alive, obs.pips, obs.showdown)
        return actions[smart_plan(obs.game, me, obs.hold, obs.alive, obs.pips, obs.debt, obs.plans)]

    # -- throwers
    def throw(self, view) -> int:
        t = self.thrower
        r = self.rng.random()
        if t == "uniform":
            return uniform_throw(r)
        obs = view.observe()
        me = view.player
        log = obs.log
        if t == "biased":
            return self._biased(r, log, me, obs.ties)
        return self._exploit(r, log, me, obs)

    @staticmethod
    def _biased(r: float, log: list, me: int, ties: int) -> int:
        if ties:  # the last throw logged is this challenge's tie
            last = log[-1]
            mine = last[3] if last[2] == me else last[5]
            return _pick(r, AFTER_TIE, (mine, BEATEN_BY[mine], BEATS[mine]))
        prev = None
        for e in reversed(log):
            if e[2] == me or e[4] == me:
                prev = e
                break
        if prev is not None and prev[3] != prev[5]:
            mine, theirs = (prev[3], prev[5]) if prev[2] == me else (prev[5], prev[3])
            target = mine if BEATS[mine] == theirs else BEATEN_BY[theirs]
            rest = (1.0 - STAY) / 2
            weights = [rest, rest, rest]
            weights[target] = STAY
            return _pick(r, weights, (0, 1, 2))
        return _pick(r, FIRST, (0, 1, 2))

    def _exploit(self, r: float, log: list, me: int, obs) -> int:
        first, shift = self._first, self._shift
        for k in range(self._seen, len(log)):
            turn, ties, a, ta, b, tb = log[k]
            for p, x in ((a, ta), (b, tb)):
                if ties == 0:
                    first.setdefault(p, [1.0, 1.0, 1.0])[x] += 1.0
                elif k > 0 and log[k - 1][0] == turn:
                    before = log[k - 1][3] if log[k - 1][2] == p else log[k - 1][5]
                    shift.setdefault(p, [1.0, 1.0, 1.0])[(x - before) % 3] += 1.0
        self._seen = len(log)
        if r < EXPLORE:
            return int(r / EXPLORE * 3)
        rival = obs.rival if me == obs.turn_player else obs.turn_player
        if obs.ties:
            before = log[-1][3]
            s = shift.get(rival, [1.0, 1.0, 1.0])
            total = sum(s)
            q = [0.0, 0.0, 0.0]
            for d in (0, 1, 2):
                q[(before + d) % 3] += s[d] / total
        else:
            f = first.get(rival, [1.0, 1.0, 1.0])
            total = sum(f)
            q = [x / total for x in f]
        return best_reply(q)


def _pick(r: float, weights, throws) -> int:
    acc = 0.0
    for w, x in zip(weights, throws):
        acc += w
        if r < acc:
            return x
    return throws[-1]


def _make(chooser: str, thrower: str):
    name = chooser if thrower == "uniform" else f"{chooser}@{thrower}"
    return type(f"Shambo_{chooser}_{thrower}", (ShamboBot,), {"chooser": chooser, "thrower": thrower,
                                                              "name": name})


BOTS = {}
for _c in CHOOSERS:
    for _t in THROWERS:
        cls = _make(_c, _t)
        globals()[cls.__name__] = cls
        BOTS[cls.name] = cls
        if _t == "uniform":
            BOTS[f"{_c}@uniform"] = cls
