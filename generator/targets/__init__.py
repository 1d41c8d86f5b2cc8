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
"""

from __future__ import annotations

from ..shops import known_presets
from .base import DeckStats, Target, TargetOutput
from .pdf_sheets import PdfSheets
from .png import Png
from .proof import Proof
from .reference import Reference
from .shop import ShopTarget
from .tts import Tts

TARGETS: dict[str, Target] = {}


def register(target: Target) -> Target:
    """Add a target to the registry under its name (replacing one of that name)."""
    TARGETS[target.name] = target
    return target


register(PdfSheets())
register(Reference())
register(Proof())
register(Png())
register(Tts())
for _shop in known_presets():
    register(ShopTarget(_shop))

from ..defaults import DEFAULT_TARGETS  # noqa: E402 - kept where command lines read it cheaply

#: ``pnp export --to NAME`` -> the target that makes it.
EXPORTS: dict[str, str] = {"png": "png-cards", "tts": "tts", **{shop: shop for shop in known_presets()}}

__all__ = ["DEFAULT_TARGETS", "EXPORTS", "TARGETS", "DeckStats", "Target", "TargetOutput", "register"]
