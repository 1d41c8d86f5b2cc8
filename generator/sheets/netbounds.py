"""The bounds of the work a template can ask of ``nets`` (docs/security.md).  The geometry runs in
Python, between the template's own checks of its time, so each call is bounded by its arguments:
a count, a step, a list of faces past its bound is a ValueError, said at the template's line."""

from __future__ import annotations

import itertools
import math

LEAST_STEP = 0.1  # degrees between the turns ``Net.tightest`` tries (at most 1,800 turns)
MOST_FACES = 16  # faces (or corners) ``fold_fan`` and ``fold_cross`` fold up


def shown(value) -> str:
    """A value in a message: a number as written, else its kind (or a short string)."""
    if type(value) in (int, float):
        return f"{value:,g}" if isinstance(value, float) else f"{value:,}"
    text = repr(value) if isinstance(value, str) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def count(call: str, name: str, value, most: int, what: str) -> int:
    """A count a template gives (``row(n, ...)``): a whole number from 0 to ``most``."""
    if type(value) is bool or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ValueError(f"{call}: {name} is {shown(value)}; it must be a whole number")
    if not 0 <= value <= most:
        raise ValueError(f"{call}: {name} is {shown(value)}; it must be from 0 to {most:,} {what}")
    return value


def turn_step(step) -> float:
    """The degrees between the turns ``Net.tightest`` tries: from ``LEAST_STEP`` to 180."""
    if type(step) is bool or not isinstance(step, (int, float)) or not math.isfinite(step) or \
            not LEAST_STEP <= step <= 180:
        raise ValueError(f"tightest(): step is {shown(step)}; it must be a number of degrees between "
                         f"{LEAST_STEP:g} and 180")
    return step


def few(call: str, name: str, values, most: int) -> list:
    """The points or faces a template gives to fold up (``fold_fan``, ``fold_cross``): at most ``most``."""
    found = list(itertools.islice(values, most + 1))
    if len(found) > most:
        raise ValueError(f"{call}: more than {most} {name}; it folds at most {MOST_FACES} faces")
    return found
