"""Headline figures: the few numbers a designer watches from one deck to the next.

Every game has the generic ones (:data:`GENERIC`); an engine adds its own
(``GameSpec.figures``: a counter or an end reason per game, summarised as a mean,
median, 95th percentile or rate).  Each figure is kept in the unit a designer reads
it in - minutes, turns, points of win rate, percent of games - so a goal such as
``seat-spread<5`` means five points.

* :func:`headline` - each figure with its 95% interval, from a run's tallies (counts
  only: the same for any worker count).  summary.json's ``headline`` block, sweep.csv's
  columns and ``pnp tune``'s goals read it.
* :class:`Games` - the per-game values of a run (from games.csv rows and the engine's
  per-game figure values), and :func:`paired` - the difference of each figure between
  two runs of the same game seeds, with a paired bootstrap interval (common random
  numbers: ``pnp validate --compare``).
* The seat figures (:func:`seat_moments`, :func:`spread_interval`, :func:`edge_interval`) read the
  games' winning-seat sets (``Tally.win_sets``): a shared win gives each winner an equal part of
  the game, so the seats' parts of a game add up to 1 (0 when nobody won) and even seats give a
  spread and an edge of 0 whatever the tie rate.  Intervals come from the seats' joint
  (multinomial) variance over games, never from the seats as if they were separate games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import NormalDist

from validator.kit.stats import Z95, hist_mean, hist_percentile, wilson

#: key -> (label, unit, kind); every game has these
GENERIC = {
    "median-minutes": ("median estimated minutes per game", "min", "median"),
    "mean-turns": ("mean turns per game", "turns", "mean"),
    "seat-spread": ("best minus worst seat's share of the wins", "points", "spread"),
    "first-seat-edge": ("start player's share of the wins minus the mean seat's", "points", "edge"),
    "tie-rate": ("games ending in a shared win", "%", "rate"),
    "stall-rate": ("games stopped without a result", "%", "rate"),
}
DIGITS = 2  # decimals kept in summary.json and sweep.csv
LEVEL = 0.95  # the confidence of every interval unless a caller asks for another (pnp validate --until-sure)


def describe(spec) -> dict[str, tuple[str, str, str]]:
    """key -> (label, unit, kind) of every headline figure of this engine."""
    out = dict(GENERIC)
    for f in getattr(spec, "figures", ()):
        out[f.key] = (f.label, f.unit or ("%" if f.kind == "rate" else ""), f.kind)
    return out


# ------------------------------------------------------------------ critical values
def z_two(level: float = LEVEL) -> float:
    """The normal quantile of a two-sided interval at ``level`` (1.96 at 95%)."""
    return Z95 if level == LEVEL else NormalDist().inv_cdf(0.5 + level / 2)


def z_one(level: float = LEVEL) -> float:
    """The normal quantile of a one-sided bound at ``level`` (1.645 at 95%)."""
    return NormalDist().inv_cdf(level)


@lru_cache(maxsize=64)
def range_critical(seats: int, level: float = LEVEL) -> float:
    """``c`` such that the intervals ``d +- c se`` of every difference between ``seats`` normal estimates
    of equal variance hold together with probability ``level``: Tukey's studentized range at infinite
    degrees of freedom over the square root of 2 (2.57 for four seats at 95%; 1.96 for two)."""
    if seats <= 2:
        return z_two(level)
    from .distributions import studentized_range_ppf

    return studentized_range_ppf(level, seats) / math.sqrt(2)


# ------------------------------------------------------------------ the seats
def popcount(mask: int) -> int:
    return bin(mask).count("1")


def sets_from_seats(counts: list[int], games: int) -> dict[int, int]:
    """Winning-seat sets rebuilt from each seat's wins, for a summary made before they were kept: exact
    when no game was shared (each win its own set, the rest of the games without a winner); with shared
    wins, each win counts as a game of its own (a close reading of the seats' variances)."""
    sets = {1 << s: k for s, k in enumerate(counts) if k}
    rest = games - sum(counts)
    if rest > 0:
        sets[0] = rest
    return sets


def seat_rows(masks, players: int):
    """Each winning-seat set's share of the game per seat (rows: sets; a shared win split evenly)."""
    import numpy as np

    return np.array([[((int(m) >> s) & 1) / max(1, popcount(int(m))) for s in range(players)] for m in masks],
                    dtype=float).reshape(len(masks), players)


def seat_moments(counts, rows):
    """``(games, shares, cov)`` for runs given as counts of each winning-seat set (``counts``: one row per run,
    one column per set; ``rows``: :func:`seat_rows`): each seat's share of the wins and the covariance
    matrix of those shares' means, the seats' joint (multinomial) variance over games.  The covariance
    counts one more game won by each seat (for two seats, Agresti and Caffo's adjustment), so a short run
    never claims a difference without variance.  Vectorised over runs (numpy arrays, the runs first)."""
    import numpy as np

    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    players = rows.shape[1]
    n = counts.sum(axis=-1)
    shares = counts @ rows / np.maximum(n, 1)[:, None]
    rows = np.vstack([rows, np.eye(players)])
    counts = np.concatenate([counts, np.ones((len(counts), players))], axis=-1)
    m = n + players
    mean = counts @ rows / m[:, None]
    second = np.einsum("rk,ki,kj->rij", counts, rows, rows) / m[:, None, None]
    cov = (second - mean[:, :, None] * mean[:, None, :]) / m[:, None, None]
    return n, shares, cov


def spread_bounds(counts, rows, level: float = LEVEL):
    """:func:`spread_interval` for many runs at once: arrays ``(value, low, high)``."""
    import numpy as np

    n, p, cov = seat_moments(counts, rows)
    players = rows.shape[1]
    var = np.diagonal(cov, axis1=-2, axis2=-1)
    se = np.sqrt(np.maximum(var[:, :, None] + var[:, None, :] - 2 * cov, 0.0))
    d = p[:, :, None] - p[:, None, :]
    c = range_critical(players, level)
    upper_alpha = (1 - level) - (1 - NormalDist().cdf(c))
    zu = z_one(1 - upper_alpha)
    off = ~np.eye(players, dtype=bool)
    low = np.maximum(0.0, (d - c * se)[:, off].max(axis=-1))
    high = (d + zu * se)[:, off].max(axis=-1)
    value = p.max(axis=-1) - p.min(axis=-1)
    empty = n <= 0
    return tuple(np.where(empty, np.nan, x) for x in (value, low, high))


def edge_bounds(counts, rows, seat: int = 0, level: float = LEVEL):
    """:func:`edge_interval` for many runs at once: arrays ``(value, low, high)``."""
    import numpy as np

    n, p, cov = seat_moments(counts, rows)
    players = rows.shape[1]
    e = -np.full(players, 1 / players)
    e[seat] += 1
    value = p @ e
    half = z_two(level) * np.sqrt(np.maximum(np.einsum("i,rij,j->r", e, cov, e), 0.0))
    empty = n <= 0
    return tuple(np.where(empty, np.nan, x) for x in (value, value - half, value + half))


def _sets(sets: dict[int, int], players: int):
    masks = sorted(sets)
    return [sets[m] for m in masks], seat_rows(masks, players)


def spread_interval(sets: dict[int, int], players: int, level: float = LEVEL) -> tuple[float, float, float]:
    """The best seat's share of the wins minus the worst seat's (``sets``: winning-seat set -> games), with an
    interval for the true spread that allows for having picked those two seats after seeing the games.

    Every pair of seats gets an interval ``d +- c se`` (``se`` from the seats' joint variance), with ``c``
    the simultaneous critical value of all pairs (:func:`range_critical`); the true spread is the largest
    true difference, so it is at least the largest lower end (the lower bound: with even seats it leaves
    out 0 in 1 - ``level`` of runs) and at most the largest upper end.  The upper ends use a one-sided
    quantile that spends the rest of the error: when one seat is clearly best and one clearly worst, the
    two ends err 1 - ``level`` together.  Proportions (0..1); NaN without games."""
    if players < 2 or not sum(sets.values()):
        return float("nan"), float("nan"), float("nan")
    counts, rows = _sets(sets, players)
    return tuple(float(x[0]) for x in spread_bounds([counts], rows, level))


def edge_interval(sets: dict[int, int], players: int, seat: int = 0,
                  level: float = LEVEL) -> tuple[float, float, float]:
    """Seat ``seat``'s share of the wins (the start player's by default) minus the mean seat's, with a
    normal interval from the seats' joint variance: 0 for even seats whatever the tie rate or the games
    nobody won.  Proportions; NaN without games."""
    if players < 1 or not sum(sets.values()):
        return float("nan"), float("nan"), float("nan")
    counts, rows = _sets(sets, players)
    return tuple(float(x[0]) for x in edge_bounds([counts], rows, seat, level))


def share_intervals(sets: dict[int, int], players: int, level: float = LEVEL) -> list[tuple[float, float, float]]:
    """Each seat's share of the wins with a normal interval (its variance from the joint one)."""
    import numpy as np

    if not sum(sets.values()):
        return [(float("nan"),) * 3 for _ in range(players)]
    counts, rows = _sets(sets, players)
    _, p, cov = seat_moments([counts], rows)
    half = z_two(level) * np.sqrt(np.maximum(np.diagonal(cov[0]), 0.0))
    return [(float(x), float(x - h), float(x + h)) for x, h in zip(p[0], half)]


def win_sets(t) -> dict[int, int]:
    """A tally's winning-seat sets (``Tally.win_sets``), or sets rebuilt from its seat counts."""
    sets = getattr(t, "win_sets", None)
    if sets:
        return dict(sets)
    players = t.players or len(t.seat_games)
    return sets_from_seats([t.seat_wins[s] for s in range(players)], t.games)


# ------------------------------------------------------------------ from tallies
def _figure(label: str, unit: str, value, low, high) -> dict:
    def r(x):
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, DIGITS)

    return {"label": label, "unit": unit, "value": r(value), "low": r(low), "high": r(high)}


