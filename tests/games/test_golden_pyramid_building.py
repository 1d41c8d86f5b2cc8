"""The Golden Pyramid's rules engine on hand-built positions (``golden_positions``): building
(symbols, supports, columns, the builder), the pyramid's geometry, and data the engine refuses
before any game."""

from __future__ import annotations

import pytest

from model.errors import IllegalAction, InputErrors
from model.sheets import load_project
from validator.games.golden_pyramid import SPEC
from validator.games.golden_pyramid import geometry as geo
from validator.games.golden_pyramid.constants import BUILD, DEST, FORCED, MAIN, PLACE, PLACE_NO, TILE, TILE_OF

from golden_positions import data, make  # noqa: F401 - the fixtures the tests name
from golden_positions import SLUG, blank, cubes, design, fill, give, name_columns, own_tile, ready, tile
from helpers import find_row, set_cell


# ------------------------------------------------------------------ building rules
def test_a_card_whose_symbol_still_has_tiles_must_be_used(make):
    g = make(2)
    s = blank(g)
    for c in range(5):  # every sun tile is already in the pyramid
        tile(s, 1, 3, c % 4, symbol="sun", owner=1) if c < 4 else tile(s, 1, 2, 3, symbol="sun", owner=1)
    s.builder[1] = geo.pos_of(1, 3, 0)
    give(s, 0, "red-sun", "red-moon")
    ready(s)
    s.apply_action(BUILD + geo.pos_of(1, 0, 0))
    assert s.phase == MAIN  # only the moon card may build: chosen at once
    assert s.tile[geo.pos_of(1, 0, 0)] == g.symbols.index("moon")
    assert s.hands[0][design(g, "red-sun")] == 1


def test_without_a_tile_of_the_symbol_another_tile_scores_no_tile_points(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, owner=0)  # the fill takes stacks evenly; then empty the sun stack
    sun = g.symbols.index("sun")
    while s.tiles_left[sun]:
        spare = next(t for t in range(geo.NPOS) if geo.LEVEL[t] == 1 and s.tile[t] != sun)
        s.tiles_left[s.tile[spare]] += 1
        s.tiles_left[sun] -= 1
        s.tile[spare] = sun
    s.builder[0] = geo.pos_of(1, 0, 0)
    give(s, 0, "green-sun", "red-sun", "red-moon", "blue-eye", "blue-sun")
    cubes(s, 0, red=2, blue=2)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))
    # the eye (with tiles left) would have to be used, but without it only three columns are left:
    # green-sun is the one card that can name the tile - chosen at once - and no sun tile is left
    assert s.b_sym == design(g, "green-sun")
    assert s.phase == TILE and TILE_OF + sun not in s.legal_actions()
    s.apply_action(TILE_OF + g.symbols.index("lotus"))
    name_columns(s, "red-sun", "red-moon", "blue-eye", "blue-sun")
    assert s.pv["vp_levels"][0] == 0 and s.pv["vp_columns"][0] == 3 and s.pv["no_symbol"][0] == 1
    assert s.tile[geo.pos_of(2, 0, 0)] == g.symbols.index("lotus")


def test_an_upper_tile_needs_its_four_supports_and_a_card_of_its_value(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, skip=[(0, 0)])
    s.builder[0] = geo.pos_of(1, 1, 1)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    builds = {a - BUILD for a in s.legal_actions() if a >= BUILD and a < DEST}
    assert geo.pos_of(2, 0, 0) not in builds  # its north-west support is missing
    assert geo.pos_of(2, 1, 1) in builds and geo.pos_of(1, 0, 0) in builds
    # a value-1 card cannot name a level-2 tile: with only 1s, level 2 is out of reach
    s2 = blank(g)
    fill(s2, 1)
    s2.builder[0] = geo.pos_of(1, 0, 0)
    give(s2, 0, "red-sun", "red-moon", "blue-lotus", "purple-lotus", "green-eye")
    cubes(s2, 0, red=2, blue=1, purple=1, green=1)
    ready(s2)
    assert not any(BUILD <= a < DEST for a in s2.legal_actions())


def test_columns_need_a_card_and_a_cube_of_their_colour(make):
    g = make(2)
    s = blank(g)
    fill(s, 1)
    s.builder[0] = geo.pos_of(1, 0, 0)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, green=1)  # no purple cube: three columns only
    ready(s)
    assert not any(BUILD <= a < DEST for a in s.legal_actions())
    with pytest.raises(IllegalAction):
        s.apply_action(BUILD + geo.pos_of(2, 0, 0))


