"""The goal words of ``goals.csv``: one row per word with everything the engine
knows about it.

* ``met(pyr, n, col, num, g, resets)``: the rule - does this pyramid (with
  ``resets`` reset tokens held) satisfy ``n <word> [color=col] [number=num]``?
* ``near(pyr, n, col, num, g)``: could one placement and the flip it causes
  complete it?  (The greedy heuristic looks closer only at such goals.)  None:
  a placement alone never completes it.
* ``after(pyr, n, col, num, g, pl)``: is it met once the placement ``pl`` (see
  :class:`Placement`) and its flip are made?  None: a placement cannot change
  it, ``met`` answers.
* ``progress(pyr, n, col, num, g, resets)``: how far along, as a fraction of
  ``n`` (the heuristic caps it at 1).
* ``static(n, term, facts)``: what the deck itself rules out, as ``(severity,
  message)`` or None (``facts``: :class:`checks.DeckFacts`).

``col`` is a colour index or -1 (any); ``num`` a number or None (any).
"""

from __future__ import annotations

from typing import Callable, NamedTuple


class Placement(NamedTuple):
    """A card about to be placed below node ``v``: its colour and number, the
    depth it would sit at, whether the card above flips, and the colour (-2
    unless it is a victim) and number (None unless it flips) of the card above."""

    col: int
    num: int
    depth: int
    v: int
    flips: bool
    fcol: int
    fnum: int | None


class GoalWord(NamedTuple):
    word: str
    met: Callable[..., bool]
    near: Callable[..., bool] | None
    after: Callable[..., bool] | None
    progress: Callable[..., float]
    static: Callable[..., tuple[str, str] | None]


def _never(message: str) -> tuple[str, str]:
    return "error", "this goal can never be met: " + message


def _no_static(n, term, facts):
    return None


# -- n victims [color=C] [number=K]
def _victims_met(pyr, n, col, num, g, resets):
    if col < 0:
        return (pyr.n_victims if num is None else pyr.by_number.get(num, 0)) >= n
    return (pyr.by_color[col] if num is None else pyr.by_both.get((col, num), 0)) >= n


def _victims_near(pyr, n, col, num, g):
    if col < 0:
        return (pyr.n_victims if num is None else pyr.by_number.get(num, 0)) >= n - 1
    return (pyr.by_color[col] if num is None else pyr.by_both.get((col, num), 0)) >= n - 1


def _victims_after(pyr, n, col, num, g, pl):
    if col < 0:
        have = pyr.n_victims if num is None else pyr.by_number.get(num, 0)
    else:
        have = pyr.by_color[col] if num is None else pyr.by_both.get((col, num), 0)
    return have + ((col < 0 or col == pl.col) and (num is None or num == pl.num)) >= n


def _victims_static(n, term, facts):
    col, num = term.kw("color"), term.kw("number")
    have = sum(c.count for c in facts.victims if (col is None or c.color == col) and (num is None or c.number == num))
    return _never(f"needs {n} such victims; the deck has {have}") if have < n else None


VICTIMS = GoalWord(
    "victims",
    met=_victims_met,
    near=_victims_near,
    after=_victims_after,
    progress=lambda pyr, n, col, num, g, resets: pyr.victims(col, num) / n,
    static=_victims_static,
)

# -- each-number: one victim of every number the deck has
EACH_NUMBER = GoalWord(
    "each-number",
    met=lambda pyr, n, col, num, g, resets: all(pyr.by_number.get(k) for k in g.numbers),
    near=lambda pyr, n, col, num, g: sum(1 for k in g.numbers if not pyr.by_number.get(k)) <= 1,
    after=lambda pyr, n, col, num, g, pl: all(pyr.by_number.get(k) or k == pl.num for k in g.numbers),
    progress=lambda pyr, n, col, num, g, resets: sum(1 for k in g.numbers if pyr.by_number.get(k))
    / max(len(g.numbers), 1),
    static=lambda n, term, facts: None if facts.numbers else
    _never("needs one victim of each number; the deck has no victims"),
)

