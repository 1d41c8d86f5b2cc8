"""Static deck checks for ``pnp check``: a game's engine checks when it has a
rules engine (they include the sheet checks), else the sheet checks alone."""

from __future__ import annotations

from model.errors import Problem
from validator.kit import get_spec, has_rules


def deck_checks(data) -> list[Problem]:
    """The static checks of one game's deck (``data``: a ``model.sheets.Game``), sorted."""
    if has_rules(data.slug):
        spec = get_spec(data.slug)
        if spec.static_checks is not None:
            return sorted(spec.static_checks(data))
    return sheet_checks(data)


def sheet_checks(data) -> list[Problem]:
    """The spreadsheet model's checks of one game (counts, distributions, references)."""
    from model.checks import static_checks
    from model.sheets import Project

    return static_checks(Project(root=None, games={data.slug: data}, problems=None))
