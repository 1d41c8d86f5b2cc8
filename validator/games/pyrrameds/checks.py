"""Problems in the rows found before any game is played, each naming file, row and column.

``engine_problems`` checks one box selection (``make`` raises them as InputErrors);
``static_checks`` checks every selection the manifest allows (base plus any set of
expansions) and adds the shared sheet checks."""

from __future__ import annotations

from itertools import combinations

from model.errors import Problem

from .spec import COUNTED, EFFECT_WORDS, PARAMS, ROW, ROW_BY_BOX, WILD


def engine_problems(data, boxes: set[str], players: int, row: int, options: dict) -> list[Problem]:
    out: list[Problem] = []
    cards = [c for c in data.select(boxes) if c.deck in ("medicine", "patient", "operation")]
    medicine = [c for c in cards if c.deck == "medicine"]
    patients = [c for c in cards if c.deck == "patient"]
    operations = [c for c in cards if c.deck == "operation"]
    label = "+".join(b for b in data.manifest.expansions if b in boxes)

    for card in patients:
        # the medicine always in play with this patient: the base game's and its own box's
        home = {"base", card.expansion}
        have: dict[str, int] = {}
        wild = 0
        for m in medicine:
            if m.expansion in home:
                if m.color == WILD:
                    wild += m.count
                else:
                    have[m.color] = have.get(m.color, 0) + m.count
        for term in card.requires:
            if term.word == WILD:
                continue
            n = have.get(term.word, 0)
            if n == 0 and not wild:
                where = "the base game" if card.expansion == "base" else f"the base game or the {card.expansion} box"
                known = ", ".join(sorted(have)) or "none"
                out.append(Problem(card.sheet, card.row, "requires", f"needs {term.word} medicine, but no medicine "
                                   f"of {where} is of that type (types there: {known}); this patient could never "
                                   "be placed"))
            elif n + wild < term.count:
                out.append(Problem(card.sheet, card.row, "requires", f"needs {term.count} {term.word} medicine; "
                                   f"only {n + wild} can ever be in play with it"))
    for card in operations:
        for term in card.effect:
            if term.word not in EFFECT_WORDS:
                out.append(Problem(card.sheet, card.row, "effect", f"the rules engine has no meaning for "
                                   f"'{term.word}'; it knows: {', '.join(EFFECT_WORDS)}"))
            elif term.word in COUNTED and term.args and term.args[0] < 1:
                out.append(Problem(card.sheet, card.row, "effect", f"'{term}': the count must be 1 or more"))
        if card.number is None:
            out.append(Problem(card.sheet, card.row, "number", "an operation is placed like medicine and needs "
                               "a number"))

    if cards:
        first = min(c.row for c in cards)
        sheet = cards[0].sheet
        n_med = sum(c.count for c in medicine)
        n_pat = sum(c.count for c in patients)
        total = sum(c.count for c in cards)
        sm, sp = options.get("start_medicine", 2), options.get("start_patients", 2)
        if n_med < sm * players:
            out.append(Problem(sheet, first, "count", f"boxes {label}: {n_med} medicine cannot deal {sm} to each of "
                               f"{players} players"))
        if n_pat < sp * players:
            out.append(Problem(sheet, first, "count", f"boxes {label}: {n_pat} patients cannot deal {sp} to each "
                               f"of {players} players"))
        rest = total - min(n_med, sm * players) - min(n_pat, sp * players)
        if rest < row:
            out.append(Problem(sheet, first, "count", f"boxes {label} cannot deal a starting row: {total} cards, "
                               f"{sm + sp} dealt to each of {players} players, leave {rest} for a row of {row}"))
        elif options.get("fewer_cards", "none") not in ("none", "") and (rest - row) // players < 1:
            out.append(Problem(sheet, first, "count", f"boxes {label}, {players} players: fewer-cards takes a card "
                               "from a seat, but no card is dealt after the start"))
        elif row > 1:
            hand = sm + sp + (rest - row) // players
            room = row * (row - 1)
            if players * hand - (players - 1) > room:
                out.append(Problem(sheet, first, "count", f"boxes {label}, {players} players: hands of {hand} need "
                                   f"at least {players * hand - (players - 1)} placements but a row of {row} leaves "
                                   f"room for {room}; nobody can ever empty their hand", "warning"))
    else:
        out.append(Problem("cards.csv", None, "game", "no pyrrameds rows: there is nothing to play"))
    return out


def present(data) -> list[str]:
    """The boxes that have rows (base always), in the manifest's order."""
    have = {c.expansion for c in data.cards} | {"base"}
    return [b for b in data.manifest.expansions if b in have]


def selections(data) -> list[set[str]]:
    """Every box selection: the base game plus any set of the expansions that have rows."""
    extra = [b for b in present(data) if b != "base"]
    return [{"base", *combo} for k in range(len(extra) + 1) for combo in combinations(extra, k)]


def static_checks(data, players: int = 4) -> list[Problem]:
    """Deck checks before any simulation, for every box selection."""
    from model.checks import static_checks as sheet_checks
    from model.sheets import Project

    out: list[Problem] = list(sheet_checks(Project(root=None, games={data.slug: data}, problems=None)))
    seen = set()
    options = {name: p.default for name, p in PARAMS.items()}
    for boxes in selections(data):
        row = max([ROW] + [ROW_BY_BOX.get(b, ROW) for b in boxes])
        for p in engine_problems(data, boxes, players, row, options):
            if p not in seen:
                seen.add(p)
                out.append(p)
    return out
