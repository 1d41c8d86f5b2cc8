"""Static deck checks: what the sheets rule out before any game is played.

Counts against the rulebook, colour and number distributions, conditions no
arrangement can ever meet, goals the deck makes impossible (each goal word's
own check is its row in :mod:`.goals`), rewards whose tokens do not exist.
"""

from __future__ import annotations

from typing import NamedTuple

from model.checks import static_checks as sheet_checks
from model.errors import Problem
from model.sheets import Project

from .goals import BY_WORD


class DeckFacts(NamedTuple):
    """What the goal words' static checks read about the deck."""

    colors: tuple
    victims: list  # the victim rows
    flippable: list  # the victim rows with a condition
    police: list  # the police rows
    n_police: int
    founders: list  # the founder rows
    by_color: dict  # colour -> victims of it
    numbers: list  # the victims' numbers, sorted
    limit_tokens: dict  # amount -> limit tokens
    resets: int  # reset tokens


def static_checks(data, players: int = 4) -> list[Problem]:
    """Deck checks before any simulation: counts against the rulebook, colour and
    number distributions, conditions and goals no arrangement can ever meet,
    rewards whose tokens do not exist."""
    out: list[Problem] = []
    for p in sheet_checks(Project(root=None, games={data.slug: data}, problems=None)):
        out.append(p)
    colors = tuple(data.manifest.colors)
    victims = [c for c in data.cards if c.deck == "victim"]
    tokens = [c for c in data.cards if c.deck == "token"]
    police = [c for c in data.cards if c.deck == "police"]
    founders = [c for c in data.cards if c.deck == "founder"]
    goals = [c for c in data.cards if c.deck == "goal"]
    by_color = {col: sum(c.count for c in victims if c.color == col) for col in colors}
    min_number = {col: min((c.number for c in victims if c.color == col), default=None) for col in colors}
    numbers = sorted({c.number for c in victims})
    limit_tokens: dict[int, int] = {}
    resets = passes = 0
    for t in tokens:
        for term in t.effect:
            if term.word == "limit":
                limit_tokens[term.args[0]] = limit_tokens.get(term.args[0], 0) + t.count
            elif term.word == "reset":
                resets += t.count
            elif term.word == "pass":
                passes += t.count
    all_limits = sum(a * n for a, n in limit_tokens.items())
    n_police = sum(c.count for c in police)

    def problem(card, column, message, severity="error"):
        out.append(Problem(card.sheet, card.row, column, message, severity))

    counts = sorted(set(by_color.values()))
    if len(counts) > 1:
        out.append(Problem("cards.csv", None, "color", "victims per colour differ: " + ", ".join(
            f"{col} {n}" for col, n in by_color.items()) + "; the colour rule and goals treat colours alike",
            "warning"))
    per_number = {col: sorted(c.number for c in victims if c.color == col for _ in range(c.count)) for col in colors}
    shapes = {tuple(v) for v in per_number.values()}
    if len(shapes) > 1:
        out.append(Problem("cards.csv", None, "number", "the numbers differ between colours: " + "; ".join(
            f"{col} {_histogram(v)}" for col, v in per_number.items()), "warning"))
    for card in victims + founders:
        if not card.requires:
            continue
        need_colors: dict[str, int] = {}
        total = 0
        for term in card.requires:
            total += term.count
            if term.word != "any":
                need_colors[term.word] = need_colors.get(term.word, 0) + term.count
        smallest = min((c.number for c in victims), default=1)
        low = sum(min_number.get(col) or 99 for col, k in need_colors.items() for _ in range(k)) + \
            smallest * (total - sum(need_colors.values()))
        number = card.number or 0
        for col, k in need_colors.items():
            if by_color.get(col, 0) < k:
                problem(card, "requires", f"needs {k} {col} victim(s) below it; the deck has {by_color.get(col, 0)}")
            elif card.deck == "victim" and col == card.color:
                if passes < k:
                    problem(card, "requires", f"needs {k} {col} victim(s) below a {col} card: the colour rule "
                            f"forbids it and the game has only {passes} colour pass token(s)")
                else:
                    problem(card, "requires", f"needs {col} below a {col} card: only a colour pass token makes "
                            "that possible", "warning")
        if low > number:
            if low > number + all_limits:
                problem(card, "requires", f"can never be met: the victims it needs add up to at least {low}, more "
                        f"than its number {number} even with every limit token")
            else:
                problem(card, "requires", f"can never be met within its number: the victims it needs add up to "
                        f"at least {low} but its number is {number} (only limit tokens, +{low - number}, make room)")
        if card.deck == "founder" and total == 0:
            problem(card, "requires", "a founder without a condition never flips", "warning")
    for card in victims + founders:
        for term in card.effect:
            if term.word == "limit" and term.args[0] not in limit_tokens:
                have = ", ".join(f"+{a}" for a in sorted(limit_tokens)) or "none"
                problem(card, "effect", f"'limit {term.args[0]}' does not resolve: the tokens have no +{term.args[0]} "
                        f"limit token (they have: {have})")
            if term.word in ("reset", "pass") and not (resets if term.word == "reset" else passes):
                problem(card, "effect", f"'{term.word}' does not resolve: the tokens have no {term.word} token")
    # goals: each word's row in the goal table says what the deck rules out
    facts = DeckFacts(colors, victims, [c for c in victims if c.requires], police, n_police, founders, by_color,
                      numbers, limit_tokens, resets)
    for card in goals:
        for term in card.requires:
            word = BY_WORD.get(term.word)
            found = word.static(term.count, term, facts) if word is not None else None
            if found:
                severity, message = found
                out.append(Problem(card.sheet, card.row, "requires", message, severity))
    goals_needed = 6
    if sum(g.count for g in goals) < goals_needed:
        out.append(Problem("goals.csv", None, "count", f"setup opens {goals_needed} goals; the sheet has "
                           f"{sum(g.count for g in goals)}"))
    police_needed = goals_needed * (players - 1)
    if n_police < police_needed:
        out.append(Problem("cards.csv", None, "count", f"{goals_needed} goals can send {police_needed} police in a "
                           f"{players}-player game; there are {n_police} (when they run out, nobody places one)",
                           "warning"))
    return out


def _histogram(values: list[int]) -> str:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return " ".join(f"{k}x{n}" for k, n in sorted(counts.items()))

