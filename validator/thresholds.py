"""Thresholds for the verdicts, with defaults, read from a small TOML file.

Every key has a default; a file overrides only what it names::

    [length]
    box_minutes = [20, 30]     # default: the game's playtime from its manifest
    fail_factor = 0.5          # FAIL below box_low * (1 - f) or above box_high * (1 + f)

    [time]
    seconds_per_turn = 15
    seconds_per_action = 5

An engine adds its own sections (``GameSpec.thresholds``) and its time
defaults (``GameSpec.time``): :meth:`Thresholds.bind` applies them, with the
file's values on top.  An unknown section or key is an error that lists the
accepted ones; a section only another engine knows is left to that engine.

A figure is compared with a threshold exactly: :func:`above` and :func:`below`
round away what floating point adds (a spread of 8 points is 0.08000000000000002
as a difference of two shares), so a figure equal to its threshold is not beyond it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from model.errors import PnpError

PLACES = 9  # decimals a figure and a threshold are compared to: far finer than any count of games tells apart


def above(value: float, limit: float) -> bool:
    """``value`` strictly above ``limit``, compared exactly (to :data:`PLACES` decimals)."""
    return round(value - limit, PLACES) > 0


def below(value: float, limit: float) -> bool:
    """``value`` strictly below ``limit``, compared exactly (to :data:`PLACES` decimals)."""
    return round(limit - value, PLACES) > 0


#: section -> key -> (default, help)
DEFAULTS: dict[str, dict[str, tuple]] = {
    "length": {
        "box_minutes": (None, "the box's playing time [low, high] in minutes; default: the manifest's playtime"),
        "fail_factor": (0.5, "median minutes beyond the box by this fraction of its bounds is a FAIL (inside: PASS, "
                             "between: WARN)"),
    },
    "time": {
        "seconds_per_turn": (15.0, "table time per turn (looking, passing the turn)"),
        "seconds_per_action": (5.0, "table time per decision a player takes"),
        "setup_minutes": (0.0, "setup time added to every game"),
    },
    "balance": {
        "seat_spread_warn": (0.08, "the best minus the worst seat's share of the wins (a shared win split "
                                   "evenly): above this WARN"),
        "seat_spread_fail": (0.20, "... above this with 95% confidence (the interval's lower end): FAIL"),
        "tie_rate_warn": (0.10, "share of games that end in a tie: above this WARN"),
        "tie_rate_fail": (0.30, "... above this with 95% confidence: FAIL"),
    },
    "stalls": {
        "stall_rate_warn": (0.001, "share of games stopped without a result (turn cap, loop, stuck): above this WARN"),
        "stall_rate_fail": (0.01, "... above this FAIL"),
        "turn_cap": (400, "turns after which a game is stopped and counted as a stall"),
    },
    "sample": {
        "min_games": (1000, "fewer games than this: a WARN that the sample is small"),
    },
    "skill": {
        "skill_gap_warn": (0.05, "the second skill bot's win rate per seat (greedy's, or the engine's) must beat "
                                 "the first's (random's) by this much, else WARN (luck dominates)"),
    },
    "richness": {
        "choice_share_warn": (0.5, "share of turns with a real choice (2+ legal actions): below this WARN"),
    },
}


@dataclass
class Thresholds:
    """Threshold values by section and key: the defaults (generic, and the
    engine's once bound), with a file's ``overrides`` on top."""

    values: dict[str, dict] = field(default_factory=lambda: {s: {k: v[0] for k, v in keys.items()}
                                                             for s, keys in DEFAULTS.items()})
    source: str = "defaults"
    overrides: dict[str, dict] = field(default_factory=dict)  # section -> key -> value, as the file gives them

    def get(self, section: str, key: str):
        return self.values[section][key]

    def box(self, playtime: tuple[float, float] | None) -> tuple[float, float] | None:
        """The box's playing time in minutes: ``box_minutes`` when set, else ``playtime``, the manifest's as it
        was read (``Manifest.playtime_minutes``: "20 min" is 15-25; None when it gives none)."""
        box = self.values["length"]["box_minutes"]
        if box is not None:
            return float(box[0]), float(box[1])
        return playtime

    def as_dict(self) -> dict:
        return {s: dict(v) for s, v in self.values.items()}

    def bind(self, spec) -> "Thresholds":
        """These thresholds for one engine: its sections and time defaults added,
        the file's values applied (and checked against the engine's keys)."""
        defaults = engine_defaults(spec)
        values = {s: {k: v[0] for k, v in keys.items()} for s, keys in defaults.items()}
        for section, keys in self.overrides.items():
            if section not in defaults:
                if _other_engines_know(section, spec):
                    continue
                raise PnpError(f"{self.source}: unknown section [{section}]; known: {', '.join(defaults)}")
            for key, value in keys.items():
                if key not in defaults[section]:
                    raise PnpError(f"{self.source}: unknown key '{key}' in [{section}]; known: "
                                   f"{', '.join(defaults[section])}")
                values[section][key] = _check(self.source, section, key, value, defaults[section][key][0],
                                              skippable=(section, key) in spec.side_games)
        return Thresholds(values, self.source, self.overrides)


def engine_defaults(spec) -> dict[str, dict[str, tuple]]:
    """section -> key -> (default, help): the generic thresholds with the engine's
    time defaults, then the engine's own sections."""
    out = {s: dict(keys) for s, keys in DEFAULTS.items()}
    for key, value in (spec.time or {}).items():
        if key in out["time"]:
            out["time"][key] = (float(value), out["time"][key][1])
    for section, keys in (spec.thresholds or {}).items():
        out.setdefault(section, {}).update(keys)
    return out


