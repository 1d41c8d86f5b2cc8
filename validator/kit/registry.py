"""The one registry of rules engines: slug -> engine package, imported on demand.

An engine package ``validator/games/<name>/`` defines ``SPEC`` (a GameSpec) in
its ``__init__``; adding an engine is one line here.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

from model.errors import NoRulesEngine

from .spec import GameSpec

ENGINES: dict[str, str] = {
    "pyramid-scheme": "validator.games.pyramid_scheme",
    "pyramid-shambo": "validator.games.pyramid_shambo",
    "drinking-pyramid": "validator.games.drinking_pyramid",
    "pyrrameds": "validator.games.pyrrameds",
    "golden-pyramid": "validator.games.golden_pyramid",
}

_SPECS: dict[str, GameSpec] = {}


def has_rules(slug: str) -> bool:
    return slug in ENGINES


def engines() -> list[str]:
    return sorted(ENGINES)


def get_spec(slug: str) -> GameSpec:
    spec = _SPECS.get(slug)
    if spec is None:
        if slug not in ENGINES:
            known = ", ".join(engines())
            raise NoRulesEngine(f"no rules engine exists for '{slug}' yet; pnp validate can simulate: {known}")
        spec = _SPECS[slug] = importlib.import_module(ENGINES[slug]).SPEC
    return spec


def _sources(package: str) -> list[Path]:
    mod = importlib.import_module(package)
    root = Path(mod.__file__).parent if mod.__file__.endswith("__init__.py") else Path(mod.__file__)
    return sorted(root.rglob("*.py")) if root.is_dir() else [root]


def rules_hash(spec: GameSpec, rules: dict) -> str:
    """A short hash of the engine's package, the kit, and the rules options."""
    h = hashlib.sha256()
    for package in (spec.package, __package__):
        for path in _sources(package):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    h.update(repr(sorted(rules.items())).encode())
    return h.hexdigest()[:16]
