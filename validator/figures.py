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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from validator.kit.stats import Z95, diff_interval, hist_mean, hist_percentile, wilson

#: key -> (label, unit, kind); every game has these
GENERIC = {
    "median-minutes": ("median estimated minutes per game", "min", "median"),
    "mean-turns": ("mean turns per game", "turns", "mean"),
    "seat-spread": ("best minus worst seat's win rate", "points", "spread"),
    "first-seat-edge": ("start player's win rate minus a fair share", "points", "edge"),
    "tie-rate": ("games ending in a shared win", "%", "rate"),
    "stall-rate": ("games stopped without a result", "%", "rate"),
}
DIGITS = 2  # decimals kept in summary.json and sweep.csv


def describe(spec) -> dict[str, tuple[str, str, str]]:
    """key -> (label, unit, kind) of every headline figure of this engine."""
    out = dict(GENERIC)
    for f in getattr(spec, "figures", ()):
        out[f.key] = (f.label, f.unit or ("%" if f.kind == "rate" else ""), f.kind)
    return out


# ------------------------------------------------------------------ from tallies
def _figure(label: str, unit: str, value, low, high) -> dict:
    def r(x):
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, DIGITS)

    return {"label": label, "unit": unit, "value": r(value), "low": r(low), "high": r(high)}


def quantile_interval(hist, q: float, z: float = Z95) -> tuple[float, float, float]:
    """The q-quantile (0..1) of the values a histogram counts, with a distribution-free 95%
    interval from the order statistics around rank n q (binomial ranks)."""
    n = sum(hist.values())
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    value = hist_percentile(hist, 100 * q)
    half = z * math.sqrt(n * q * (1 - q))
    lo_rank = max(0, math.floor(n * q - half) - 1)
    hi_rank = min(n - 1, math.ceil(n * q + half))
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


def _rate(k: int, n: int) -> tuple[float, float, float]:
    if not n:
        return float("nan"), float("nan"), float("nan")
    lo, hi = wilson(k, n)
    return 100 * k / n, 100 * lo, 100 * hi


def headline(t, spec) -> dict[str, dict]:
    """Every headline figure of a run with its 95% interval (``t``: the main games' Tally)."""
    out = {}
    n = t.games
    label, unit, _ = GENERIC["median-minutes"]
    v, lo, hi = quantile_interval(t.tenths, 0.5)
    out["median-minutes"] = _figure(label, unit, v / 10, lo / 10, hi / 10)
    label, unit, _ = GENERIC["mean-turns"]
    out["mean-turns"] = _figure(label, unit, *mean_interval(t.turns))
    players = t.players or len(t.seat_games)
    seats = [(t.seat_wins[s], t.seat_games[s]) for s in range(players)]
    rates = [k / m if m else None for k, m in seats]
    label, unit, _ = GENERIC["seat-spread"]
    if players and all(r is not None for r in rates):
        best = max(range(players), key=lambda s: rates[s])
        worst = min(range(players), key=lambda s: rates[s])
        d, lo, hi = diff_interval(*seats[best], *seats[worst])
        out["seat-spread"] = _figure(label, unit, 100 * d, 100 * max(0.0, lo), 100 * hi)
    else:
        out["seat-spread"] = _figure(label, unit, None, None, None)
    label, unit, _ = GENERIC["first-seat-edge"]
    if players and seats[0][1]:
        v, lo, hi = _rate(*seats[0])
        fair = 100 / players
        out["first-seat-edge"] = _figure(label, unit, v - fair, lo - fair, hi - fair)
    else:
        out["first-seat-edge"] = _figure(label, unit, None, None, None)
    label, unit, _ = GENERIC["tie-rate"]
    out["tie-rate"] = _figure(label, unit, *_rate(t.ties, n))
    label, unit, _ = GENERIC["stall-rate"]
    out["stall-rate"] = _figure(label, unit, *_rate(sum(t.ends[k] for k in t.stalls), n))
    for f in getattr(spec, "figures", ()):
        hist = t.figures.get(f.key, {})
        label, unit = f.label, f.unit or ("%" if f.kind == "rate" else "")
        if f.kind == "rate":
            total = sum(hist.values())
            out[f.key] = _figure(label, unit, *_rate(total - hist.get(0, 0), total))
        elif f.kind == "mean":
            out[f.key] = _figure(label, unit, *mean_interval(hist))
        else:
            q = 0.5 if f.kind == "median" else 0.95
            out[f.key] = _figure(label, unit, *quantile_interval(hist, q))
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


