"""Pyrrameds: constants, the rules options and the action encoding.

Every reading of an unclear sentence of the rulebook is in docs/rules-notes.md;
the ones that reasonably go two ways are the options below (``--rule KEY=VALUE``).
"""

from __future__ import annotations

from validator.kit import Param

# ------------------------------------------------------------------ card kinds
MEDICINE, PATIENT, OPERATION = 1, 2, 3
KIND_NAMES = {MEDICINE: "medicine", PATIENT: "patient", OPERATION: "operation"}
DECK_KIND = {"medicine": MEDICINE, "patient": PATIENT, "operation": OPERATION}

WILD = "any"  # the palette colour (and the needs word) of the Intensive Care wildcard type
NONUM = -1  # no number: patients, and a ? number under wild-number=blank
FLEX = -2  # btype of an `any` medicine under wild-type=flexible: every type at once

# The starting row: 6 cards, 8 when this box is in play ("Because of the increased deck
# size, also increase the starting row to 8 cards").
ROW = 6
ROW_BY_BOX = {"intensive-care": 8}

# What the engine does with each word of the operation language (docs: the effect column).
EFFECT_WORDS = {
    "again": "take another turn straight away",
    "swap": "swap two cards in the pyramid, without showing a card and whatever their types",
    "give": "give N cards from your hand, each to another player of your choice",
    "peek": "look at another player's whole hand",
    "show": "N times, pick another player who must show you a hand card",
    "discard": "discard N cards from your hand, face up",
    "skip": "the next player misses their next turn",
}
COUNTED = ("give", "show", "discard")  # words whose first value is how many times

# ------------------------------------------------------------------ phases
MAIN, SWAP_A, SWAP_B, PICK, SHOW, GIVE, PEEK, DISCARD, CHOOSE, OVER = range(10)
PHASE_NAMES = ("place or swap", "swap: first card", "swap: second card", "pick a player to show you a card",
               "show a card", "give a card", "pick a hand to look at", "discard a card",
               "name the wildcard's type or number", "over")

END_REASONS = {
    "empty-hand": "a player emptied their hand and won",
    "stalemate": "stalemate (our ending, not the rulebook's): a whole round without a placement; fewest cards in "
                 "hand won",
    "stalemate-tie": "stalemate (our ending, not the rulebook's): a whole round without a placement; fewest cards "
                     "in hand tied",
    "turn-cap": "stopped at the turn cap (no winner)",
    "loop": "stopped on a repeated position (no winner)",
    "stuck": "nobody could place or swap for a whole round (no winner)",
}

STANDING = "minus the cards a player still holds (the player with the fewest cards leads)"

COUNTERS = {
    "placements": "cards placed in the pyramid",
    "patients": "patients placed",
    "operations": "operations placed (their effects triggered)",
    "swaps": "swaps (a hand card revealed to all)",
    "free_swaps": "swaps made by an operation (no card revealed)",
    "swap_only": "turns on which a swap was the only kind of move (no placement was legal)",
    "passes": "turns on which the player could neither place nor swap",
    "patient_turns": "turns begun holding a patient",
    "patient_chances": "turns on which one of the player's patients could be placed",
    "shown": "hand cards shown to one player (patients' rewards, show effects)",
    "given": "hand cards given to another player",
    "peeks": "hands looked at",
}
PER_PLAYER = {
    "placed": "cards the player placed",
    "left": "cards left in the player's hand at the end",
}

