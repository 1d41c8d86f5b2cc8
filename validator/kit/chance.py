"""Chance: every random event of a game is resolved from the generator the runner owns.

The runner makes one :class:`Chance` per game from the game's seed and hands
it to ``Game.new_initial_state``; rules code draws only from it (never from the
``random`` module), so one seed replays one game exactly, and a search bot's
determinized copy gets a ``Chance`` of its own.
"""

from __future__ import annotations

import _random
import random
from hashlib import blake2b as _blake2b
from typing import Sequence, TypeVar

T = TypeVar("T")
_seed = _random.Random.seed  # the generator's own seeding, which random.Random.seed calls for an int


def shuffle(rng, x: list) -> None:
    """Shuffle ``x`` in place with ``rng`` (a ``random.Random``).

    Fisher-Yates drawing exactly what CPython's ``random.shuffle`` draws, so it
    gives the same order for the same generator state; written out so that a
    shuffle is one Python call rather than one per card, and so games do not
    depend on how a future Python shuffles.
    """
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


class Chance(random.Random):
    """A seeded generator with the draws rules need.  It *is* a ``random.Random``
    (so existing code that takes an ``rng`` keeps working); the methods below are
    the vocabulary rules code should use."""

    def __init__(self, x=None):
        if type(x) is int:  # what Random.seed does with an int, without its checks (a runner makes six a game)
            _seed(self, x)
            self.gauss_next = None
        else:
            super().__init__(x)

    def shuffled(self, x: list) -> list:
        """Shuffle ``x`` in place (see :func:`shuffle`) and return it."""
        shuffle(self, x)
        return x

    def draw(self, n: int) -> int:
        """A uniform index in ``range(n)``: one card from a pile of ``n``."""
        return self.randrange(n)

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items`` uniformly."""
        return items[self.randrange(len(items))]

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.random() < p

    def copy(self) -> "Chance":
        """An independent generator in the same state (what a state's clone keeps)."""
        return copy_generator(self)


def copy_generator(rng: random.Random) -> random.Random:
    """An independent copy of ``rng`` (a ``Chance`` or any ``random.Random``) in the same state."""
    if rng is None:
        return None
    twin = type(rng).__new__(type(rng))
    twin.setstate(rng.getstate())
    return twin


def derive_seed(master: int, *path: int | str) -> int:
    """A 63-bit seed for ``path`` (e.g. ("main", 17)) under ``master``.

    Stable across Python versions and platforms; independent of how games are
    split over workers, so any worker count plays the same games.
    """
    text = "/".join([str(int(master)), *map(str, path)])  # hashed in one piece: the same digest as part by part
    return int.from_bytes(_blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def derive_seeds(master: int, *path: int | str, count: int, start: int = 0) -> list[int]:
    """``[derive_seed(master, *path, i) for i in range(start, start + count)]`` (one per
    player, or per game of a batch), the common part of the path spelled once."""
    head = _blake2b("/".join([str(int(master)), *map(str, path), ""]).encode(), digest_size=8)
    copy = head.copy
    seeds = []
    for i in range(start, start + count):
        h = copy()  # (the head hashed once; a digest is the same fed in one piece or in parts)
        h.update(b"%d" % i)
        seeds.append(int.from_bytes(h.digest(), "big") >> 1)
    return seeds