def quantile_interval(hist, q: float, level: float = LEVEL) -> tuple[float, float, float]:
    """The q-quantile (0..1) of the values a histogram counts, with a distribution-free interval (95% unless
    ``level`` says otherwise) between two order statistics: the number of values below the true quantile is
    binomial (n, q), so the ranks are that binomial's equal-tailed quantiles (:func:`binom_ppf`)."""
    n = sum(hist.values())
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    from .distributions import binom_ppf

    value = hist_percentile(hist, 100 * q)
    alpha = 1 - level
    lo_rank = max(0, binom_ppf(alpha / 2, n, q) - 1)
    hi_rank = min(n - 1, binom_ppf(1 - alpha / 2, n, q))
    return value, _value_at(hist, lo_rank), _value_at(hist, hi_rank)


def _value_at(hist, rank: int) -> float:
    seen = 0
    for v in sorted(hist):
        seen += hist[v]
        if seen > rank:
            return float(v)
    return float(max(hist))


def mean_interval(hist, z: float = Z95) -> tuple[float, float, float]:
    n = sum(hist.values())
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    m = hist_mean(hist)
    var = sum(c * (v - m) ** 2 for v, c in hist.items()) / max(1, n - 1)
    half = z * math.sqrt(var / n)
    return m, m - half, m + half