# ------------------------------------------------------------------ rules options
PARAMS = {
    "boxes": Param("all", "the boxes whose rows are played: all, base, or expansions joined with + "
                   "(operations, intensive-care, operations+intensive-care); base is always in "
                   "(pnp validate --expansion NAME sets it)"),
    "row": Param(0, "cards in the starting row; 0: the rulebook's 6, or 8 with Intensive Care"),
    "start_medicine": Param(2, "medicine dealt to each player before everything is shuffled together"),
    "start_patients": Param(2, "patients dealt to each player before everything is shuffled together"),
    "wild_number": Param("choose", "a ? number: choose: the player names a number when placing it, which must "
                         "follow the number rule and stays; blank: it has no number (fits anywhere, and cards "
                         "resting on it ignore it)", ("choose", "blank"),
                         reading="a ? number is named when the card is placed (one that follows the number rule) and"
                                 " keeps it"),
    "wild_type": Param("choose", "an `any` medicine: choose: the player names its type when placing it; "
                       "flexible: it counts as whichever type a path or a swap needs", ("choose", "flexible"),
                       reading="an 'any' medicine is named one of the types in play when it is placed"),
    "path_steps": Param("touching", "a patient's path steps between touching cards: touching: side by side in a "
                        "layer or corner to corner with the next layer; layers: only corner to corner (along the "
                        "staircase)", ("touching", "layers"),
                        reading="'a path through the pyramid' steps between touching cards: side by side in a layer "
                                "and corner to corner between layers"),
    "backward": Param("axis", "what 'never travels backward' forbids: axis: a step corner to corner to the next "
                      "layer counts as up or down and as left or right, so once a path has gone left it never goes "
                      "right on either kind of step; vertical: such a step counts only as up or down, and only the "
                      "sideways steps within a layer count as left or right", ("axis", "vertical"),
                      reading="'never travels backward (you can't go up and then down again; or left and then "
                      "right)' is read per axis, a corner step counting on both axes"),
    "path_extra": Param("none", "what else a patient's path may pass through: none (only its required medicine, "
                        "'nothing more'); non-medicine (other patients and operations may be crossed: they are not "
                        "medicine)", ("none", "non-medicine")),
    "under_check": Param(False, "a card placed under a card that already rests on one support (filling the gap "
                         "below it) must also keep that card's number rule; by default only its own supports count",
                         reading="the number rule is checked against a card's own supports when it is placed, not "
                                 "against cards already resting over the gap it fills"),
    "swap_check": Param("free", "free: a swap ignores the number rule; keep: a swap is legal only if every "
                        "medicine and operation it moves or uncovers still follows the number rule",
                        ("free", "keep"),
                        reading="the number rule is checked 'when placing': a swap does not check it again"),
    "reveal_operation": Param("free", "an operation shown to swap: free (the rulebook lists no restriction for "
                              "it: any two cards) or forbidden (only medicine and patients may be shown)",
                              ("free", "forbidden"),
                              reading="the rulebook lists swap restrictions for patients and medicine only: an "
                                      "operation shown allows any swap"),
    "stalemate": Param("no-placement", "no-placement: a whole round without a placement ends the game and the "
                       "fewest cards win; no-move: only a whole round in which nobody could place or swap does; "
                       "never: play on (a round of passes is a stall without a result)",
                       ("no-placement", "no-move", "never"),
                       reading="the rulebook has no ending but an empty hand; ours: a whole round without a "
                       "placement ends the game and the fewest cards in hand win"),
    "fewer_cards": Param("none", "a house rule against the start player's race, not the rulebook's: the seats "
                         "named (1 starts; several joined with +, e.g. 3+4) are dealt one card fewer of the cards "
                         "dealt after the start, which are shown and discarded with the leftovers; none: the "
                         "rulebook's even deal"),
    "shown_card": Param("owner", "the card a player must show: owner (they choose it) or random",
                        ("owner", "random"),
                        reading="'pick a player who must show you a hand card': the player who shows chooses which "
                                "card"),
}


class Codes:
    """Action ranges for one compiled game (they depend on the number of cards,
    positions and wildcard choices).  Actions of one phase never interleave, and
    within the main phase every reveal sorts before every placement.  Placing a
    wildcard is two decisions: the card and position, then the type or number
    it is named (CHOOSE + choice)."""

    __slots__ = ("NC", "P", "NCH", "PASS", "REVEAL", "POS", "PICK", "SHOWC", "GIVE", "DISC", "CHOOSE", "PLACE",
                 "players")

    def __init__(self, ncards: int, npos: int, nchoice: int, players: int):
        self.NC, self.P, self.NCH, self.players = ncards, npos, nchoice, players
        self.PASS = 0
        self.REVEAL = 1  # + card
        self.POS = self.REVEAL + ncards  # + position (a swap's cards)
        self.PICK = self.POS + npos  # + player
        self.SHOWC = self.PICK + players  # + card
        self.GIVE = self.SHOWC + ncards  # + card * players + player
        self.DISC = self.GIVE + ncards * players  # + card
        self.CHOOSE = self.DISC + ncards  # + choice (type index * numbers + number index)
        self.PLACE = self.CHOOSE + nchoice  # + card * P + position

    def place(self, c: int, pos: int) -> int:
        return self.PLACE + c * self.P + pos

    def decode_place(self, a: int) -> tuple[int, int]:
        return divmod(a - self.PLACE, self.P)
