"""Static checks of The Golden Pyramid's rows, before any game is played.

An error is data the engine cannot play (``make`` refuses it with the same
messages); a warning is playable but suspicious.  Every problem names the file,
the row as a spreadsheet shows it and the column.
"""

from __future__ import annotations

from model.errors import Problem

from .constants import MAX_VALUE, STRIDE
from .geometry import LEVELS, NPOS, SIZES, SUPPORT

UPPER_COLUMNS = 4 * sum(1 for p in range(NPOS) if SUPPORT[p])  # 56 columns carry the 14 upper tiles


def rows(data):
    """The rows the engine reads: (playing cards, set-aside cards, tiles, columns, builders)."""
    cards = [c for c in data.cards if c.deck == "card"]
    play = [c for c in cards if (c.get("role") or "play") == "play"]
    aside = [c for c in cards if (c.get("role") or "play") != "play"]
    return play, aside, data.deck("tile"), data.deck("column"), data.deck("builder")


def setup_numbers(players: int) -> tuple[int, int, int]:
    """(market size, starting cubes, starting cards) for a player count."""
    market = 4 if players >= 5 else 3
    start = 4 if players <= 3 else 3
    return market, start, start


def bag_count(count: int, players: int, bag_cubes: int = 15) -> int:
    """Cubes of one colour in the bag: all of the sheet's with 5-6 players, else at most ``bag_cubes``."""
    return count if players >= 5 else min(count, bag_cubes)


def static_checks(data, players: int = 4, bag_cubes: int = 15) -> list[Problem]:
    from model.checks import static_checks as sheet_checks
    from model.sheets import Project

    out: list[Problem] = list(sheet_checks(Project(root=None, games={data.slug: data}, problems=None)))
    out.extend(engine_problems(data, players, bag_cubes))
    return out


def engine_problems(data, players: int = 4, bag_cubes: int = 15) -> list[Problem]:
    """The problems only the rules engine knows about (what ``make`` refuses, and warnings)."""
    out: list[Problem] = []
    play, _aside, tiles, columns, builders = rows(data)

    def error(card, column, message):
        out.append(Problem(card.sheet, card.row, column, message))

    def warn(card, column, message):
        out.append(Problem(card.sheet, card.row, column, message, "warning"))

    if not play:
        out.append(Problem("cards.csv", None, "role", "no playing card: no 'card' row has role 'play' (or no role)"))
        return out
    if len(play) >= STRIDE:
        out.append(Problem("cards.csv", play[STRIDE - 1].row, "id", f"at most {STRIDE - 1} playing card designs"))
    column_colours = {c.color for c in columns}
    tile_symbols = {c.symbol for c in tiles}
    card_symbols = {c.symbol for c in play if c.symbol}
    missing: set = set()
    for card in play:
        if card.number is None:
            error(card, "number", "a playing card needs a value (its pips): it pays cubes, cards and builds")
        elif card.number > MAX_VALUE:
            error(card, "number", f"the engine plays card values up to {MAX_VALUE} (a value draws that many cubes, "
                  "or one card more)")
        if not card.symbol:
            error(card, "symbol", "a playing card needs a symbol: it names the tile it builds")
        if not card.color:
            error(card, "color", "a playing card needs a colour: it names the colour of a column")
        elif card.color not in column_colours and card.color not in missing:
            rows_of = [c.row for c in play if c.color == card.color]
            missing.add(card.color)
            more = f" (rows {', '.join(map(str, rows_of[1:]))} are {card.color} too)" if len(rows_of) > 1 else ""
            error(card, "color", f"no column pieces of colour '{card.color}' (no 'column' row of that colour): "
                  f"a column this card names could never be built{more}; known column colours: "
                  + (", ".join(sorted(column_colours)) or "none"))
    for card in columns:
        if not card.color:
            error(card, "color", "a column piece needs a colour")
        elif card.color not in {c.color for c in play}:
            warn(card, "color", f"no playing card is {card.color}: these columns can never be named for a build")
    for card in tiles:
        if card.symbol not in card_symbols:
            warn(card, "symbol", f"no playing card shows '{card.symbol}': these tiles are only ever taken in place "
                 "of another symbol (no tile points)")
    warned = set()
    for card in play:
        if card.symbol and card.symbol not in tile_symbols and card.symbol not in warned:
            warned.add(card.symbol)
            warn(card, "symbol", f"no tile shows '{card.symbol}': cards of this symbol always build another tile "
                 "without the tile points")
    # the pyramid needs 30 tiles
    need = sum(s * s for s in SIZES)
    have = sum(c.count for c in tiles)
    if have < need:
        share = -(-need // max(1, len(tile_symbols)))
        short = [c for c in tiles if c.count < share] or tiles[-1:]
        if not short:
            out.append(Problem("cards.csv", None, "deck", f"no tile rows: the pyramid needs {need} tiles"))
        for card in short:
            error(card, "count", f"the pyramid needs {need} tiles (16 + 9 + 4 + 1) and the tile rows hold {have}: "
                  f"'{card.symbol}' has {card.count} where an even share is {share}")
    # the levels: a level-L tile needs a card of value >= L
    valued = [c for c in play if c.number is not None]
    if valued:
        top = max(valued, key=lambda c: (c.number, -c.row))
        for level in range(2, LEVELS + 1):
            if top.number < level:
                error(top, "number", f"no playing card has a value of {level} or more, so level {level} can never "
                      f"be built and the game never ends (the highest value is {top.number}, on this row)")
                break
    # columns: the 14 upper tiles stand on 56 of them
    in_bag = sum(bag_count(c.count, players, bag_cubes) for c in columns if c.color)
    market, start_cubes, start_cards = setup_numbers(players)
    if columns and in_bag < UPPER_COLUMNS + market:
        biggest = max(columns, key=lambda c: c.count)
        error(biggest, "count", f"the bag holds {in_bag} column pieces with {players} players; the pyramid alone "
              f"needs {UPPER_COLUMNS} plus a market of {market}")
    elif columns and in_bag < UPPER_COLUMNS + market + players * start_cubes:
        warn(columns[0], "count", f"the bag holds {in_bag} column pieces with {players} players: the pyramid "
             f"({UPPER_COLUMNS}), the market ({market}) and the starting cubes ({players * start_cubes}) need more")
    deck = sum(c.count for c in play)
    if deck < players * start_cards + 1:
        error(play[-1], "count", f"the deck holds {deck} playing cards; dealing {start_cards} to each of {players} "
              "players needs more")
    builder_pieces = sum(c.count for c in builders)
    if builder_pieces < players:
        where = builders[-1] if builders else None
        out.append(Problem("cards.csv", where.row if where else None, "count",
                           f"{players} players need {players} builders; the sheet has {builder_pieces}"))
    return out
