"""Static checks of the drinking Pyramid's deck before any game is played."""

from __future__ import annotations

from model.errors import Problem, RulesError

from .constants import PARAMS, PYRAMID


def parse_royals(text: str) -> set[int]:
    try:
        out = {int(x) for x in str(text).replace(";", ",").split(",") if x.strip()}
    except ValueError:
        raise RulesError(f"rules option royals: '{text}' is not a list of ranks such as 1,11,12,13") from None
    return out


def static_checks(data, players: int = 6, options: dict | None = None) -> list[Problem]:
    """Rows the engine cannot use (errors) and a deck that plays oddly (warnings),
    with the sheet-wide checks (counts against the rulebook)."""
    from model.checks import static_checks as sheet_checks
    from model.sheets import Project

    opts = {**{name: p.default for name, p in PARAMS.items()}, **(options or {})}  # the game's, or the defaults
    out: list[Problem] = list(sheet_checks(Project(root=None, games={data.slug: data}, problems=None)))
    cards = [c for c in data.cards if c.deck == "card"]
    if not cards:
        return out + [Problem("cards.csv", None, "deck", f"{data.slug} has no cards: nothing to build a pyramid "
                              "with")]
    for c in cards:
        if c.number is None:
            out.append(Problem(c.sheet, c.row, "number", f"{c.id}: a card needs a rank (1-13) to be matched"))
    royals = parse_royals(opts["royals"])
    if not any(c.number in royals for c in cards):
        out.append(Problem("cards.csv", cards[0].row, "number", "no royal card (rank " + ", ".join(
            str(r) for r in sorted(royals)) + f") among the {sum(c.count for c in cards)} cards: the exploration "
            "could never restart"))
    elif opts["stockpile_out"] == "reshuffle" and all(c.number in royals for c in cards if c.number is not None):
        out.append(Problem("cards.csv", cards[0].row, "number", "every card is royal (rank " + ", ".join(
            str(r) for r in sorted(royals)) + "): an exploration could never reach the top (--rule "
            "stockpile-out=end stops it when the stockpile runs out)", "warning"))
    total = sum(c.count for c in cards)
    hand = opts["hand_size"] or (4 if players < 8 else 3)
    if PYRAMID + players * hand > total:
        out.append(Problem("cards.csv", cards[-1].row, "count", f"{players} players with {hand} cards each and a "
                           f"pyramid of {PYRAMID} need {PYRAMID + players * hand} cards; the deck has {total}"))
    ranks: dict[int, int] = {}
    for c in cards:
        if c.number is not None:
            ranks[c.number] = ranks.get(c.number, 0) + c.count
    if ranks and max(ranks.values()) < 2:
        out.append(Problem("cards.csv", None, "number", "every rank appears once: no card in a hand can ever "
                           "match a pyramid card", "warning"))
    return out
