"""What every command reports besides the sheets' own problems: the checks of
``pnp check`` (each game's deck checks, its palette for colour-blind players),
shared by ``check``, ``build``, ``export``, ``watch`` and ``preview`` so that
each shows and counts the same warnings.  A game whose rules engine is in its own
folder gets the sheet checks here: its engine's deck checks run under ``pnp
validate`` only (loading rules runs their Python, which none of these commands
does).

The palette check's findings depend on the palette only, so a build keeps
them in its cache (``DiskCache.put_value``) and a build of an unchanged
palette does not simulate colour vision again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from model.errors import Problem

#: Bump when the palette check changes what it finds.
PALETTE_CHECK_VERSION = 1


def game_checks(game, store=None) -> list[Problem]:
    """The further checks of one game (``model.sheets.Game``): its deck checks
    (the rules engine's, else the sheet's) and its palette's colour-vision
    check; ``store`` (a ``DiskCache``, or None) keeps the palette check's findings.

    Rules in the game's own folder (``templates/<slug>/rules/``) are Python: only
    ``pnp validate`` (and ``sweep``, ``tune``) load them, so here such a game gets the
    sheet checks (pnp's own installed engines are pnp's code: their checks run)."""
    from validator.checks import deck_checks

    return [_of_game(game.slug, p) for p in deck_checks(game)] + palette_checks(game.manifest, store)


def _of_game(slug: str, problem: Problem) -> Problem:
    """A deck check's line, naming its game: a rules engine's checks speak its game's own words (a
    smart-ass, a colour pass), which a designer of another game in the same folder should know are
    not about theirs."""
    if problem.file.startswith("templates/") or problem.message.startswith(f"{slug}: "):
        return problem
    return replace(problem, message=f"{slug}: {problem.message}")


def palette_checks(manifest, store=None) -> list[Problem]:
    from model.colour_vision import THRESHOLD, palette_warnings

    if len(manifest.palette) < 2:
        return []
    key = hashlib.blake2b(json.dumps([PALETTE_CHECK_VERSION, THRESHOLD, manifest.slug, manifest.palette],
                                     sort_keys=True, default=str).encode(), digest_size=16).hexdigest()
    if store is not None:
        kept = store.get_value("palette", key)
        if kept is not None:
            try:
                return [Problem(**p) for p in json.loads(kept)]
            except (ValueError, TypeError):
                pass  # not in this version's form: check again
    found = palette_warnings(manifest)
    if store is not None:
        store.put_value("palette", key, json.dumps([p.__dict__ for p in found]).encode())
    return found


def project_checks(project, store=None) -> tuple[list[Problem], dict[str, list[Problem]]]:
    """Every problem of a loaded project once: (the sheet-wide ones, {slug: the
    game's own, its rows' and its checks'})."""
    return project.attribute_warnings(lambda game: game_checks(game, store))
