"""Lead changes, drama and decisiveness: the per-game function on hand-made
standings, the tally, and that reading standings changes no game."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from validator.games.pyramid_scheme.heuristics import strength
from validator.games.pyramid_scheme.state import State
from validator.metrics import Tally, TimeModel, game_quality, percent
from validator.runner import PlayOptions, play
from validator.summary import drama_summary
from validator.validate import Options, validate_game


def test_leader_changes_twice_and_the_winner_comes_back():
    # round 1: P1 ahead; round 2: P2 ahead, P1 one point behind; end: P1 ahead again
    q = game_quality([[10, 5], [8, 9], [12, 3]], [0])
    assert q["leaders"] == [0, 1, 0]
    assert q["lead_changes"] == 2 and q["led"] == 3
    assert q["behind"] == 1 and q["worst_place"] == 2 and q["deficit"] == 1
    assert q["decided"] == 3  # led for good only from the last standing on


def test_shared_leads_are_skipped_and_players_who_are_out_do_not_count():
    standings = [[5, 5, 5], [6, 6, 2], [7, 4, None], [None, 9, None]]
    q = game_quality(standings, [1])
    assert q["leaders"] == [None, None, 0, 1]
    assert q["lead_changes"] == 1 and q["led"] == 2  # P1 -> P2; the shared leads before are not a change
    # the winner (P2) is behind only in the third standing: second place, 3 points down (None is out, not ahead)
    assert q["behind"] == 1 and q["worst_place"] == 2 and q["deficit"] == 3
    assert q["decided"] == 4


def test_a_winner_who_leads_from_the_first_standing():
    q = game_quality([[3, 1, 2], [4, 2, 2], [9, None, 1]], [0])
    assert q["lead_changes"] == 0 and q["behind"] == 0 and q["worst_place"] == 1 and q["deficit"] == 0
    assert q["decided"] == 1


def test_a_winner_who_never_leads_alone():
    # e.g. the deck runs out and the winner has more smart-asses but a lower standing
    q = game_quality([[1, 5, 2], [2, 6, 2]], [0])
    assert q["leaders"] == [1, 1] and q["lead_changes"] == 0
    assert q["behind"] == 2 and q["worst_place"] == 3 and q["deficit"] == 4
    assert q["decided"] == 2  # the whole game: counted as decided at the end


def test_ties_and_games_without_a_winner_count_only_for_lead_changes():
    for winners in ([0, 1], []):
        q = game_quality([[2, 1], [1, 2], [3, 3]], winners)
        assert q["lead_changes"] == 1 and q["led"] == 2
        assert q["behind"] is q["worst_place"] is q["deficit"] is q["decided"] is None
    assert game_quality([], [0])["decided"] is None


def test_percent_rounds_half_up_in_integers():
    assert [percent(1, 3), percent(2, 3), percent(1, 8), percent(1, 200), percent(3, 3)] == [33, 67, 13, 1, 100]


def _tally(games):
    t = Tally()
    for standings, winners in games:
        t.add_quality(game_quality(standings, winners))
    return t


GAMES = [
    ([[10, 5], [8, 9], [12, 3]], [0]),  # 2 changes, behind 1 of 3 standings, decided at 3/3 = 100%
    ([[3, 1, 2], [4, 2, 2], [9, None, 1]], [0]),  # 0 changes, led throughout: 1/3 = 33%
    ([[1, 5, 2], [2, 6, 2]], [0]),  # 0 changes, behind 2 of 2, not before the end: 2/2 = 100%
    ([[2, 1], [1, 2], [3, 3]], [0, 1]),  # a tie: 1 change, no drama figures
]


def test_tally_counts_and_merges_in_any_order():
    whole = _tally(GAMES)
    assert whole.q_games == 4 and whole.q_decisive == 3
    assert whole.q_lead_changes == Counter({0: 2, 2: 1, 1: 1})
    assert whole.q_transitions == 2 + 2 + 1 + 1  # rows with a leader after the first, per game
    assert whole.q_behind_games == 2 and whole.q_behind_rows == 3 and whole.q_rows == 8
    assert whole.q_worst_place == Counter({2: 1, 1: 1, 3: 1}) and whole.q_deficit == Counter({1: 1, 4: 1})
    assert whole.q_decided == Counter({100: 2, 33: 1}) and whole.q_wire == 1 and whole.q_late == 2
    merged = Tally()
    for part in (_tally(GAMES[2:]), _tally(GAMES[:1]), _tally(GAMES[1:2])):
        merged.merge(part)
    assert merged == whole


def test_summary_of_the_tally(ps_spec):
    d = drama_summary(_tally(GAMES), ps_spec)
    assert d["games"] == 4 and d["games_with_one_winner"] == 3
    assert d["lead_changes"]["mean"] == 0.75 and d["lead_changes"]["games_with_a_change"]["count"] == 2
    assert d["lead_changes"]["per_round"] == round(3 / 6, 4)
    assert d["comebacks"]["winner_behind"]["rate"] == round(2 / 3, 4)
    assert d["comebacks"]["rounds_behind_share"] == round(3 / 8, 4)
    assert d["comebacks"]["deficit_overcome"]["max"] == 0.4  # standings are in tenths of a point
    assert d["decided"]["first_half"]["count"] == 1 and d["decided"]["led_throughout"]["count"] == 1
    assert d["decided"]["not_before_the_end"]["count"] == 2
    assert "smart-asses" in d["standing"]
    assert drama_summary(Tally(), ps_spec) is None


def test_standings_are_the_search_evaluation_in_tenths(make_game):
    g = make_game(3)
    state, _ = play(g, 77, ("greedy",) * 3, PlayOptions(turn_cap=12))
    alive = [q for q in range(3) if state.alive[q]]
    assert alive
    for q in range(3):
        value = state.standings()[q]
        if q in alive:
            assert isinstance(value, int) and value == round(10 * strength(state, q))
        else:
            assert value is None


def test_reading_standings_changes_no_game(make_game, monkeypatch):
    g = make_game(4)
    bots = ("greedy", "search", "random", "greedy")
    seen = {}
    for seed in (5, 6):
        state, stats = play(g, seed, bots, PlayOptions())
        seen[seed] = (state.record(), stats)
        assert 1 <= len(stats["standings"]) <= state.rounds  # one per round started, and one at the end
        assert all(len(row) == 4 for row in stats["standings"])
    monkeypatch.setattr(State, "standings", None)  # an engine without standings
    for seed in (5, 6):
        state, stats = play(g, seed, bots, PlayOptions())
        assert state.record() == seen[seed][0] and stats["standings"] == []
        assert {k: v for k, v in stats.items() if k != "standings"} == \
            {k: v for k, v in seen[seed][1].items() if k != "standings"}


def test_same_figures_for_any_worker_count(ps_data, tmp_path):
    blocks = []
    for workers in (1, 2):
        opts = Options(games=120, players=4, seed=3, workers=workers, skill_games=0, out=tmp_path / str(workers))
        validate_game(ps_data, opts)
        summary = json.loads((tmp_path / str(workers) / "pyramid-scheme" / "validation" / "summary.json").read_text())
        blocks.append(summary["drama"])
    assert blocks[0] == blocks[1]
    assert blocks[0]["games"] == 120 and sum(blocks[0]["lead_changes"]["histogram"].values()) == 120


def test_tallies_with_standings_stay_small(make_game):
    """Standings feed counts and histograms, never a list per game."""
    t = Tally()
    g = make_game(2)
    for seed in range(30):
        state, stats = play(g, seed, ("greedy", "greedy"), PlayOptions())
        t.add_game(seed, seed, state.record(), ("greedy", "greedy"), stats, TimeModel())
    assert t.q_games == 30
    assert all(isinstance(getattr(t, name), (int, Counter)) for name in vars(t) if name.startswith("q_"))


@pytest.mark.parametrize("players", [2, 3])
def test_every_game_of_a_run_has_standings(make_game, players):
    g = make_game(players)
    for seed in range(5):
        state, stats = play(g, 100 + seed, ("random",) * players, PlayOptions())
        rows = stats["standings"]
        assert rows and rows[-1] == state.standings()
        q = game_quality(rows, state.winners)
        if len(state.winners) == 1 and state.end == "last-standing":
            assert q["leaders"][-1] == state.winners[0]  # the last one standing leads at the end


def test_the_figures_come_from_the_first_games_of_a_long_run(ps_data, tmp_path):
    opts = Options(games=60, players=3, seed=4, workers=1, skill_games=0, out=tmp_path, drama_games=25)
    d = validate_game(ps_data, opts).summary["drama"]
    assert d["games"] == 25 and d["sample"] == "the first 25 of 60 games"
    assert sum(d["lead_changes"]["histogram"].values()) == 25
    html = (tmp_path / "pyramid-scheme" / "validation" / "report.html").read_text()
    assert "the first 25 of 60 games" in html