def rate_interval(k: int, n: int, level: float = LEVEL) -> tuple[float, float, float]:
    """``k`` of ``n`` in percent with its Wilson interval."""
    if not n:
        return float("nan"), float("nan"), float("nan")
    lo, hi = wilson(k, n, z_two(level))
    return 100 * k / n, 100 * lo, 100 * hi


def headline(t, spec, level: float = LEVEL) -> dict[str, dict]:
    """Every headline figure of a run with its interval (95% unless ``level`` says otherwise; ``t``: the main
    games' Tally)."""
    out = {}
    n = t.games
    z = z_two(level)
    label, unit, _ = GENERIC["median-minutes"]
    v, lo, hi = quantile_interval(t.tenths, 0.5, level)
    out["median-minutes"] = _figure(label, unit, v / 10, lo / 10, hi / 10)
    label, unit, _ = GENERIC["mean-turns"]
    out["mean-turns"] = _figure(label, unit, *mean_interval(t.turns, z))
    players = t.players or len(t.seat_games)
    sets = win_sets(t) if players and n else {}
    for key, interval in (("seat-spread", spread_interval), ("first-seat-edge", edge_interval)):
        label, unit, _ = GENERIC[key]
        if sets:
            v, lo, hi = interval(sets, players, level=level)
            out[key] = _figure(label, unit, 100 * v, 100 * lo, 100 * hi)
        else:
            out[key] = _figure(label, unit, None, None, None)
    label, unit, _ = GENERIC["tie-rate"]
    out["tie-rate"] = _figure(label, unit, *rate_interval(t.ties, n, level))
    label, unit, _ = GENERIC["stall-rate"]
    out["stall-rate"] = _figure(label, unit, *rate_interval(sum(t.ends[k] for k in t.stalls), n, level))
    for f in getattr(spec, "figures", ()):
        hist = t.figures.get(f.key, {})
        label, unit = f.label, f.unit or ("%" if f.kind == "rate" else "")
        if f.kind == "rate":
            total = sum(hist.values())
            out[f.key] = _figure(label, unit, *rate_interval(total - hist.get(0, 0), total, level))
        elif f.kind == "mean":
            out[f.key] = _figure(label, unit, *mean_interval(hist, z))
        else:
            q = 0.5 if f.kind == "median" else 0.95
            out[f.key] = _figure(label, unit, *quantile_interval(hist, q, level))
    return out


