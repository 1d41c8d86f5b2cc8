"""Static deck checks and the mapping from sheet data to rules."""

from __future__ import annotations

import dataclasses

import pytest

from model.lang import Expr, Term
from model.sheets import Game
from model.errors import RulesError
from validator.games.pyramid_scheme.checks import static_checks
from validator.kit import get_spec


def with_cards(data, change):
    """A copy of the game data with ``change(card) -> card | None`` applied to every card."""
    cards = [c2 for c in data.cards if (c2 := change(c)) is not None]
    return Game(data.manifest, cards)


def messages(problems, severity="error"):
    return [f"{p.file}:{p.row}: {p.message}" for p in problems if p.severity == severity]


def test_bundled_deck_has_no_static_errors(ps_data):
    problems = static_checks(ps_data, 4)
    assert messages(problems) == []
    # the 6-level goal needs a smart-ass (or a pass) on its branch: worth knowing, not an error
    assert any("6 levels deep" in m for m in messages(problems, "warning"))


def test_condition_needing_more_than_the_number_allows(ps_data):
    def change(c):
        if c.id == "g06":  # green 2 that needs 1 blue: make it need 3 victims
            return dataclasses.replace(c, requires=Expr((Term("blue"), Term("any", 2))))
        return c

    errors = messages(static_checks(with_cards(ps_data, change)))
    assert any(m.startswith("cards.csv:7: can never be met within its number: the victims it needs add up to at "
                            "least 3 but its number is 2") for m in errors)


def test_condition_needing_its_own_colour(ps_data):
    def change(c):
        if c.id == "g14":  # green 4 that needs 2 yellow: make it need 2 green
            return dataclasses.replace(c, requires=Expr((Term("green", 2),)))
        return c

    problems = static_checks(with_cards(ps_data, change))
    assert any("only a colour pass token makes that possible" in m for m in messages(problems, "warning"))
    no_pass = with_cards(with_cards(ps_data, change), lambda c: None if c.id == "t-pass" else c)
    assert any("the colour rule forbids it and the game has only 0 colour pass token(s)" in m
               for m in messages(static_checks(no_pass)))


def test_goal_that_can_never_be_met(ps_data):
    def change(c):
        if c.id == "g-green":
            return dataclasses.replace(c, requires=Expr((Term("victims", 17, (), (("color", "green"),)),)))
        return c

    errors = messages(static_checks(with_cards(ps_data, change)))
    assert any(m.startswith("goals.csv:2: this goal can never be met: needs 17 such victims; the deck has 16")
               for m in errors)


def test_reward_without_its_token(ps_data):
    def change(c):
        if c.id == "g10":
            return dataclasses.replace(c, effect=Expr((Term("limit", 1, (4,)),)))
        return c

    errors = messages(static_checks(with_cards(ps_data, change)))
    assert any("'limit 4' does not resolve: the tokens have no +4 limit token (they have: +2, +3)" in m for m in errors)


def test_uneven_colours_are_reported(ps_data):
    data = with_cards(ps_data, lambda c: None if c.id in ("g01", "g02") else c)
    warnings = messages(static_checks(data), "warning")
    assert any("victims per colour differ: green 14, blue 16, pink 16, yellow 16" in m for m in warnings)
    assert any("64 victims" not in m and "62 victims in the base game, the rulebook has 64" in m for m in warnings)


def test_the_engine_reads_numbers_conditions_and_rewards_from_the_sheet(ps_data, ps_spec):
    g = ps_spec.make(ps_data, 2)
    assert len(g.victims) == 64 and len(g.police) == 18 and len(g.founders) == 4 and len(g.goals) == 18
    assert g.sup_reset == 9 and g.sup_pass == 3 and g.sup_limit == {2: 4, 3: 4}
    y15 = next(c for c in g.victims if g.designs[g.DESIGN[c]].id == "y15")
    assert g.NUM[y15] == 5 and g.colors[g.COL[y15]] == "yellow"
    assert g.NEED_TOTAL[y15] == 3 and g.NEED[y15] == ((g.colors.index("green"), 1),)
    assert g.REWARD[y15] == (("flip", 0),)
    assert g.police_number == 3
    changed = with_cards(ps_data, lambda c: dataclasses.replace(c, number=4) if c.deck == "police" else c)
    assert ps_spec.make(changed, 2).police_number == 4


def test_unknown_words_are_clear_errors(ps_data, ps_spec):
    bad = with_cards(ps_data, lambda c: dataclasses.replace(c, effect=Expr((Term("teleport"),)))
                     if c.id == "g06" else c)
    with pytest.raises(RulesError, match="cards.csv:7:effect: the rules engine has no meaning for 'teleport'"):
        ps_spec.make(bad, 2)


def test_too_few_components_for_the_players(ps_data, ps_spec):
    three = with_cards(ps_data, lambda c: None if c.id in ("f-guru",) else c)
    ps_spec.make(three, 3)
    with pytest.raises(RulesError, match="4 players need 4 founders; the sheets have 3"):
        ps_spec.make(three, 4)


def test_rules_options_parse(ps_spec):
    opts = ps_spec.parse_options(["condition-match=exactly", "optional_flip=yes", "hand-limit=4"])
    assert opts == {"condition_match": "exactly", "optional_flip": True, "hand_limit": 4}
    with pytest.raises(Exception, match="is not a whole number"):
        ps_spec.parse_options(["hand-limit=many"])


def test_registry_knows_the_game():
    assert get_spec("pyramid-scheme").title == "Pyramid Scheme"
    with pytest.raises(Exception, match="no rules engine exists for 'no-such-game' yet"):
        get_spec("no-such-game")
