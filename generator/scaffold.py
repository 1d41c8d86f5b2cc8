"""The files ``pnp new`` starts a game with: a manifest, a front and a back
template for one deck, and sample rows (``model.scaffold.Plan``).

The files are kept as they are in ``generator/scaffold/``, with ``@SLUG@`` and
``@TITLE@`` put in; the rows fill the deck's columns.  A new game passes
``pnp check`` and ``pnp build`` at once, and is the first step of
docs/custom-game.md.
"""

from __future__ import annotations

from pathlib import Path

from model.scaffold import Plan, title_of

FILES = Path(__file__).with_name("scaffold")
#: (file in generator/scaffold/, where it goes in templates/<slug>/)
TEMPLATES = (("game.toml", "game.toml"), ("card.svg.j2", "card.svg.j2"), ("back.svg.j2", "back.svg.j2"))
SAMPLE_ROWS = (
    ("red-1", "Red One", 3, "red", 1, "Play it on a red card, or on any card when you have no red one."),
    ("blue-2", "Blue Two", 2, "blue", 2, "Draw a card, then give a card to the player on your left."),
    ("green-3", "Green Three", 1, "green", 3, "Worth 3 points at the end of the game."),
)


def game_plan(root: Path, slug: str, title: str | None = None, plan: Plan | None = None) -> Plan:
    """Add a new game's manifest, templates and sample rows to ``plan`` (a new one when None)."""
    plan = plan or Plan(Path(root), slug)
    title = title or title_of(slug)
    quoted = title.replace("\\", "\\\\").replace('"', '\\"')  # in game.toml, a TOML string
    for source, target in TEMPLATES:
        text = (FILES / source).read_text(encoding="utf-8").replace("@SLUG@", slug)
        text = text.replace('"@TITLE@"', f'"{quoted}"').replace("@TITLE@", title)
        plan.add(Path("templates") / slug / target, text)
    for card_id, name, count, color, number, text in SAMPLE_ROWS:
        plan.rows.append({"game": slug, "deck": "card", "id": card_id, "name": name, "count": str(count),
                          "color": color, "number": str(number), "text": text})
    return plan
