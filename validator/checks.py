"""Static deck checks for ``pnp check``: a game's engine checks when it has a
rules engine of pnp's own (they include the sheet checks), else the sheet checks
alone.

Rules in a game's data folder (``templates/<slug>/rules/``) are never loaded
here: only ``pnp validate`` (and ``sweep``, ``tune``) run such Python, and it
runs their checks itself."""

from __future__ import annotations

from model.errors import EngineError, Problem
from validator.kit import get_spec, has_rules
from validator.kit.checks import sheet_checks


def deck_checks(data) -> list[Problem]:
    """The static checks of one game's deck (``data``: a ``model.sheets.Game``), sorted;
    a game whose rules are in its own folder gets the sheet checks alone."""
    from validator.kit.registry import folder_rules_of

    from .failures import blame

    if folder_rules_of(data) is not None:
        return sheet_checks(data)
    try:
        spec = get_spec(data) if has_rules(data) else None
        if spec is not None and spec.static_checks is not None:
            with blame(spec):
                return sorted(spec.static_checks(data))
    except EngineError as exc:
        return sheet_checks(data) + [Problem(exc.file or f"templates/{data.slug}/rules/", exc.line, None, exc.what)]
    return sheet_checks(data)


__all__ = ["deck_checks", "sheet_checks"]
