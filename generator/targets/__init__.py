"""Targets: what a build makes from a rendered game, one module each.

``TARGETS`` maps a name to a target (see ``base.Target``); a build makes the
targets its options name (``BuildOptions.targets``, by default
``DEFAULT_TARGETS``).  A new output is one module here with a class like
``PdfSheets``, added with ``register``.  Besides the card sheets and the
reference sheet: ``proof`` (sheets with trim, safe area and overflowing text
outlined), ``png-cards`` (a picture per design and side), ``tts`` (Tabletop
Simulator sheets and saved object) and one target per print-shop preset in
``generator/presets/`` (``tgc``, ``mpc``, ``dtc``).  ``EXPORTS`` names the
targets ``pnp export --to`` offers.

A target's module is imported the first time the target is asked for, so a
build that makes card sheets does not import what pictures and uploads need.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from importlib import import_module

from .shops import known_presets
from .base import DeckStats, Target, TargetOutput

#: name -> (module in this package, class): the targets made on first use.
BUILTIN = {"pdf-sheets": ("pdf_sheets", "PdfSheets"), "reference": ("reference", "Reference"),
           "proof": ("proof", "Proof"), "png-cards": ("png", "Png"), "tts": ("tts", "Tts")}
#: The built-in targets that need no designs (``Target.needs_designs`` is False).
WITHOUT_DESIGNS = frozenset({"reference"})


class Registry(MutableMapping):
    """Target name -> target; built-in targets and shop presets are made when first looked up."""

    def __init__(self):
        self._made: dict[str, Target] = {}
        self._lazy: dict[str, object] = {}

    def lazy(self, name: str, make) -> None:
        """Register ``make()`` as the maker of target ``name``."""
        self._made.pop(name, None)
        self._lazy[name] = make

    def needs_designs(self, name: str) -> bool:
        """``self[name].needs_designs``, without importing a built-in target's module."""
        if name in self._made:
            return bool(self._made[name].needs_designs)
        if name in BUILTIN:
            return name not in WITHOUT_DESIGNS
        return bool(self[name].needs_designs)

    def __getitem__(self, name: str) -> Target:
        found = self._made.get(name)
        if found is None:
            make = self._lazy.pop(name)  # KeyError for an unknown name
            found = self._made[name] = make()
        return found

    def __setitem__(self, name: str, target: Target) -> None:
        self._lazy.pop(name, None)
        self._made[name] = target

    def __delitem__(self, name: str) -> None:
        if name in self._made:
            del self._made[name]
        else:
            del self._lazy[name]

    def __contains__(self, name) -> bool:
        return name in self._made or name in self._lazy

    def __iter__(self):
        return iter([*self._made, *(n for n in self._lazy if n not in self._made)])

    def __len__(self) -> int:
        return len(set(self._made) | set(self._lazy))


TARGETS: Registry = Registry()


def register(target: Target) -> Target:
    """Add a target to the registry under its name (replacing one of that name)."""
    TARGETS[target.name] = target
    return target


def _builtin(module: str, cls: str):
    return lambda: getattr(import_module(f".{module}", __name__), cls)()


def _shop(name: str):
    def make():
        from .shop import ShopTarget

        return ShopTarget(name)
    return make


for _name, (_module, _cls) in BUILTIN.items():
    TARGETS.lazy(_name, _builtin(_module, _cls))
for _shop_name in known_presets():
    TARGETS.lazy(_shop_name, _shop(_shop_name))

from ..defaults import DEFAULT_TARGETS  # noqa: E402 - kept where command lines read it cheaply

#: ``pnp export --to NAME`` -> the target that makes it.
EXPORTS: dict[str, str] = {"png": "png-cards", "tts": "tts", **{shop: shop for shop in known_presets()}}

__all__ = ["DEFAULT_TARGETS", "EXPORTS", "TARGETS", "DeckStats", "Target", "TargetOutput", "register"]
