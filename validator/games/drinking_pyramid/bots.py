"""Drinking Pyramid bots: a memory level and a drinks policy.

Names are ``MEMORY`` or ``MEMORY@POLICY``:

* memory (what a player recalls of each card after the 15 seconds): ``sharp``
  (right 95%, a neighbouring rank 3%, forgotten otherwise), ``average`` (80%,
  10%) and ``tipsy`` (60%, 20%).  Nothing is forgotten afterwards; a card that
  came back after a wrong lay is known from then on.  A bot lays every card it
  remembers as the turned rank, and no other: it is exactly as sure as its
  memory.
* policy (who drinks the drinks it gives): ``spread`` (round the table, the
  default), ``leader`` (whoever has drunk least) and ``revenge`` (whoever gave
  it most, else the leader).  A spreading dealer asks no questions; the others
  ask about the highest-valued turned card.  Every bot refuses a question
  15% of the time (and drinks double).

A bot draws from its generator only when it decides something with a choice,
and always the same number of draws for its memory, so the same game is
played whatever the runner asks it about forced moves.
"""

from __future__ import annotations

from validator.kit import Bot

from .constants import ANSWER, ASK, ASK_NONE, ASKING, GIVE, GIVING, LAY, REFUSE

MEMORY = {"sharp": (0.95, 0.03), "average": (0.80, 0.10), "tipsy": (0.60, 0.20)}
POLICIES = ("spread", "leader", "revenge")
SHY = 0.15  # share of questions refused


class DrinkBot(Bot):
    memory = "average"
    policy = "spread"

    def __init__(self, rng, game=None, **options):
        super().__init__(rng, game, **options)
        self.mem: list | None = None
        self.last = -1

    def _remember(self, obs) -> None:
        right, wrong = MEMORY[self.memory]
        mem = []
        for rank in obs.shown:
            r = self.rng.random()
            up = self.rng.random() < 0.5
            if r < right:
                mem.append(rank)
            elif r < right + wrong:
                mem.append(rank % 13 + 1 if up else (rank - 2) % 13 + 1)
            else:
                mem.append(None)
        self.mem = mem

    def step(self, view, actions: list[int]) -> int:
        obs = view.observe()
        if self.mem is None:
            self._remember(obs)
        mem = self.mem
        for k, rank in obs.revealed.items():
            mem[k] = rank
        if obs.phase == LAY:
            mask = 0
            for k in obs.held:
                if mem[k] == obs.rank:
                    mask |= 1 << k
            return mask
        if len(actions) == 1:
            return actions[0]
        if obs.phase == GIVING:
            return GIVE + self._target(obs, [a - GIVE for a in actions])
        if obs.phase == ASKING:
            return ASK_NONE if self.policy == "spread" else ASK + obs.pos
        return REFUSE if self.rng.random() < SHY else ANSWER

    def _target(self, obs, others: list[int]) -> int:
        me, n = obs.player, obs.n
        order = sorted(others, key=lambda q: (q - me) % n)  # from my left
        if self.policy == "spread":
            after = [q for q in order if (q - me) % n > (self.last - me) % n] if self.last >= 0 else order
            q = (after or order)[0]
            self.last = q
            return q
        if self.policy == "revenge":
            most = max(obs.given[q][me] for q in order)
            if most > 0:
                return next(q for q in order if obs.given[q][me] == most)
        low = min(obs.sips[q] for q in order)
        return next(q for q in order if obs.sips[q] == low)


BOTS = {}
for _m in MEMORY:
    for _p in POLICIES:
        _name = _m if _p == "spread" else f"{_m}@{_p}"
        _cls = type(f"Drink_{_m}_{_p}", (DrinkBot,), {"memory": _m, "policy": _p, "name": _name})
        globals()[_cls.__name__] = _cls
        BOTS[_name] = _cls
        if _p == "spread":
            BOTS[f"{_m}@spread"] = _cls