# ------------------------------------------------------------------ per game, paired
@dataclass
class Games:
    """The per-game values of one run, game by game in index order: what a paired comparison reads.

    ``seeds`` identify the games (two runs pair only when they played the same seeds);
    ``tenths`` (estimated minutes x 10), ``turns``, ``wins`` (per game, a bit per winning seat),
    ``stall`` and ``players``; ``values`` the engine's figures per game (key -> list)."""

    seeds: list[int] = field(default_factory=list)
    tenths: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    stall: list[int] = field(default_factory=list)
    players: int = 0
    values: dict[str, list[int]] = field(default_factory=dict)

    def add_rows(self, rows, stalls) -> None:
        """games.csv rows (``runner._row``): seed, players, winner seats, turns, minutes, end."""
        for row in rows:
            self.seeds.append(int(row[1]))
            self.players = int(row[2])
            seats = str(row[6]).split()
            mask = 0
            for s in seats:
                mask |= 1 << (int(s) - 1)
            self.wins.append(mask)
            self.turns.append(int(row[7]))
            self.tenths.append(round(float(row[10]) * 10))
            self.stall.append(1 if row[11] in stalls else 0)

    def add_values(self, keys: list[str], values) -> None:
        """The engine's figure values, one tuple per game in ``keys``' order."""
        for vals in values:
            for k, v in zip(keys, vals):
                self.values.setdefault(k, []).append(v)

    def __len__(self) -> int:
        return len(self.seeds)


def read_games_csv(path, stalls) -> Games:
    """The per-game values of a saved run from its games.csv (generic figures only)."""
    import csv

    g = Games()
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        next(reader, None)
        g.add_rows(reader, stalls)
    return g


def _weighted(kind: str, values, w, players: int):
    """The figure of each resample, in its unit: ``values`` the distinct per-game values (sorted), ``w`` the
    games each resample holds of each (rows of counts, each row summing to the games); numpy arrays."""
    import numpy as np

    n = w.sum(axis=-1)
    if kind == "mean":
        return w @ values / n
    if kind == "rate":
        return 100 * (w @ (values != 0)) / n
    if kind in ("median", "p95"):
        pos = (n - 1) * (0.5 if kind == "median" else 0.95)  # numpy's linear interpolation between ranks
        below = np.floor(pos)
        cum = np.cumsum(w, axis=-1)
        lo = values[np.argmax(cum > below[:, None], axis=-1)]
        hi = values[np.argmax(cum > np.minimum(below + 1, n - 1)[:, None], axis=-1)]
        return lo + (hi - lo) * (pos - below)
    share = (w @ seat_rows(values, players)) / n[:, None]  # each seat's share of the wins
    if kind == "spread":
        return 100 * (share.max(axis=-1) - share.min(axis=-1))
    return 100 * (share[:, 0] - share.mean(axis=-1))  # edge over the mean seat


