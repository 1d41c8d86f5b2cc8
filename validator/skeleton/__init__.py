"""``pnp new SLUG --rules``: a rules engine skeleton in ``templates/<slug>/rules/``.

The skeleton (the ``*.py.tmpl`` files beside this module) plays a placeholder
game that works with any deck, so it passes ``pnp validate SLUG --conformance``
and writes a full report at once; the designer replaces its rules with their
own (docs/engine-tutorial.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from model.atomic import write_files
from model.errors import EngineExists, PnpError

from ..kit.folder import RULES

FILES = ("__init__.py", "game.py")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_PLAYERS = re.compile(r"^\s*(\d+)\s*(?:-|to|–)\s*(\d+)\s*$")


def write_rules(game_folder: Path | str, slug: str | None = None, title: str | None = None,
                players: str | None = None) -> list[Path]:
    """Write the skeleton into ``game_folder/rules/`` (``game_folder`` is
    ``templates/<slug>/``, made if missing) and return the files written.

    The slug defaults to the folder's name, the title and the player counts to
    the manifest's (``game.toml``) when there is one, else to the slug and 2-4.
    A game that already has rules is an :class:`~model.errors.EngineExists`
    error, and nothing is written."""
    folder = Path(game_folder)
    slug = slug or folder.name
    if not _SLUG.match(slug):
        raise PnpError(f"'{slug}' is not a game slug: lower-case letters, digits and '-', e.g. dune-dash")
    rules = folder / RULES
    if rules.exists():
        raise EngineExists(f"{rules}/ already exists; nothing was written (delete it to start again)")
    manifest = _manifest(folder)
    title = title or manifest.get("title") or slug.replace("-", " ").title()
    low, high = _players(players or manifest.get("players") or "")
    text = {}
    for name in FILES:
        template = (Path(__file__).parent / f"{name}.tmpl").read_text(encoding="utf-8")
        for key, value in (("__SLUG__", slug), ("__TITLE__", title.replace('"', "'")), ("__MIN__", str(low)),
                           ("__MAX__", str(high))):
            template = template.replace(key, value)
        text[rules / name] = template
    return write_files(text)


def _manifest(folder: Path) -> dict:
    path = folder / "game.toml"
    if not path.is_file():
        return {}
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8")).get("game", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}  # pnp check reports a broken manifest; the skeleton needs only its title


def _players(text: str) -> tuple[int, int]:
    """'2-5' -> (2, 5); '3' -> (3, 3); anything else -> (2, 4)."""
    m = _PLAYERS.match(str(text))
    if m:
        low, high = sorted((int(m.group(1)), int(m.group(2))))
        return max(1, low), max(1, high)
    if str(text).strip().isdigit():
        n = max(1, int(str(text).strip()))
        return n, n
    return 2, 4
