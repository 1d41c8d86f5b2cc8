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
    name = "average"  # each bot class: MEMORY or MEMORY@POLICY

    def __init__(self, rng, game=None, **options):
        super().__init__(rng, game, **options)
        self.mem: list | None = None
        self.last = -1
        self._known = 0  # cards known from a wrong lay, already in mem
        self._by_rank: dict | None = None  # rank -> the slots remembered as that rank (a bit mask)

    def _remember(self, obs) -> None:
        self.remember(obs.shown)

    def remember(self, shown) -> None:
        """What it recalls of its hand as shown (two draws per card, always)."""
        right, wrong = MEMORY[self.memory]
        both = right + wrong
        rnd = self.rng.random
        mem = []
        for rank in shown:
            r = rnd()
            up = rnd() < 0.5
            if r < right:
                mem.append(rank)
            elif r < both:
                mem.append(rank % 13 + 1 if up else (rank - 2) % 13 + 1)
            else:
                mem.append(None)
        self.mem = mem
        self._known = 0
        self._by_rank = None

    def step(self, view, actions: list[int]) -> int:
        obs = view.observe()
        if self.mem is None:
            self.remember(obs.shown)
        if obs.phase == LAY:
            held = 0
            for k in obs.held:
                held |= 1 << k
            return self.lay(held, obs.revealed, obs.rank)
        if len(actions) == 1:
            return actions[0]
        if obs.phase == GIVING:
            return GIVE + self.target(obs.player, obs.n, obs.given, obs.sips, [a - GIVE for a in actions])
        if obs.phase == ASKING:
            return ASK_NONE if self.policy == "spread" else ASK + obs.pos
        return self.answer()

    def lay(self, held: int, revealed: dict, rank: int) -> int:
        """The slots holding a card (``held``, a bit mask) it remembers as ``rank``
        (a card that came back after a wrong lay, ``revealed``, is known from then on)."""
        by = self._by_rank
        if by is None or len(revealed) != self._known:
            mem = self.mem
            for k, r in revealed.items():
                mem[k] = r
            self._known = len(revealed)
            by = self._by_rank = {}
            for k, r in enumerate(mem):
                if r is not None:
                    by[r] = by.get(r, 0) | 1 << k
        return by.get(rank, 0) & held

    def answer(self) -> int:
        return REFUSE if self.rng.random() < SHY else ANSWER

    def _target(self, obs, others: list[int]) -> int:
        return self.target(obs.player, obs.n, obs.given, obs.sips, others)

    def target(self, me: int, n: int, given, sips, others: list[int]) -> int:
        """Who drinks: ``given[q][p]`` what q made p drink, ``sips`` what each drank."""
        order = sorted(others, key=lambda q: (q - me) % n)  # from my left
        if self.policy == "spread":
            after = [q for q in order if (q - me) % n > (self.last - me) % n] if self.last >= 0 else order
            q = (after or order)[0]
            self.last = q
            return q
        if self.policy == "revenge":
            most = max(given[q][me] for q in order)
            if most > 0:
                return next(q for q in order if given[q][me] == most)
        low = min(sips[q] for q in order)
        return next(q for q in order if sips[q] == low)


BOTS = {}
for _m in MEMORY:
    for _p in POLICIES:
        _name = _m if _p == "spread" else f"{_m}@{_p}"
        _cls = type(f"Drink_{_m}_{_p}", (DrinkBot,), {"memory": _m, "policy": _p, "name": _name})
        globals()[_cls.__name__] = _cls
        BOTS[_name] = _cls
        if _p == "spread":
            BOTS[f"{_m}@spread"] = _cls