def test_the_builder_never_goes_down_a_level(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, skip=[(3, 3)])
    tile(s, 2, 0, 0, owner=0)
    s.builder[0] = geo.pos_of(2, 0, 0)
    give(s, 0, "red-sun")
    ready(s)
    s.apply_action(BUILD + geo.pos_of(1, 3, 3))
    assert s.builder[0] == geo.pos_of(2, 0, 0) and s.phase == MAIN  # no placement offered
    assert s.pv["builder_penalties"][0] == 1  # a builder on level 2 is not next to a level-1 tile


def test_the_below_reading_of_the_builder_penalty(make):
    g = make(2, builder_near="below")
    s = blank(g)
    fill(s, 1)
    s.builder[0] = geo.pos_of(1, 0, 2)  # next to a supporting tile of level 2 (0, 0), not one of them
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    assert s.pv["builder_penalties"][0] == 0
    s = blank(make(2))
    fill(s, 1)
    s.builder[0] = geo.pos_of(1, 0, 2)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    assert s.pv["builder_penalties"][0] == 1


def _fourth_column(make, own=False, **options):
    """Level 1 complete; level 2 (0,0), (0,1) and (1,0) built around level-1 tile (1,1); P1 builds level 2
    (1,1), whose NW column is the fourth on that tile.  On it stands P2's builder (``own``: P1's)."""
    g = make(2, **options)
    s = blank(g)
    fill(s, 1)
    for r, c in ((0, 0), (0, 1), (1, 0)):
        tile(s, 2, r, c, owner=1 if own else 0)
    if own:
        s.builder = [geo.pos_of(1, 1, 1), geo.pos_of(2, 0, 0)]
    else:
        s.builder = [geo.pos_of(2, 0, 0), own_tile(s, 1, 1, 1, 1)]
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    return ready(s)


def test_a_fourth_column_under_a_builder_forces_it_off(make):
    s = _fourth_column(make)
    assert s.ncol[geo.pos_of(1, 1, 1)] == 3
    s.apply_action(BUILD + geo.pos_of(2, 1, 1))
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    if s.phase == PLACE:
        s.apply_action(PLACE_NO)
    assert s.phase == FORCED and s.current_player() == 1
    dest = [a - DEST for a in s.legal_actions()]
    assert all(geo.LEVEL[t] == 1 and s.ncol[t] < 4 for t in dest) and geo.pos_of(1, 1, 1) not in dest
    s.apply_action(DEST + dest[0])
    assert s.builder[1] == dest[0] and s.vp[1] == -1 and s.pv["forced_penalties"][1] == 1
    assert s.phase == MAIN and s.tp == 1
    s.check_invariants()


def test_the_own_builder_on_the_covered_tile(make):
    for rule, loss in (("penalty", 1), ("free", 0)):
        s = _fourth_column(make, own=True, own_forced_move=rule)
        s.apply_action(BUILD + geo.pos_of(2, 1, 1))
        name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
        # his first tile of level 2: the builder goes on it, away from the covered tile
        assert s.builder[0] == geo.pos_of(2, 1, 1) and s.phase == MAIN
        assert s.pv["forced_penalties"][0] == loss


