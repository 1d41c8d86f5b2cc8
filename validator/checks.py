"""Static deck checks for ``pnp check``: a game's engine checks when it has a
rules engine (they include the sheet checks), else the sheet checks alone.

A game whose rules sit in its data folder (``templates/<slug>/rules/``) has
them loaded here too, which runs their Python; rules that do not load are one
problem line naming the file and line, after the sheet checks."""

from __future__ import annotations

from model.errors import EngineError, Problem
from validator.kit import get_spec, has_rules
from validator.kit.checks import sheet_checks


def deck_checks(data) -> list[Problem]:
    """The static checks of one game's deck (``data``: a ``model.sheets.Game``), sorted."""
    from .failures import blame

    try:
        spec = get_spec(data) if has_rules(data) else None
        if spec is not None and spec.static_checks is not None:
            with blame(spec):
                return sorted(spec.static_checks(data))
    except EngineError as exc:
        return sheet_checks(data) + [Problem(exc.file or f"templates/{data.slug}/rules/", exc.line, None, exc.what)]
    return sheet_checks(data)


__all__ = ["deck_checks", "sheet_checks"]
