"""Static checks of a loaded project, beyond the per-cell schema: counts against
the rulebook (the manifest's ``expected``)."""

from __future__ import annotations

from .errors import Problem
from .sheets import Project


def static_checks(project: Project) -> list[Problem]:
    out = []
    for slug, game in project.games.items():
        for name, deck in game.manifest.decks.items():
            if deck.expected is None:
                continue
            total = sum(c.count for c in game.cards if c.deck == name and c.expansion == "base")
            if total != deck.expected:
                sheet = "goals.csv" if deck.sheet == "goals" else "cards.csv"
                out.append(Problem(sheet, None, "count", f"{slug}: {total} {deck.label.lower()} in the base game, "
                                   f"the rulebook has {deck.expected}", "warning"))
    return out