# -- N each-color: N victims of every colour
EACH_COLOR = GoalWord(
    "each-color",
    met=lambda pyr, n, col, num, g, resets: min(pyr.by_color) >= n,
    near=lambda pyr, n, col, num, g: sum(max(0, n - x) for x in pyr.by_color) <= 1,
    after=lambda pyr, n, col, num, g, pl: all(x + (k == pl.col) >= n for k, x in enumerate(pyr.by_color)),
    progress=lambda pyr, n, col, num, g, resets: sum(min(x, n) for x in pyr.by_color) / (n * len(pyr.by_color)),
    static=lambda n, term, facts: _never(f"needs {n} victims of each colour; the deck has "
                                         f"{min(facts.by_color.values(), default=0)} of one")
    if min(facts.by_color.values(), default=0) < n else None,
)

# -- all-colors-flipped: a smart-ass of every colour
ALL_COLORS_FLIPPED = GoalWord(
    "all-colors-flipped",
    met=lambda pyr, n, col, num, g, resets: min(pyr.f_color) >= 1,
    near=lambda pyr, n, col, num, g: sum(1 for x in pyr.f_color if not x) <= 1,
    after=lambda pyr, n, col, num, g, pl: all(x + (k == pl.fcol) >= 1 for k, x in enumerate(pyr.f_color)),
    progress=lambda pyr, n, col, num, g, resets: sum(1 for x in pyr.f_color if x) / len(pyr.f_color),
    static=_no_static,
)


# -- N same-color-flipped
def _same_color_static(n, term, facts):
    best = max((sum(c.count for c in facts.flippable if c.color == col) for col in facts.colors), default=0)
    if best < n:
        return _never(f"needs {n} smart-asses of one colour; at most {best} victims of a colour have a condition")
    return None


SAME_COLOR_FLIPPED = GoalWord(
    "same-color-flipped",
    met=lambda pyr, n, col, num, g, resets: max(pyr.f_color) >= n,
    near=lambda pyr, n, col, num, g: max(pyr.f_color) >= n - 1,
    after=lambda pyr, n, col, num, g, pl: max(x + (k == pl.fcol) for k, x in enumerate(pyr.f_color)) >= n,
    progress=lambda pyr, n, col, num, g, resets: max(pyr.f_color) / n,
    static=_same_color_static,
)


# -- N same-number-flipped (flipped police count with their number)
def _same_number_static(n, term, facts):
    per: dict[int, int] = {}
    for c in facts.flippable:
        per[c.number] = per.get(c.number, 0) + c.count
    if facts.police:
        per[facts.police[0].number] = per.get(facts.police[0].number, 0) + facts.n_police
    if max(per.values(), default=0) < n:
        return _never(f"needs {n} smart-asses with one number; no number has that many flippable cards")
    return None


SAME_NUMBER_FLIPPED = GoalWord(
    "same-number-flipped",
    met=lambda pyr, n, col, num, g, resets: max(pyr.f_number.values(), default=0) >= n,
    near=lambda pyr, n, col, num, g: max(pyr.f_number.values(), default=0) >= n - 1,
    after=lambda pyr, n, col, num, g, pl: max([m + (k == pl.fnum and pl.fcol >= 0) for k, m in pyr.f_number.items()]
                                              + [int(pl.fcol >= 0)]) >= n,
    progress=lambda pyr, n, col, num, g, resets: max(pyr.f_number.values(), default=0) / n,
    static=_same_number_static,
)


# -- N distinct-numbers-flipped (a flipped founder and police count)
def _distinct_met(pyr, n, col, num, g, resets):
    nums = {k for k, m in pyr.f_number.items() if m}
    if pyr.founder_flipped:
        nums.add(g.NUM[pyr.card[0]])
    return len(nums) >= n


def _distinct_after(pyr, n, col, num, g, pl):
    nums = {k for k, m in pyr.f_number.items() if m}
    if pyr.founder_flipped or (pl.flips and pl.v == 0):
        nums.add(g.NUM[pyr.card[0]])
    if pl.flips:
        nums.add(pl.fnum)
    return len(nums) >= n


def _distinct_static(n, term, facts):
    nums = {c.number for c in facts.flippable} | {c.number for c in facts.founders if c.requires}
    if facts.n_police:
        nums.add(facts.police[0].number)
    return _never(f"needs {n} different numbers among smart-asses; only {len(nums)} exist") if len(nums) < n else None


