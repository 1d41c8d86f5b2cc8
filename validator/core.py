"""The small game protocol every rules module speaks, the registry of rules
modules, and seed derivation.

A rules module (one per game under ``validator/games/``) registers a
:class:`GameSpec` on import.  Its ``Game`` is built from the shared spreadsheet
model (``model.sheets.Game``) plus rules options, is picklable (worker processes
receive it), and makes states::

    state = game.new_initial_state(rng)      # rng: a random.Random the runner owns
    while not state.is_terminal():
        player = state.current_player()
        actions = state.legal_actions()      # sorted ints
        state.apply_action(bot.step(state, actions))
    state.returns(), state.record()

Rules code never creates its own randomness: shuffles draw from the generator
passed in, so one seed replays one game exactly.
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from model.errors import PnpError

TERMINAL = -4  # current_player() of a finished game, as in OpenSpiel


class RulesError(PnpError):
    """The data asks for something the rules engine cannot do (e.g. an unknown word)."""


class NoRulesEngine(PnpError):
    """A bundled game without a rules module yet."""


class IllegalAction(PnpError):
    """An action that is not legal in the position; the message shows both."""


@dataclass(frozen=True)
class Param:
    """One rules option: a documented switch with a default."""

    default: Any
    help: str
    choices: tuple = ()

    def parse(self, name: str, raw: str):
        """The option's value from a command-line string ``raw``."""
        d = self.default
        if isinstance(d, bool):
            low = raw.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise PnpError(f"rules option {name}: '{raw}' is not true or false")
        if isinstance(d, int):
            try:
                value = int(raw)
            except ValueError:
                raise PnpError(f"rules option {name}: '{raw}' is not a whole number") from None
            if value < 0:
                raise PnpError(f"rules option {name}: {value} must be 0 or more")
            return value
        if self.choices and raw not in self.choices:
            raise PnpError(f"rules option {name}: '{raw}' is not one of {', '.join(self.choices)}")
        return raw


@dataclass(frozen=True)
class GameSpec:
    """What the runner and the CLI need to know about a rules module."""

    slug: str
    title: str
    min_players: int
    max_players: int
    params: dict[str, Param]
    make: Callable[..., Any]  # make(data: model.sheets.Game, players: int, **options) -> Game
    module: str = ""
    end_reasons: dict[str, str] = field(default_factory=dict)  # code -> sentence for the report
    elimination_causes: dict[str, str] = field(default_factory=dict)
    standing: str = ""  # what State.standings() measures, for the report's lead and drama figures

    def options(self, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        values = {k: p.default for k, p in self.params.items()}
        for k, v in (overrides or {}).items():
            if k not in self.params:
                raise PnpError(f"unknown rules option '{k}' for {self.slug}; known: {', '.join(sorted(self.params))}")
            values[k] = v
        return values

    def parse_options(self, pairs: list[str]) -> dict[str, Any]:
        """``["key=value", ...]`` from the command line into typed option values."""
        out = {}
        for pair in pairs:
            key, sep, raw = pair.partition("=")
            key = key.strip().replace("_", "-")
            name = key.replace("-", "_")
            if not sep:
                raise PnpError(f"--rule '{pair}' is not KEY=VALUE")
            if name not in self.params:
                known = ", ".join(sorted(k.replace("_", "-") for k in self.params))
                raise PnpError(f"unknown rules option '{key}' for {self.slug}; known: {known}")
            out[name] = self.params[name].parse(key, raw.strip())
        return out


_REGISTRY: dict[str, GameSpec] = {}

#: rules modules shipped with the toolchain, by game slug (imported on demand)
MODULES = {
    "pyramid-scheme": "validator.games.pyramid_scheme",
}


def register(spec: GameSpec) -> GameSpec:
    _REGISTRY[spec.slug] = spec
    return spec


def has_rules(slug: str) -> bool:
    return slug in _REGISTRY or slug in MODULES


def deck_checks(data) -> list:
    """Static checks of one game's deck: the rules module's when the game has one
    (they include the sheet checks), else the sheet checks alone."""
    from model.checks import static_checks
    from model.sheets import Project

    if has_rules(data.slug):
        module = importlib.import_module(get_spec(data.slug).module)
        if hasattr(module, "static_checks"):
            return sorted(module.static_checks(data))
    return static_checks(Project(root=None, games={data.slug: data}, problems=None))


def get_spec(slug: str) -> GameSpec:
    if slug not in _REGISTRY and slug in MODULES:
        importlib.import_module(MODULES[slug])
    try:
        return _REGISTRY[slug]
    except KeyError:
        known = ", ".join(sorted(set(MODULES) | set(_REGISTRY)))
        raise NoRulesEngine(f"no rules engine exists for '{slug}' yet; pnp validate can simulate: {known}") from None


# ------------------------------------------------------------------- seeds
_MASK64 = (1 << 64) - 1


def shuffle(rng, x: list) -> None:
    """Shuffle ``x`` in place with ``rng`` (a ``random.Random``).

    Fisher-Yates drawing exactly what CPython's ``random.shuffle`` draws, so it
    gives the same order for the same generator state; written out here so a
    shuffle is one Python call rather than one per card, and so games do not
    depend on how a future Python shuffles.
    """
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def derive_seed(master: int, *path: int | str) -> int:
    """A 63-bit seed for ``path`` (e.g. ("main", 17)) under ``master``.

    Stable across Python versions and platforms; independent of how games are
    split over workers, so any worker count plays the same games.
    """
    h = hashlib.blake2b(digest_size=8)
    h.update(str(int(master)).encode())
    for part in path:
        h.update(b"/")
        h.update(str(part).encode())
    return int.from_bytes(h.digest(), "big") >> 1