def _other_engines_know(section: str, spec) -> bool:
    from validator.kit import ENGINES, get_spec

    for slug in ENGINES:
        if slug != spec.slug:
            try:
                if section in (get_spec(slug).thresholds or {}):
                    return True
            except Exception:  # noqa: BLE001 - an engine that does not load declares nothing here
                continue
    return False


def find_thresholds(data_dir: Path | str, explicit_path: Path | str | None = None) -> Path | None:
    """The thresholds file to use: ``explicit_path`` when given (``--thresholds``),
    else ``DATA/validate.toml`` when it exists, else None (the built-in values)."""
    if explicit_path is not None:
        return Path(explicit_path)
    candidate = Path(data_dir) / "validate.toml"
    return candidate if candidate.is_file() else None


def load_thresholds(path: Path | None, spec=None) -> Thresholds:
    """The thresholds of a TOML file (None: the defaults).  Generic sections are
    checked here; an engine's sections when the thresholds are bound to it
    (``spec``, or later with :meth:`Thresholds.bind`)."""
    t = Thresholds()
    if path is None:
        return t.bind(spec) if spec is not None else t
    path = Path(path)
    if not path.is_file():
        raise PnpError(f"{path}: no such thresholds file")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PnpError(f"{path}: not a valid TOML file: {exc}") from None
    except RecursionError:
        raise PnpError(f"{path}: nests arrays or tables too deeply to be read (hundreds of levels)") from None
    for section, keys in raw.items():
        if not isinstance(keys, dict):
            raise PnpError(f"{path}: '{section}' must be a [section] of keys")
        if section not in DEFAULTS:
            t.overrides[section] = dict(keys)  # an engine's section: checked by bind()
            continue
        for key, value in keys.items():
            if key not in DEFAULTS[section]:
                raise PnpError(f"{path}: unknown key '{key}' in [{section}]; known: {', '.join(DEFAULTS[section])}")
            default = DEFAULTS[section][key][0]
            t.values[section][key] = _check(path, section, key, value, default)
        t.overrides[section] = dict(keys)
    t.source = str(path)
    return t.bind(spec) if spec is not None else t


def _check(path, section, key, value, default, skippable: bool = False):
    """``value`` of ``key`` as its default's kind, or one line saying what was expected; ``skippable``: a count of
    games an engine plays beside the main run (``GameSpec.side_games``), which 0 skips."""
    where = f"{path}: [{section}] {key}"
    if key == "box_minutes":
        if (not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, (int, float)) for v in value)
                or value[0] > value[1] or value[0] < 0):
            raise PnpError(f"{where} = {value!r}: expected [low, high] minutes, e.g. [20, 30]")
        return [float(v) for v in value]
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise PnpError(f"{where} = {value!r}: expected true or false")
        return value
    if isinstance(default, int) and not isinstance(default, bool):
        lowest = 0 if skippable else 1
        if not isinstance(value, int) or isinstance(value, bool) or value < lowest:
            raise PnpError(f"{where} = {value!r}: expected a whole number, {lowest}"
                           f"{' (to skip them)' if skippable else ''} or more")
        return value
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise PnpError(f"{where} = {value!r}: expected a number, 0 or more")
    return float(value)
