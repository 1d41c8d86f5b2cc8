"""Zones of components and the one conservation check ``--strict`` applies to every game.

A state lists where every physical component is (``State.zones()``: zone name
-> iterable of component ids, ids repeated for identical copies); the game lists
what the box holds (``Game.components()``: a Counter of ids).  Nothing may be
created or lost, and no single component may be in two places at once.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping


def check_conservation(zones: Mapping[str, Iterable], components: Counter, label=str) -> None:
    """Raise AssertionError naming the first component that was lost, created
    or duplicated.  ``label(id)`` turns an id into words for the message."""
    seen: Counter = Counter()
    where: dict = {}
    for zone, items in zones.items():
        for c in items:
            seen[c] += 1
            where.setdefault(c, []).append(zone)
    for c, n in seen.items():
        have = components.get(c, 0)
        if n > have:
            raise AssertionError(f"{label(c)} appears {n} times (in {', '.join(sorted(set(where[c])))}) "
                                 f"but the game has {have}")
    for c, have in components.items():
        if seen.get(c, 0) < have:
            raise AssertionError(f"{label(c)}: {have - seen.get(c, 0)} of {have} lost (in no zone)")
