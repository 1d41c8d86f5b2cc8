"""Static checks of the Pyramid Shambo pieces before any game is played."""

from __future__ import annotations

from model.errors import Problem

PIECE_DECKS = ("large", "medium", "small")


def static_checks(data, players: int = 4) -> list[Problem]:
    """Rows the engine cannot use (errors) and a stash that plays unevenly (warnings).

    Includes the sheet-wide checks (counts against the rulebook)."""
    from model.checks import static_checks as sheet_checks
    from model.sheets import Project

    out: list[Problem] = list(sheet_checks(Project(root=None, games={data.slug: data}, problems=None)))
    pieces = [c for c in data.cards if c.deck in PIECE_DECKS]
    for c in pieces:
        if c.number is None or c.number <= 0:
            out.append(Problem(c.sheet, c.row, "number", f"{c.id}: a piece needs 1 pip or more to pay fees with; "
                               f"it has {c.number if c.number is not None else 'none'}"))
        if not c.color:
            out.append(Problem(c.sheet, c.row, "color", f"{c.id}: a piece needs a colour: each player's pieces "
                               "are one colour"))
    if not pieces:
        out.append(Problem("cards.csv", None, "deck", f"{data.slug} has no pieces (decks "
                           f"{', '.join(PIECE_DECKS)}): nothing to play with"))
        return out
    if not any(c.deck == "small" for c in pieces):
        out.append(Problem("cards.csv", pieces[0].row, "deck", "no small pyramid: the fee of a challenge won on "
                           "the first throw and the knock-out bonus are a small pyramid"))
    by_color: dict[str, list] = {}
    for c in pieces:
        if c.color:
            by_color.setdefault(c.color, []).append(c)
    shapes = {col: sorted(c.number or 0 for c in rows for _ in range(c.count)) for col, rows in by_color.items()}
    if len({tuple(v) for v in shapes.values()}) > 1:
        out.append(Problem("cards.csv", None, "number", "the colours start with different pieces: " + "; ".join(
            f"{col} {'+'.join(map(str, v))} pips" for col, v in shapes.items()) + "; seats are then unequal",
            "warning"))
    for col, rows in by_color.items():
        sizes = {c.deck for c in rows}
        if "small" not in sizes:
            out.append(Problem(rows[0].sheet, rows[0].row, "color", f"{col} has no small pyramid: its player "
                               "cannot pay a 1-pip fee without change", "warning"))
    for c in data.cards:
        if c.deck == "cue" and c.color and c.color not in by_color:
            out.append(Problem(c.sheet, c.row, "color", f"cue card {c.id} is {c.color}, but no piece has that "
                               "colour", "warning"))
    colors = len(by_color)
    if colors and players > 2 * colors:
        out.append(Problem("cards.csv", None, "color", f"{players} players need {players} colours; two stashes "
                           f"of these pieces have {2 * colors}"))
    return out
