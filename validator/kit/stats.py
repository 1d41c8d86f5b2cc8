"""Statistics shared by the generic metrics and the engines' stats extensions:
binomial intervals, histogram percentiles and summaries.  Everything works
from counts, so figures are exact and the same for any worker count."""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054

__all__ = ["Z95", "wilson", "diff_interval", "rate", "hist_percentile", "hist_mean", "hist_summary", "rounded",
           "percent", "count_items", "count_into"]


def count_items(mapping, iterable) -> None:
    """Add one to ``mapping[x]`` for each ``x`` of ``iterable`` (what ``Counter.update``
    does with an iterable): ``count_into`` where the interpreter has no counting loop of its own."""
    get = mapping.get
    for x in iterable:
        mapping[x] = get(x, 0) + 1


try:  # Counter.update's own counting loop (in C), without the checks update makes on every call
    from collections import _count_elements as count_into
except ImportError:  # pragma: no cover - an interpreter without it
    count_into = count_items


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes out of n (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def diff_interval(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """Difference of two proportions k1/n1 - k2/n2 with Newcombe's hybrid Wilson
    interval (method 10): (difference, low, high)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def rate(k: int, n: int) -> dict:
    """``k`` of ``n`` as summary.json writes it: count, of, rate and its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return {"count": k, "of": n, "rate": round(k / n, 4) if n else None, "low": round(lo, 4), "high": round(hi, 4)}


def hist_percentile(hist: dict[int, int] | Counter, q: float) -> float:
    """The q-th percentile (0..100) of the values a histogram counts, with
    linear interpolation between ranks (numpy's default method)."""
    total = sum(hist.values())
    if total == 0:
        return float("nan")
    pos = (total - 1) * q / 100.0
    rank = math.floor(pos)
    frac = pos - rank
    values = sorted(hist)

    def value_at(r: int) -> int:
        seen = 0
        for v in values:
            seen += hist[v]
            if seen > r:
                return v
        return values[-1]

    lo = value_at(rank)
    if frac == 0:
        return float(lo)
    hi = value_at(min(rank + 1, total - 1))
    return lo + (hi - lo) * frac


def hist_mean(hist: dict[int, int]) -> float:
    total = sum(hist.values())
    return sum(v * c for v, c in hist.items()) / total if total else float("nan")


def rounded(x: float, digits: int = 4):
    """``x`` rounded for summary.json; None for a missing value or NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return round(x, digits)


def hist_summary(hist: dict[int, int], scale: float = 1.0) -> dict:
    """Mean, median, 5th and 95th percentile, min and max of a histogram (values times ``scale``)."""
    return {
        "mean": rounded(hist_mean(hist) * scale),
        "median": rounded(hist_percentile(hist, 50) * scale),
        "p5": rounded(hist_percentile(hist, 5) * scale),
        "p95": rounded(hist_percentile(hist, 95) * scale),
        "min": rounded(min(hist) * scale) if hist else None,
        "max": rounded(max(hist) * scale) if hist else None,
    }


def percent(k: int, n: int) -> int:
    """100 k / n rounded half up, in integers (the same on every machine)."""
    return (200 * k + n) // (2 * n)
