"""Static checks of a loaded project, beyond the per-cell schema: counts against
the rulebook (the manifest's ``expected``)."""

from __future__ import annotations

from .errors import Problem
from .sheets import Project


def static_checks(project: Project) -> list[Problem]:
    out = []
    for slug, game in project.games.items():
        for name, deck in game.manifest.decks.items():
            sheet = "goals.csv" if deck.sheet == "goals" else "cards.csv"
            for box, expected in deck.expected.items():
                total = sum(c.count for c in game.cards if c.deck == name and c.expansion == box)
                if total != expected:
                    where = "in the base game" if box == "base" else f"in the {box} box"
                    out.append(Problem(sheet, None, "count", f"{slug}: {total} {deck.label.lower()} {where}, "
                                       f"the {deck.expected_source} has {expected}", "warning"))
    return out
