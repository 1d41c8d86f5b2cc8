"""Targets: what a build makes from a rendered game, one module each.

``TARGETS`` maps a name to a target (see ``base.Target``); a build makes the
targets its options name (``BuildOptions.targets``, by default
``DEFAULT_TARGETS``).  A new output (PNG per card, Tabletop Simulator sheets,
a print shop's preset) is one module here with a class like ``PdfSheets``,
added with ``register``.
"""

from __future__ import annotations

from .base import DeckStats, Target, TargetOutput
from .pdf_sheets import PdfSheets
from .reference import Reference

TARGETS: dict[str, Target] = {}


def register(target: Target) -> Target:
    """Add a target to the registry under its name (replacing one of that name)."""
    TARGETS[target.name] = target
    return target


register(PdfSheets())
register(Reference())

DEFAULT_TARGETS: tuple[str, ...] = ("pdf-sheets", "reference")

__all__ = ["DEFAULT_TARGETS", "TARGETS", "DeckStats", "Target", "TargetOutput", "register"]
