"""Pyramid Scheme's constants: components, the action encoding, phases, the
words of its small languages, how games end, and the rules options.

Every reading of an unclear rule is in docs/rules-notes.md (section "Pyramid
Scheme"); the switchable ones are the options in :data:`PARAMS`.
"""

from __future__ import annotations

from validator.kit import Param

# ------------------------------------------------------------------ components
VICTIM, POLICE, FOUNDER = 0, 1, 2

# ------------------------------------------------------------------ actions
# Small ints, sorted by kind: take a display slot, spend a reset token,
# end/skip, yes, a target (node, goal or hand index), a placement.
TAKE = 0          # TAKE + slot (slots 0..9)
RESET = 10        # spend a reset token: refresh the display
END = 11          # end the turn / skip an optional reward / stop discarding
YES = 12          # flip the card whose condition is met (rules option optional_flip)
TARGET = 1000     # TARGET + node index, goal index or hand index
PLACE = 100_000   # PLACE + hand index * HSTRIDE + node index
HSTRIDE = 1000

# ------------------------------------------------------------------ phases: who decides what
MAIN, ENDTURN, OFFER, LIMIT, FLIP, FLIP_SILENT, TRASH, FLIP_POLICE, RESERVE, DISCARD, POLICE_PLACE, OVER = range(12)
PHASE_NAMES = ("main", "end of turn", "flip offer", "limit token", "flip (with reward)", "flip (no reward)",
               "trash police", "flip police", "reserve goal", "discard", "place police", "over")

# ------------------------------------------------------------------ words of the sheets
REWARD_WORDS = ("hand", "discard", "reset", "limit", "pass", "flip", "flip-silent", "trash-police", "flip-police",
                "reserve")
TOKEN_WORDS = ("reset", "limit", "pass")
# the goal words are the rows of goals.GOALS

# ------------------------------------------------------------------ how games end
END_REASONS = {
    "last-standing": "one player left standing",
    "deck": "the deck ran out; most smart-asses won",
    "deck-tie": "the deck ran out; smart-ass count tied",
    "turn-cap": "stopped at the turn cap (no winner)",
    "loop": "stopped on a repeated position (no winner)",
    "stuck": "no legal action the rules cover (no winner)",
}
ELIMINATION_CAUSES = {
    "actions": "could not do the 2 actions",
    "police": "could not place a police",
}
STANDING = ("the search bot's evaluation of a player's position: smart-asses + 1.5 per card with room for a police "
            "below it (up to 3) + 0.3 per point of free room below cards + 2 per goal claimed + 0.5 per reset token "
            "+ 0.5 per point the hand limit has risen")

# what the record counts per game (GameRecord.counters)
COUNTERS = {
    "police_placed": "police placed in pyramids",
    "police_short": "police a goal would have sent when the supply was empty",
    "resets_spent": "reset tokens spent",
    "passes_spent": "colour passes spent",
    "reshuffles": "discard piles shuffled into a new deck",
    "limit_short": "limit rewards lost to an empty supply",
    "reset_short": "reset rewards lost to an empty supply",
    "pass_short": "colour-pass rewards lost to an empty supply",
}

# ------------------------------------------------------------------ rules options
PARAMS = {
    "condition_match": Param("at-least", "a flip condition needs at least (or exactly) the listed victims directly "
                             "below", ("at-least", "exactly"),
                             reading="'place directly below them the types of Victims indicated' is read as at least"
                                     " the listed victims: more below still meet it"),
    "deck_exhaustion": Param("deck-empty", "deck-empty: the game ends as soon as the deck is empty and there is "
                             "no discard pile to reshuffle; refill: only when a display slot cannot be refilled",
                             ("deck-empty", "refill")),
    "optional_flip": Param(False, "ask the player before flipping a card whose condition is met (a flip never "
                           "hurts its owner, so by default it happens at once)",
                           reading="'it's not mandatory to fulfill a condition, but if you do, you can ... flip': a "
                                   "met condition flips at once, since a flip never hurts its owner"),
    "crumbled_cards": Param("discard", "where a crumbled pyramid's victims and hand go: discard (may be "
                            "reshuffled) or out (removed from the game)", ("discard", "out"),
                            reading="the rulebook does not say where a crumbled pyramid's victims and hand go: to "
                                    "the discard pile"),
    "flip_reward_police": Param(True, "the flip rewards ('flip any other card') may flip a police",
                                reading="'flip any other card' may flip a police in the player's own pyramid"),
    "reset_after_actions": Param(True, "a reset token may be spent after the second action, before the turn ends"),
    "hands_hidden": Param(True, "victims dealt at setup are hidden from opponents until played (taken cards are "
                          "seen by everyone)"),
    "start_hand": Param(2, "victims dealt to each player"),
    "display": Param(3, "victims displayed below the deck"),
    "hand_limit": Param(3, "victims a player may hold before rewards raise it"),
    "actions": Param(2, "actions per turn"),
    "open_goals": Param(6, "goals opened at setup"),
    "start_resets": Param(1, "reset tokens each player takes from the supply at setup"),
}
