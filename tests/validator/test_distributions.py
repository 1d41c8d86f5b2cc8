"""The two quantiles pnp computes itself (validator.distributions) against scipy.stats."""

from __future__ import annotations

import math

import pytest
from scipy.stats import binom, studentized_range

from validator.distributions import binom_ppf, studentized_range_cdf, studentized_range_ppf

LEVELS = (0.9, 0.95, 0.975, 0.9875, 0.99, 0.995, 0.99875, 0.999)


@pytest.mark.parametrize("k", [2, 3, 4, 6, 8, 10])
def test_the_studentized_range_at_infinite_degrees_of_freedom_is_scipys(k):
    for level in LEVELS:
        assert studentized_range_ppf(level, k) == pytest.approx(float(studentized_range.ppf(level, k, math.inf)),
                                                                abs=1e-6)
    assert studentized_range_cdf(3.0, k) == pytest.approx(float(studentized_range.cdf(3.0, k, math.inf)), abs=1e-9)


@pytest.mark.parametrize("n", [1, 2, 7, 30, 93, 300, 1000, 2999, 5000, 20000, 100000])
def test_the_binomial_quantile_is_scipys(n):
    for q in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
        for p in (0.0025, 0.005, 0.0125, 0.025, 0.975, 0.9875, 0.995, 0.9975):
            assert binom_ppf(p, n, q) == int(binom.ppf(p, n, q)), (p, n, q)


def test_validate_imports_no_scipy():
    """The reason for both: scipy.stats costs every run about a second before its first game."""
    import subprocess
    import sys

    code = ("import sys; from validator.figures import headline, range_critical, quantile_interval; "
            "range_critical(4); quantile_interval({1: 3, 2: 5, 4: 2}, 0.5); print('scipy' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
