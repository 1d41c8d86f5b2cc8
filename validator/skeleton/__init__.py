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


def rules_files(slug: str, title: str | None = None, players: str | None = None) -> dict[str, str]:
    """The skeleton's files for a game: file name inside ``rules/`` -> text.  The title
    defaults to one made from the slug, the player counts ('2-5') to 2-4."""
    if not _SLUG.match(slug):
        raise PnpError(f"'{slug}' is not a game slug: lower-case letters, digits and '-', e.g. dune-dash")
    title = title or slug.replace("-", " ").title()
    low, high = _players(players or "")
    out = {}
    for name in FILES:
        text = (Path(__file__).parent / f"{name}.tmpl").read_text(encoding="utf-8")
        for key, value in (("__SLUG__", slug), ("__TITLE_LITERAL__", repr(title)), ("__MIN__", str(low)),
                           ("__MAX__", str(high)), ("__TITLE__", re.sub(r'["\\]', "'", title))):  # (in docstrings)
            text = text.replace(key, value)
        out[name] = text
    return out


def write_rules(game_folder: Path | str, slug: str | None = None, title: str | None = None,
                players: str | None = None) -> list[Path]:
    """Write the skeleton into ``game_folder/rules/`` (``game_folder`` is
    ``templates/<slug>/``, made if missing) and return the files written.

    The slug defaults to the folder's name, the title and the player counts to
    the manifest's (``game.toml``) when there is one.  A game that already has
    rules is an :class:`~model.errors.EngineExists` error, and nothing is written."""
    folder = Path(game_folder)
    slug = slug or folder.name
    rules = folder / RULES
    if rules.exists():
        raise EngineExists(f"{rules}/ already exists; nothing was written (delete it to start again)")
    manifest = manifest_game((folder / "game.toml").read_text(encoding="utf-8")) \
        if (folder / "game.toml").is_file() else {}
    files = rules_files(slug, title or manifest.get("title"), players or manifest.get("players"))
    return write_files({rules / name: text for name, text in files.items()})


def add_rules(plan) -> None:
    """A part of ``pnp new SLUG --rules`` (a ``model.scaffold.Plan``): the skeleton
    beside the game's manifest, titled and sized as the planned manifest says."""
    manifest = Path("templates") / plan.slug / "game.toml"
    game = manifest_game(plan.files[manifest]) if manifest in plan.files else {}
    for name, text in rules_files(plan.slug, game.get("title"), game.get("players")).items():
        plan.add(manifest.parent / RULES / name, text)


def manifest_game(text: str) -> dict:
    """The ``[game]`` table of a manifest's text ({} when it does not parse: pnp check reports that)."""
    import tomllib

    try:
        game = tomllib.loads(text).get("game", {})
    except (tomllib.TOMLDecodeError, RecursionError):
        return {}
    return game if isinstance(game, dict) else {}


def _players(text) -> tuple[int, int]:
    """'2-5' -> (2, 5); '3' -> (3, 3); anything else -> (2, 4)."""
    text = str(text).strip()
    m = _PLAYERS.match(text)
    if m:
        low, high = sorted((int(m.group(1)), int(m.group(2))))
        return max(1, low), max(1, high)
    if text.isdigit():
        return max(1, int(text)), max(1, int(text))
    return 2, 4
