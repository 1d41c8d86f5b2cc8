"""Two quantiles the intervals need, computed here rather than by importing ``scipy.stats``.

``scipy.stats`` takes about a second to import, which every ``pnp validate`` would pay
before its first game for two numbers: the studentized range's quantile at infinite
degrees of freedom (the seat spread's simultaneous interval) and a binomial quantile
(the order statistics around a median or a percentile).  Both are short, exact
computations; ``tests/validator/test_distributions.py`` checks them against
``scipy.stats.studentized_range`` and ``scipy.stats.binom`` over the range pnp uses.
"""

from __future__ import annotations

import math
from functools import lru_cache

#: the grid of the studentized range's integral: the normal density is below 1e-17 past 9
_GRID = 2001
_REACH = 9.0


def _normal(z):
    """(density, distribution function) of the standard normal at the points ``z`` (a numpy array)."""
    import numpy as np

    density = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    cdf = 0.5 * np.array([math.erfc(-x / math.sqrt(2)) for x in z.tolist()])
    return density, cdf


@lru_cache(maxsize=1)
def _base():
    """The grid and the normal's density and distribution function on it."""
    import numpy as np

    z = np.linspace(-_REACH, _REACH, _GRID)
    return (z, *_normal(z))


def studentized_range_cdf(q: float, k: int) -> float:
    """P(range of ``k`` independent standard normals <= ``q``): ``k`` times the integral over z of
    phi(z) (Phi(z + q) - Phi(z))^(k-1), by Simpson's rule on [-9, 9]."""
    import numpy as np

    if q <= 0:
        return 0.0
    z, density, low = _base()
    _, high = _normal(z + q)
    f = k * density * np.clip(high - low, 0.0, 1.0) ** (k - 1)
    h = z[1] - z[0]
    return float(h / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum()))


@lru_cache(maxsize=128)
def studentized_range_ppf(level: float, k: int) -> float:
    """The ``level`` quantile of the range of ``k`` independent standard normals (Tukey's studentized
    range at infinite degrees of freedom: 3.633 for k = 4 at 0.95), by bisection to 1e-8."""
    if not 0 < level < 1 or k < 2:
        raise ValueError(f"studentized range quantile needs 0 < level < 1 and k >= 2, not {level}, {k}")
    lo, hi = 0.0, 1.0
    while studentized_range_cdf(hi, k) < level:
        hi *= 2
    while hi - lo > 1e-8:
        mid = (lo + hi) / 2
        if studentized_range_cdf(mid, k) < level:
            lo = mid
        else:
            hi = mid
    return hi


def binom_ppf(p: float, n: int, q: float) -> int:
    """The smallest k with P(X <= k) >= ``p`` for X binomial (``n``, ``q``), as ``scipy.stats.binom.ppf``.
    The probabilities are summed over the whole support for small ``n``, else over the mean +- 40
    standard deviations (what lies beyond is below 1e-300)."""
    if n <= 0:
        return 0
    if q <= 0:
        return 0
    if q >= 1:
        return n
    mean, sd = n * q, math.sqrt(n * q * (1 - q))
    first = max(0, int(mean - 40 * sd) - 1) if n > 2000 else 0
    last = min(n, int(mean + 40 * sd) + 1) if n > 2000 else n
    log_q, log_r, top = math.log(q), math.log1p(-q), math.lgamma(n + 1)
    cdf = 0.0
    for k in range(first, last + 1):
        cdf += math.exp(top - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_q + (n - k) * log_r)
        if cdf >= p * (1 - 1e-12):  # (scipy's own tolerance for a sum that lands on p)
            return k
    return last
