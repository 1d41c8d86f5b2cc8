"""Pyramid, the drinking game: constants, action encoding and the rules options.

Actions: a lay is a bit mask of hand slots (0 = pass) chosen by every player
at once when a pyramid card is turned; ``GIVE + p`` names who drinks; ``ANSWER``
or ``REFUSE`` a question; ``ASK_NONE`` or ``ASK + k`` (the dealer asks the
question of turned pyramid card ``k``).
"""

from __future__ import annotations

from validator.kit import Param

ROW_SIZES = (6, 5, 4, 3, 2, 1)  # the 6-row first
ROW_VALUES = (1, 2, 4, 6, 8, 10)  # drinks per row, the 6-row first
PYRAMID = sum(ROW_SIZES)  # 21 cards
ROW_OF = tuple(r for r, size in enumerate(ROW_SIZES) for _ in range(size))
ROW_START = tuple(sum(ROW_SIZES[:r]) for r in range(len(ROW_SIZES)))

GIVE = 100  # GIVE + player: that player drinks
ANSWER, REFUSE = 200, 201
ASK_NONE = 300  # the dealer asks nothing
ASK = 301  # ASK + k: the dealer asks the question of pyramid card k

LAY, GIVING, ANSWERING, ASKING, OVER = range(5)
PHASE_NAMES = ("lay cards", "give drinks", "answer a question", "dealer's question", "over")

END_REASONS = {
    "explored": "the pyramid was explored to the top",
    "stockpile": "the exploration stopped: the stockpile ran out",
    "no-explorer": "every hand was empty: nobody explores",
    "turn-cap": "stopped at the turn cap (no result)",
    "loop": "stopped on a repeated position (no result)",
    "stuck": "no legal action the rules cover (no result)",
}
STANDING = "minus the sips drunk so far (the record's winner drinks fewest)"

PARAMS = {
    "questions": Param(True, "the question edition: a laid card's drinks go to one player, who answers the "
                       "card's question or drinks double; false: the classic game, drinks may be spread sip by "
                       "sip and no questions",
                       reading="the rulebook's last two points (one player drinks the row value and answers the "
                       "card's question or drinks double; the dealer's question) are read as the rules of this "
                       "question edition, replacing the spreading of drinks; questions=false is the classic game"),
    "hand_size": Param(0, "cards dealt to each player: 0 = the rulebook's (4 with fewer than 8 players, else 3)"),
    "royals": Param("1,11,12,13", "the ranks that restart the exploration (A, J, Q, K)"),
    "stockpile_out": Param("reshuffle", "the stockpile cannot replace the turned cards: reshuffle (the cards "
                           "turned before are shuffled into a new stockpile and the exploration goes on to the top, "
                           "as the rulebook's 'completed when the explorer has gotten through all rows') or end "
                           "(the exploration stops there)", ("reshuffle", "end"),
                           reading="the rulebook is silent on a stockpile that runs out and completes an "
                           "exploration only at the top: the cards turned before are shuffled into a new stockpile"),
    "explorer_tie": Param("lowest-card", "several players hold the most cards: lowest-card (each turns one of "
                          "their cards at random, the lowest rank explores, again on a tie) or random",
                          ("lowest-card", "random"),
                          reading="the rulebook names no explorer among players tied on the most cards: each turns "
                          "one of their cards at random and the lowest rank explores"),
    "dealer_refusal": Param("double", "the dealer's question: double (the player may refuse it and drink twice the "
                            "row value of the card asked about, the price of refusing the other question) or answer "
                            "(the player 'has to answer': no refusal)", ("double", "answer"),
                            reading="the rulebook prices refusing only the row-value question (drink double); a "
                            "refused dealer's question costs twice the row value of the card asked about"),
}