# ------------------------------------------------------------------ geometry
def test_every_upper_tile_stands_on_four_quarters_meeting_at_its_centre():
    """For all 14 upper positions: the four supporting quarters are on four different tiles of the level
    below forming a 2 x 2 square, each quarter touches the upper tile's centre, and no quarter carries
    two tiles."""
    seen = set()
    upper = [p for p in range(geo.NPOS) if geo.LEVEL[p] > 1]
    assert len(upper) == 14
    for p in upper:
        level, r, c = geo.LEVEL[p], geo.ROW[p], geo.COL[p]
        # a tile of level L, row r, column c covers [c + (L-1)/2, c + (L+1)/2] on the table
        cx, cy = c + level / 2, r + level / 2
        tiles = {q >> 2 for q in geo.SUPPORT[p]}
        assert len(tiles) == 4 and all(geo.LEVEL[t] == level - 1 for t in tiles)
        rows = sorted({geo.ROW[t] for t in tiles})
        cols = sorted({geo.COL[t] for t in tiles})
        assert rows == [r, r + 1] and cols == [c, c + 1]
        for q in geo.SUPPORT[p]:
            t, k = divmod(q, 4)
            half = (geo.LEVEL[t] - 1) / 2
            x0 = geo.COL[t] + half + (k % 2) * 0.5
            y0 = geo.ROW[t] + half + (k // 2) * 0.5
            corners = {(x0, y0), (x0 + 0.5, y0), (x0, y0 + 0.5), (x0 + 0.5, y0 + 0.5)}
            assert (cx, cy) in corners, (p, q)
            assert q not in seen
            seen.add(q)
    assert len(seen) == 56


def test_the_support_table_by_hand():
    # level 2, row 1, column 1 (centre of the 3 x 3): level-1 tiles (1,1) BR, (1,2) BL, (2,1) TR, (2,2) TL
    p = geo.pos_of(2, 0, 0)
    assert geo.SUPPORT[p] == (geo.pos_of(1, 0, 0) * 4 + 3, geo.pos_of(1, 0, 1) * 4 + 2,
                              geo.pos_of(1, 1, 0) * 4 + 1, geo.pos_of(1, 1, 1) * 4 + 0)
    assert geo.SUPPORT_TILES[29] == tuple(geo.pos_of(3, r, c) for r in (0, 1) for c in (0, 1))
    # the interior tiles of a level are the only ones that can carry four columns
    full = [t for t in range(geo.NPOS) if sum(geo.UPPER_OF[t * 4 + k] >= 0 for k in range(4)) == 4]
    assert full == [geo.pos_of(1, 1, 1), geo.pos_of(1, 1, 2), geo.pos_of(1, 2, 1), geo.pos_of(1, 2, 2),
                    geo.pos_of(2, 1, 1)]
    # neighbours of level 3 (0, 1)'s columns: its NW column stands on the bottom-right quarter of level-2
    # tile (0, 1), next to the bottom-left quarter that carries level 3 (0, 0); its SW column on the
    # top-right quarter of (1, 1), between the top-left (under level 3 (0, 0)) and the bottom-right
    # (under level 3 (1, 1))
    nb = geo.COLUMN_NEIGHBOURS[geo.pos_of(3, 0, 1)]
    assert nb[0] == (geo.pos_of(2, 0, 1) * 4 + 2,)
    assert sorted(nb[2]) == [geo.pos_of(2, 1, 1) * 4 + 0, geo.pos_of(2, 1, 1) * 4 + 3]
    assert nb[1] == ()  # the NE column is on the rim: nothing next to it carries a tile


# ------------------------------------------------------------------ data the engine refuses
def _errors(data_dir):
    data = load_project(data_dir, [SLUG]).games[SLUG]
    with pytest.raises(InputErrors) as exc:
        SPEC.make(data, 4)
    problems = SPEC.static_checks(data, 4)
    return [str(p) for p in exc.value.problems], [str(p) for p in problems if p.is_error]


def test_a_symbol_with_too_few_tiles(tmp_path, project_root):
    from helpers import copy_game

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    row = find_row(root / "cards.csv", "id", "tile-moon")
    set_cell(root / "cards.csv", row, "count", "3")
    made, checked = _errors(root)
    assert made == checked
    assert any(m.startswith(f"cards.csv:{row}:count:") and "needs 30 tiles" in m and "'moon' has 3" in m for m in made)


def test_a_colour_without_column_pieces(tmp_path, project_root):
    from helpers import copy_game, read_rows, write_rows

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    rows = read_rows(root / "cards.csv")
    rows = [r for r in rows if r[rows[0].index("id")] != "column-purple"]
    write_rows(root / "cards.csv", rows)
    made, _ = _errors(root)
    purple = find_row(root / "cards.csv", "id", "purple-sun")
    assert any(m.startswith(f"cards.csv:{purple}:color:") and "no column pieces of colour 'purple'" in m
               for m in made)


def test_no_card_able_to_build_level_four(tmp_path, project_root):
    from helpers import copy_game

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    for cid in ("red-scarab", "yellow-sun", "green-moon", "blue-eye", "purple-ankh", "black-lotus"):
        set_cell(root / "cards.csv", find_row(root / "cards.csv", "id", cid), "number", "3")
    made, _ = _errors(root)
    assert any(":number:" in m and "level 4 can never be built" in m for m in made)


def test_edited_rows_change_the_game(tmp_path, project_root):
    from helpers import copy_game

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    set_cell(root / "cards.csv", find_row(root / "cards.csv", "id", "column-red"), "count", "12")
    set_cell(root / "cards.csv", find_row(root / "cards.csv", "id", "red-sun"), "count", "5")
    data = load_project(root, [SLUG]).games[SLUG]
    g = SPEC.make(data, 4)
    assert g.bag0[g.colours.index("red")] == 12 and g.bag0[g.colours.index("blue")] == 15
    assert g.deck0.count(g.d_id.index("red-sun")) == 5 and len(g.deck0) == 75
    assert SPEC.make(data, 6).bag0[g.colours.index("blue")] == 18