def _stat(kind: str, x, players: int):
    """The figure of each resample (rows of ``x``) in its unit; numpy arrays."""
    import numpy as np

    if kind == "median":
        return np.median(x, axis=-1)
    if kind == "p95":
        return np.percentile(x, 95, axis=-1)
    if kind == "mean":
        return x.mean(axis=-1)
    if kind == "rate":
        return 100 * (x != 0).mean(axis=-1)
    seat = np.stack([(x >> s) & 1 for s in range(players)], axis=-1).mean(axis=-2)  # win rate per seat
    if kind == "spread":
        return 100 * (seat.max(axis=-1) - seat.min(axis=-1))
    return 100 * (seat[..., 0] - 1 / players)  # edge


def _arrays(g: Games, spec) -> dict[str, tuple[str, object, float]]:
    """key -> (kind, values per game, scale) for every figure these games can give."""
    import numpy as np

    out = {"median-minutes": ("median", np.asarray(g.tenths, dtype=float), 0.1),
           "mean-turns": ("mean", np.asarray(g.turns, dtype=float), 1.0),
           "seat-spread": ("spread", np.asarray(g.wins, dtype=np.int64), 1.0),
           "first-seat-edge": ("edge", np.asarray(g.wins, dtype=np.int64), 1.0),
           "tie-rate": ("rate", np.asarray([bin(w).count("1") > 1 for w in g.wins], dtype=float), 1.0),
           "stall-rate": ("rate", np.asarray(g.stall, dtype=float), 1.0)}
    for f in getattr(spec, "figures", ()):
        if f.key in g.values:
            out[f.key] = (f.kind, np.asarray(g.values[f.key], dtype=float), 1.0)
    return out


def paired(a: Games, b: Games, spec, resamples: int = 1000, seed: int = 1) -> dict[str, dict]:
    """Each figure on the reference games ``a`` and on ``b``, the difference b - a and its 95% interval by a
    paired bootstrap: the same resampled games on both sides, so what the two runs share (the deal, the
    draws up to where they part) cancels out.  ``unpaired_low``/``unpaired_high``: the interval resampling
    each side on its own, for how much the pairing narrowed it.  Deterministic for a given ``seed``."""
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
    chunk = max(1, min(resamples, 2_000_000 // max(1, n * max(1, a.players))))
    diffs = {k: [] for k in left if k in right}
    alone = {k: [] for k in diffs}
    done = 0
    while done < resamples:
        m = min(chunk, resamples - done)
        idx = rng.integers(0, n, size=(m, n))
        other = rng.integers(0, n, size=(m, n))
        for k in diffs:
            kind, xa, scale = left[k]
            _, xb, _ = right[k]
            sa = _stat(kind, xa[idx], a.players)
            diffs[k].append(scale * (_stat(kind, xb[idx], b.players) - sa))
            alone[k].append(scale * (_stat(kind, xb[other], b.players) - sa))
        done += m
    for k in diffs:
        kind, xa, scale = left[k]
        _, xb, _ = right[k]
        va = float(scale * _stat(kind, xa[None, :], a.players)[0])
        vb = float(scale * _stat(kind, xb[None, :], b.players)[0])
        d = np.concatenate(diffs[k])
        u = np.concatenate(alone[k])
        lo, hi = np.percentile(d, [2.5, 97.5])
        ulo, uhi = np.percentile(u, [2.5, 97.5])
        label, unit, _ = labels[k]
        out[k] = {"label": label, "unit": unit, "reference": round(va, DIGITS), "value": round(vb, DIGITS),
                  "difference": round(vb - va, DIGITS), "low": round(float(lo), DIGITS),
                  "high": round(float(hi), DIGITS), "unpaired_low": round(float(ulo), DIGITS),
                  "unpaired_high": round(float(uhi), DIGITS), "paired": True}
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


def unpaired(a: dict, b: dict) -> dict[str, dict]:
    """Headline blocks of two runs that did not play the same games (or whose games are not at hand):
    the difference and an interval from each side's own (half-widths added in quadrature)."""
    out = {}
    for k, fb in b.items():
        fa = a.get(k)
        if fa is None or fa["value"] is None or fb["value"] is None:
            continue
        d, half = difference(fa, fb)
        out[k] = {"label": fb["label"], "unit": fb["unit"], "reference": fa["value"], "value": fb["value"],
                  "difference": round(d, DIGITS), "low": round(d - half, DIGITS), "high": round(d + half, DIGITS),
                  "paired": False}
    return out