def _arrays(g: Games, spec) -> dict[str, tuple[str, object, float]]:
    """key -> (kind, values per game, scale) for every figure these games can give."""
    import numpy as np

    out = {"median-minutes": ("median", np.asarray(g.tenths, dtype=float), 0.1),
           "mean-turns": ("mean", np.asarray(g.turns, dtype=float), 1.0),
           "seat-spread": ("spread", np.asarray(g.wins, dtype=np.int64), 1.0),
           "first-seat-edge": ("edge", np.asarray(g.wins, dtype=np.int64), 1.0),
           "tie-rate": ("rate", np.asarray([popcount(w) > 1 for w in g.wins], dtype=float), 1.0),
           "stall-rate": ("rate", np.asarray(g.stall, dtype=float), 1.0)}
    for f in getattr(spec, "figures", ()):
        if f.key in g.values:
            out[f.key] = (f.kind, np.asarray(g.values[f.key], dtype=float), 1.0)
    return out


def paired_bootstrap(kind: str, xa, xb, players: int, rng, resamples: int = 1000):
    """``(a, b, diffs, alone)`` for one figure: its value on each side, ``resamples`` bootstrap values of
    b - a resampling the same games on both sides, and as many resampling each side on its own.  A
    resample is kept as the games it holds of each distinct pair of per-game values: drawn at once as a
    multinomial over those pairs when they are few (a seat figure has a handful: the cost does not grow
    with the games), else game by game."""
    import numpy as np

    n = len(xa)
    if kind in ("mean", "rate"):  # linear figures: b - a is the figure of the per-game differences
        return _linear_bootstrap(kind, np.asarray(xa, dtype=float), np.asarray(xb, dtype=float), rng, resamples)
    pairs, where, counts = np.unique(np.stack([xa, xb], axis=1), axis=0, return_inverse=True,
                                     return_counts=True)
    where = where.reshape(-1)
    vb, where_b, cb = np.unique(xb, return_inverse=True, return_counts=True)
    where_b = where_b.reshape(-1)
    va, ca = np.unique(xa, return_counts=True)
    left = float(_weighted(kind, va, ca[None, :].astype(float), players)[0])
    right = float(_weighted(kind, vb, cb[None, :].astype(float), players)[0])
    order_a, order_b = np.argsort(pairs[:, 0], kind="stable"), np.argsort(pairs[:, 1], kind="stable")
    few = len(pairs) <= max(64, n // 16)

    def draw(m: int, k: int, p, codes):
        if few:
            return rng.multinomial(n, p, size=m).astype(float)
        picked = codes[rng.integers(0, n, size=(m, n))] + k * np.arange(m)[:, None]
        return np.bincount(picked.ravel(), minlength=m * k).reshape(m, k).astype(float)

    diffs, alone = [], []
    chunk = max(1, min(resamples, 4_000_000 // (len(pairs) + len(vb) + (0 if few else n))))
    done = 0
    while done < resamples:
        m = min(chunk, resamples - done)
        w = draw(m, len(pairs), counts / n, where)
        sa = _weighted(kind, pairs[order_a, 0], w[:, order_a], players)
        sb = _weighted(kind, pairs[order_b, 1], w[:, order_b], players)
        other = _weighted(kind, vb, draw(m, len(vb), cb / n, where_b), players)
        diffs.append(sb - sa)
        alone.append(other - sa)
        done += m
    return left, right, np.concatenate(diffs), np.concatenate(alone)


def _linear_bootstrap(kind: str, xa, xb, rng, resamples: int):
    """:func:`paired_bootstrap` of a mean or a rate: a resample's b - a is the mean of its games' differences,
    so it is drawn over the distinct differences (and each side's distinct values for the unpaired one)."""
    import numpy as np

    if kind == "rate":
        xa, xb = 100 * (xa != 0), 100 * (xb != 0)
    n = len(xa)

    def means(values, m):
        v, c = np.unique(values, return_counts=True)
        return rng.multinomial(n, c / n, size=m) @ v / n

    return float(xa.mean()), float(xb.mean()), means(xb - xa, resamples), means(xb, resamples) - means(xa, resamples)


def paired(a: Games, b: Games, spec, resamples: int = 1000, seed: int = 1, gate: float | None = None) \
        -> dict[str, dict]:
    """Each figure on the reference games ``a`` and on ``b``, the difference b - a and its 95% interval by a
    paired bootstrap: the same resampled games on both sides, so what the two runs share (the deal, the
    draws up to where they part) cancels out.  ``unpaired_low``/``unpaired_high``: the interval resampling
    each side on its own, for how much the pairing narrowed it; ``gate_low``/``gate_high``: the interval at
    the confidence ``gate`` (``--compare``'s exit code reads it).  Deterministic for a given ``seed``."""
    import numpy as np

    n = len(a)
    if n != len(b) or a.seeds != b.seeds:
        raise ValueError("paired figures need the same games (seeds) on both sides")
    if a.players != b.players:
        raise ValueError("paired figures need the same number of players on both sides")
    rng = np.random.default_rng(seed)
    left, right = _arrays(a, spec), _arrays(b, spec)
    labels = describe(spec)
    out = {}
    for k in [k for k in left if k in right]:
        kind, xa, scale = left[k]
        _, xb, _ = right[k]
        va, vb, d, u = paired_bootstrap(kind, xa, xb, a.players, rng, resamples)
        va, vb, d, u = scale * va, scale * vb, scale * d, scale * u
        lo, hi = np.percentile(d, [2.5, 97.5])
        ulo, uhi = np.percentile(u, [2.5, 97.5])
        label, unit, _ = labels[k]
        out[k] = {"label": label, "unit": unit, "reference": round(va, DIGITS), "value": round(vb, DIGITS),
                  "difference": round(vb - va, DIGITS), "low": round(float(lo), DIGITS),
                  "high": round(float(hi), DIGITS), "unpaired_low": round(float(ulo), DIGITS),
                  "unpaired_high": round(float(uhi), DIGITS), "paired": True}
        if gate is not None:
            glo, ghi = np.percentile(d, [50 * (1 - gate), 50 * (1 + gate)])
            out[k].update(gate=round(gate, 5), gate_low=round(float(glo), DIGITS), gate_high=round(float(ghi), DIGITS))
    return out


def half_width(f: dict) -> float:
    """The larger side of a figure's 95% interval around its value (a side not known counts 0)."""
    v = f["value"]
    return max(v - (f["low"] if f["low"] is not None else v), (f["high"] if f["high"] is not None else v) - v)


def difference(fa: dict, fb: dict) -> tuple[float, float]:
    """``fb``'s value less ``fa``'s, and the half-width of its interval from the two runs' own
    (added in quadrature: runs that did not play the same games)."""
    ha, hb = half_width(fa), half_width(fb)
    return fb["value"] - fa["value"], math.sqrt(ha * ha + hb * hb)


def unpaired(a: dict, b: dict, gate: float | None = None) -> dict[str, dict]:
    """Headline blocks of two runs that did not play the same games (or whose games are not at hand):
    the difference and an interval from each side's own (half-widths added in quadrature; at the confidence
    ``gate`` too, as ``gate_low``/``gate_high``, the half-width scaled by the normal quantiles)."""
    out = {}
    for k, fb in b.items():
        fa = a.get(k)
        if fa is None or fa["value"] is None or fb["value"] is None:
            continue
        d, half = difference(fa, fb)
        out[k] = {"label": fb["label"], "unit": fb["unit"], "reference": fa["value"], "value": fb["value"],
                  "difference": round(d, DIGITS), "low": round(d - half, DIGITS), "high": round(d + half, DIGITS),
                  "paired": False}
        if gate is not None:
            wide = half * z_two(gate) / Z95
            out[k].update(gate=round(gate, 5), gate_low=round(d - wide, DIGITS), gate_high=round(d + wide, DIGITS))
    return out


def gate_interval(f: dict) -> tuple:
    """A compared figure's interval at the gate's confidence (the exit code's), or its 95% one when it has none."""
    return f.get("gate_low", f["low"]), f.get("gate_high", f["high"])


def unpaired_reasons(figures: dict) -> dict[str, list[str]]:
    """Why compared figures are unpaired (``unpaired_because``) -> those figures' keys, in the figures' order."""
    out: dict[str, list[str]] = {}
    for k, f in figures.items():
        if not f.get("paired"):
            out.setdefault(f["unpaired_because"], []).append(k)
    return out
