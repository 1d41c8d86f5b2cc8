"""Pyramid Shambo: constants, action encoding and the rules options.

Actions are small ints, sorted by kind: a throw (rock, paper, scissors), a
challenge target (``TARGET + player``), a payment plan (``PLAN + index`` into
the plans the position lists, in their canonical order).
"""

from __future__ import annotations

from validator.kit import Param

ROCK, PAPER, SCISSORS = 0, 1, 2
THROWS = ("rock", "paper", "scissors")
BEATS = (SCISSORS, ROCK, PAPER)  # BEATS[x]: the throw x beats
BEATEN_BY = (PAPER, SCISSORS, ROCK)  # BEATEN_BY[x]: the throw that beats x
TARGET = 10  # TARGET + player: challenge that player
PLAN = 100  # PLAN + i: settle the debt with payment plan i

# Phases: who decides what.
CHALLENGE, THROW, PAY, OVER = range(4)
PHASE_NAMES = ("choose a rival", "throw", "payment", "over")

# Kinds of debt.
FEE, BONUS = 0, 1
DEBT_NAMES = ("fee", "knock-out bonus")

# How a debt was settled (plan kinds).
EXACT, CHANGE_PAYEE, CHANGE_OTHER, SHORT, OVERPAY, UNDERPAY, SKIP = range(7)
PLAN_KINDS = ("exact", "change from the payee", "change from an uninvolved player", "everything held",
              "overpaid (no change)", "underpaid (no change)", "skipped")

END_REASONS = {
    "last-standing": "one player left standing",
    "wipe-out": "the last players went out together and share the win",
    "turn-cap": "stopped at the turn cap (no winner)",
    "loop": "stopped on a repeated position (no winner)",
    "stuck": "no legal action the rules cover (no winner)",
}
ELIMINATION_CAUSES = {
    "challenge": "lost a challenge they were called to",
    "own-challenge": "lost their own challenge (self-elimination)",
    "bonus": "paid their last piece as a knock-out bonus (cascade)",
    "colour": "their last pieces left with a knocked-out player's colour (cascade)",
}
STANDING = "pips held by the player (a large piece counts 3, a medium 2, a small 1)"

PARAMS = {
    "stashes": Param("auto", "how many stashes are on the table: auto takes a second one (every colour again, "
                     "as a further colour) when there are more players than colours; 1 refuses more players "
                     "than colours", ("auto", "1", "2")),
    "escalation": Param(1, "pips the fee grows by with each tie (the rulebook: 1 -> 2 -> 3 ...)"),
    "showdown": Param(True, "fees are doubled once only two players remain in a game that began with more"),
    "showdown_bonus": Param("doubled", "the knock-out bonus paid once only two remain (the knock-out that leaves "
                            "two): doubled like every payment, or single", ("doubled", "single"),
                            reading="the bonus for the knock-out that leaves two is paid once two remain, so the "
                                    "showdown doubles it"),
    "no_change": Param("overpay", "nobody can make change: overpay (the loser pays the smallest amount above the "
                       "fee they can) or underpay (the largest amount below it, maybe nothing)",
                       ("overpay", "underpay"),
                       reading="the rulebook is silent when nobody can make change: the loser pays the smallest "
                               "amount above the fee they can, without change"),
    "bonus_without_small": Param("pay", "a player owing the knock-out bonus holds no small pyramid: pay (its "
                                 "pips, with change like any payment) or skip (gives nothing)", ("pay", "skip"),
                                 reading="'give a small pyramid' from a player who holds none: its pips, paid with "
                                         "change like any payment"),
}
