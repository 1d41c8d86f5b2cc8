"""The runner's generators: seeds derived one by one or in runs are the same
values, and every way of making a ``Chance`` from an int seed gives the stream
``random.Random`` gives for that seed."""

from __future__ import annotations

import hashlib
import random

from validator.kit.chance import Chance, copy_generator, derive_seed, derive_seeds


def test_derive_seed_is_the_documented_digest():
    # blake2b-64 of "master/part/part", shifted to 63 bits: stable across versions and platforms
    digest = hashlib.blake2b(b"7/main/12", digest_size=8).digest()
    assert derive_seed(7, "main", 12) == int.from_bytes(digest, "big") >> 1


def test_derive_seeds_gives_derive_seed_of_each_index():
    for master, path, start, count in ((1, ("bot",), 0, 5), (2**40 + 3, ("skill", "a"), 990, 25), (0, (), 7, 3)):
        assert derive_seeds(master, *path, count=count, start=start) == \
            [derive_seed(master, *path, i) for i in range(start, start + count)]


def test_every_int_seeded_chance_draws_as_random_does():
    for seed in (0, 1, 12345, 2**62 + 17, -5):
        want = random.Random(seed)
        made = [Chance(seed), copy_generator(Chance(seed))]
        for rng in made:
            assert type(rng) is Chance
        draws = [[r.random(), r.randrange(1000), r.getrandbits(70), r.gauss(0, 1)] for r in [want, *made]]
        assert all(d == draws[0] for d in draws[1:])