DISTINCT_NUMBERS_FLIPPED = GoalWord(
    "distinct-numbers-flipped",
    met=_distinct_met,
    near=lambda pyr, n, col, num, g: len([k for k, m in pyr.f_number.items() if m]) + pyr.founder_flipped >= n - 1,
    after=_distinct_after,
    progress=lambda pyr, n, col, num, g, resets: len([k for k, m in pyr.f_number.items() if m]) / n,
    static=_distinct_static,
)

# -- N branch-levels: a branch N cards deep, founder included, police not
BRANCH_LEVELS = GoalWord(
    "branch-levels",
    met=lambda pyr, n, col, num, g, resets: pyr.max_depth >= n,
    near=lambda pyr, n, col, num, g: pyr.max_depth >= n - 1,
    after=lambda pyr, n, col, num, g, pl: max(pyr.max_depth, pl.depth) >= n,
    progress=lambda pyr, n, col, num, g, resets: pyr.max_depth / n,
    static=lambda n, term, facts: (
        "warning", f"a branch {n} levels deep needs a smart-ass or a colour pass on it: {len(facts.colors)} colours "
                   f"give at most {1 + len(facts.colors)} levels otherwise") if n > 1 + len(facts.colors) else None,
)

# -- N limit-tokens placed in the pyramid
LIMIT_TOKENS = GoalWord(
    "limit-tokens",
    met=lambda pyr, n, col, num, g, resets: pyr.limits >= n,
    near=None,  # a placement alone never completes it
    after=None,
    progress=lambda pyr, n, col, num, g, resets: pyr.limits / n,
    static=lambda n, term, facts: _never(f"needs {n} limit tokens; the game has {sum(facts.limit_tokens.values())}")
    if sum(facts.limit_tokens.values()) < n else None,
)

# -- N reset-tokens held
RESET_TOKENS = GoalWord(
    "reset-tokens",
    met=lambda pyr, n, col, num, g, resets: resets >= n,
    near=None,
    after=None,
    progress=lambda pyr, n, col, num, g, resets: resets / n,
    static=lambda n, term, facts: _never(f"needs {n} reset tokens; the game has {facts.resets}")
    if facts.resets < n else None,
)


# -- N flipped-below-one: N smart-asses directly below the same card
def _below_one_after(pyr, n, col, num, g, pl):
    u = pyr.parent[pl.v]
    return max(pyr.max_fchild, (pyr.fchild[u] + 1) if pl.flips and u >= 0 else 0) >= n


FLIPPED_BELOW_ONE = GoalWord(
    "flipped-below-one",
    met=lambda pyr, n, col, num, g, resets: pyr.max_fchild >= n,
    near=lambda pyr, n, col, num, g: pyr.max_fchild >= n - 1 or n <= 1,
    after=_below_one_after,
    progress=lambda pyr, n, col, num, g, resets: pyr.max_fchild / n,
    static=_no_static,
)

# -- N flipped-police
FLIPPED_POLICE = GoalWord(
    "flipped-police",
    met=lambda pyr, n, col, num, g, resets: pyr.f_police >= n,
    near=None,
    after=None,
    progress=lambda pyr, n, col, num, g, resets: pyr.f_police / n,
    static=lambda n, term, facts: _never(f"needs {n} flipped police; the game has {facts.n_police}")
    if facts.n_police < n else None,
)

#: every goal word, in the order error messages list them; a term's ``kind`` is its index here
GOALS: tuple[GoalWord, ...] = (VICTIMS, EACH_NUMBER, EACH_COLOR, ALL_COLORS_FLIPPED, SAME_COLOR_FLIPPED,
                               SAME_NUMBER_FLIPPED, DISTINCT_NUMBERS_FLIPPED, BRANCH_LEVELS, LIMIT_TOKENS,
                               RESET_TOKENS, FLIPPED_BELOW_ONE, FLIPPED_POLICE)
GOAL_WORDS = tuple(w.word for w in GOALS)
BY_WORD = {w.word: w for w in GOALS}
MET = tuple(w.met for w in GOALS)
NEAR = tuple(w.near for w in GOALS)
AFTER = tuple(w.after for w in GOALS)
PROGRESS = tuple(w.progress for w in GOALS)
