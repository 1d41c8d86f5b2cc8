"""Constants of The Golden Pyramid engine: phases, the action encoding, the rules
options and what the record declares.

Actions are small ints, sorted by kind.  A turn is one main action; choices
inside it (which cubes to put back, which cards to keep, which card names each
column...) are further decisions of the same player, and a trade offer is
answered by the player it is made to.
"""

from __future__ import annotations

from validator.kit import Param

# ------------------------------------------------------------------ phases
(MAIN, RETURN, KEEP, OFFERING, RESPOND, TRADING, REFRESHED, SYMBOL, TILE, COLOUR, PLACE, FORCED, DISCARD, MOVING,
 OVER) = range(15)
PHASE_NAMES = ("main", "put cubes back", "keep cards", "trade offer", "answer an offer", "market trade",
               "after a market refresh", "build: tile card", "build: choose a tile", "build: column card",
               "build: place the builder", "forced builder move", "discard to the hand limit", "move the builder",
               "over")

# ------------------------------------------------------------------ actions
PASS = 0            # no action is possible (only offered then)
END = 1             # end the turn after a market refresh
ACCEPT = 2          # accept the trade offered to you
DECLINE = 3         # decline it
PLACE_YES = 4       # place the builder on the new tile
PLACE_NO = 5        # leave it where it is
EMPTY_DRAW = 6      # EMPTY_DRAW + k - 1: with an empty hand, draw k (1 or 2) cards for k VP
OFFER_KIND = 8      # choose a trade offer to a player (then OFFER + code)
MARKET_KIND = 9     # trade 2:1 with the market (then MARKET + code)
REFRESH = 10        # optional rule: refresh the market first
MOVE_KIND = 11      # move the builder (then MOVE + position)
CUBES = 1000        # CUBES + design: play a card, draw its pips in cubes, keep half rounded up
CUBE = 2000         # CUBE + design: play a card, take one cube of its colour from the bag
CARDS = 3000        # CARDS + design: play a card, draw pips + 1 cards, keep up to three
KEEP_SET = 4000     # KEEP_SET + mask: keep the drawn cards at these places of the (sorted) draw, at most three
SYMBOL_CARD = 5000  # SYMBOL_CARD + design: the card that names the tile (value >= level)
COLOUR_CARD = 6000  # COLOUR_CARD + design: the card naming the colour of the next column
DISCARD_CARD = 7000  # DISCARD_CARD + design: discard down to the hand limit
RETURN_CUBE = 8000  # RETURN_CUBE + colour: put a drawn cube back in the bag
TILE_OF = 8100      # TILE_OF + symbol: take a tile of another symbol (no tile points)
MOVE = 8200         # MOVE + position: move the builder on its level
BUILD = 8300        # BUILD + position: build a tile there
DEST = 8400         # DEST + position: where a forced builder goes
OFFER = 10000       # OFFER + (partner * K + give) * K + take
MARKET = 20000      # MARKET + (take * K + give) * K + to_bag
STRIDE = 1000       # designs per card-action block (the sheet may hold up to 999 designs)
MAX_VALUE = 8       # the highest card value the engine plays (it draws value + 1 cards: masks below 2 ** 9)

COLUMN_POINTS = {(4,): 4, (3, 1): 2, (2, 2): 3, (2, 1, 1): 1, (1, 1, 1, 1): 0}  # the colour pattern of 4 columns
END_BONUS = (0, 0, 2, 3, 4)  # by the highest level contributed to
HAND_LIMIT = 7
KEEP_LIMIT = 3
EMPTY_HAND_DRAW = 2

# ------------------------------------------------------------------ rules options
PARAMS = {
    "market_refresh": Param(False, "the rulebook's optional rule: before a market trade, draw a new market (the old "
                            "cubes go back to the bag); trading after it costs 1 VP, otherwise the turn ends"),
    "builder_near": Param("same-level", "where the builder must stand to avoid the -1: same-level (a tile next to the "
                          "new one on its level, or one of the four tiles carrying its columns) or below (also any "
                          "tile of the level below next to those four)", ("same-level", "below"),
                          reading="'orthogonally adjacent' is read on the new tile's own level, or one of the four "
                                  "tiles carrying its columns"),
    "own_forced_move": Param("penalty", "a fourth column on the tile of the building player's own builder: penalty "
                             "(it must move, -1 VP, even if it is then placed on the new tile) or free (placing it "
                             "on the new tile is its move, without the -1)", ("penalty", "free"),
                             reading="the building player's own builder forced off by the fourth column loses its "
                                     "point even when it is then placed on the new tile"),
    "negative_vp": Param(True, "victory points may fall below 0 (penalties, the empty-hand draw); false: a penalty "
                         "stops at 0 and the empty-hand draw needs a victory point per card",
                         reading="the rulebook is silent on scores below 0: penalties and the empty-hand draw may "
                                 "take a score below 0"),
    "stall_rounds": Param(0, "end the game (scored as usual) after this many rounds in a row without a new tile; "
                          "0: never (the rulebook ends only with the fourth level)"),
    "bag_cubes": Param(15, "cubes of each colour in the bag with 2-4 players (at most the sheet's count); with 5-6 "
                       "players every column piece of the sheet goes in"),
    "keep_fewer": Param(True, "action b: the player keeps up to three of the drawn cards, as the rulebook says "
                        "('keeps up to three'), and chooses which; false: he keeps exactly three (all when fewer were "
                        "drawn) - keeping fewer seldom helps, since the end-of-turn discard already sheds cards over "
                        "the limit"),
    "hand_limit": Param(HAND_LIMIT, "cards a player may hold at the end of his turn"),
}

