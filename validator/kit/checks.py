"""The sheet checks every game gets: counts against the manifest's ``expected``
and the rest of ``model.checks``.  An engine's ``static_checks`` starts from
them and adds its own."""

from __future__ import annotations

from model.errors import Problem


def sheet_checks(data) -> list[Problem]:
    """The spreadsheet model's checks of one game (``data``: a ``model.sheets.Game``), sorted."""
    from model.checks import static_checks
    from model.sheets import Project

    return sorted(static_checks(Project(root=None, games={data.slug: data}, problems=None)))
