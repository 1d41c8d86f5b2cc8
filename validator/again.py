"""A plain run's cheap reproducibility check: a few of its games played once more at the end.

The first two main games and the last are played again, by then in whatever worker is free
(one whose module state has moved on since), and their games.csv rows compared: a difference
means the same seed gave another game - an engine that draws from Python's ``random`` or the
clock, or keeps state between games or clones - and the run says so in one line (``not_again``)
pointing to ``--conformance``.
"""

from __future__ import annotations

from .failures import replay_command
from .runner import games_csv_header

__all__ = ["AGAIN", "again", "not_again"]


#: main games played a second time at the end of a run, in whatever worker is free by then
AGAIN = 3


def again(games: int) -> set[int]:
    """The main games a run plays twice: the first ones and the last (a module's state that grows with the
    games a process has played shows there)."""
    return set(range(min(AGAIN - 1, games))) | {games - 1}


def not_again(spec, index: int, first: list, second: list | None, extra: str) -> str:
    seed, players, bots = first[1], first[2], first[3].split("|")
    differs = "" if second is None else ", ".join(
        name for name, a, b in zip(games_csv_header(spec), first, second) if a != b)
    return (f"game seed {seed} (game {index}) played again in another worker gave a different game ({differs}): "
            f"the report is not reproducible - does the engine draw from anything but the Chance it is given "
            f"(Python's random, the clock), or share state between games or clones? pnp validate {spec.slug} "
            f"--conformance checks it; the game: {replay_command(spec.slug, seed, players, bots, extra)}")