END_REASONS = {
    "pyramid": "the fourth level was built; most VP won",
    "pyramid-level": "the fourth level was built; VP tied, the highest level contributed decided",
    "pyramid-resources": "the fourth level was built; VP and level tied, fewer cards plus cubes left decided",
    "pyramid-tie": "the fourth level was built; tied on every tie-break, a shared win",
    "no-building": "no tile was built for the rounds set by stall-rounds; scored as at the end",
    "turn-cap": "stopped at the turn cap (no winner)",
    "loop": "stopped on a repeated position (no winner)",
    "stuck": "no legal action the rules cover (no winner)",
}

COUNTERS = {
    "builds": "tiles built",
    "no_symbol": "tiles built without their symbol (no tile points)",
    "market_replaced": "market replacements (3 or more cubes of one colour), setup included",
    "market_stuck": "times the market showed 3 of a colour and the bag could not give a better one",
    "offers": "trade offers made to players",
    "trades": "trade offers accepted",
    "market_trades": "2:1 trades with the market",
    "refreshes": "market refreshes (optional rule)",
    "forced_moves": "builders forced off a tile by its fourth column",
    "builder_penalties": "tiles built with the builder out of place (-1 VP)",
    "empty_draws": "cards drawn with an empty hand (1 VP each)",
    "reshuffles": "discard pile reshuffled into the deck",
    "hand_discards": "cards discarded to the hand limit",
    "blocked_turns": "turns begun by a player who could build nowhere",
    "blocked_rounds": "rounds in which no player could build at the start of his turn",
    "longest_blocked": "longest run of rounds in which no player could build",
    "longest_idle": "longest run of rounds without a new tile",
    "passes": "turns passed for want of any action",
}

PER_PLAYER = {
    "vp_levels": "VP from tile levels",
    "vp_columns": "VP from column colours",
    "vp_neighbours": "VP from neighbouring columns of the same colour",
    "builder_penalties": "VP lost to the builder being out of place",
    "forced_penalties": "VP lost to forced builder moves",
    "vp_spent": "VP spent (empty-hand draws, trading after a refresh)",
    "vp_bonus": "end bonus for the highest level contributed to",
    "tiles": "tiles built",
    "no_symbol": "tiles built without their symbol",
    "top_level": "highest level contributed to",
    "left": "cards plus cubes left at the end",
    "offers": "trade offers made",
    "accepted": "offers this player accepted",
    "traded": "trades this player took part in",
}

STANDING = ("victory points so far plus the end bonus for the highest level contributed to (the score if the game "
            "ended now)")

TIME = {"seconds_per_turn": 10.0, "seconds_per_action": 4.0, "setup_minutes": 5.0}

THRESHOLDS = {
    "golden": {
        "no_symbol_warn": (0.10, "share of tiles built without their symbol (no tile points): above this WARN"),
        "blocked_run": (8, "rounds in a row in which nobody can build that make a game 'blocked' (gathering for an "
                           "upper tile takes the greedy bots 4-6)"),
        "blocked_games_warn": (0.05, "share of blocked games: above this WARN"),
        "blocked_games_fail": (0.25, "... above this with 95% confidence: FAIL"),
        "first_seat_warn": (0.05, "seat 1's win rate above a fair share (1 / players) by this much: WARN"),
        "first_seat_fail": (0.15, "... by this much with 95% confidence: FAIL"),
        "market_churn_warn": (4.0, "market replacements per game (setup included): above this WARN"),
    },
    # random bots need several hundred turns to finish the pyramid (greedy ones about 130)
    "stalls": {"turn_cap": (1500, "turns after which a game is stopped and counted as a stall")},
}
