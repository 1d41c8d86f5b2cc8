"""Static deck checks for ``pnp check``: a game's engine checks when it has a
rules engine (they include the sheet checks), else the sheet checks alone.

A game whose rules sit in its data folder (``templates/<slug>/rules/``) has
them loaded here only when asked (``folder_rules``; no command but ``pnp
validate`` runs such rules, and it runs their checks itself), which runs their
Python; rules that do not load are one problem line naming the file and line,
after the sheet checks."""

from __future__ import annotations

from model.errors import EngineError, Problem
from validator.kit import get_spec, has_rules
from validator.kit.checks import sheet_checks


def deck_checks(data, folder_rules: bool = False) -> list[Problem]:
    """The static checks of one game's deck (``data``: a ``model.sheets.Game``), sorted.
    Without ``folder_rules``, rules in the game's own folder are not loaded (nor run):
    such a game gets the sheet checks alone."""
    from validator.kit.registry import folder_rules_of

    from .failures import blame

    if not folder_rules and folder_rules_of(data) is not None:
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
