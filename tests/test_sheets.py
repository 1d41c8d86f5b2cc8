"""The spreadsheet model: every kind of bad input gives its exact one-line message."""

import pytest

from model.errors import PnpError
from model.sheets import load_project

from helpers import REPO, copy_game, errors_of, find_row, read_rows, set_cell, write_rows


@pytest.fixture
def data(tmp_path):
    return copy_game(tmp_path / "data")


def test_bundled_pyramid_scheme_loads_with_rulebook_counts(project_root):
    game = load_project(project_root, ["pyramid-scheme"]).games["pyramid-scheme"]
    totals = {}
    for card in game.cards:
        totals[card.deck] = totals.get(card.deck, 0) + card.count
    assert totals == {"victim": 64, "police": 18, "founder": 4, "goal": 18, "token": 20, "aid": 4}
    victims = game.deck("victim")
    for color in ("green", "blue", "pink", "yellow"):
        numbers = sorted(c.number for c in victims if c.color == color)
        assert numbers == [1] * 5 + [2] * 4 + [3] * 3 + [4] * 2 + [5] * 2
    # every victim but the 1s has a condition and a reward
    assert all(bool(c.requires) == (c.number > 1) and bool(c.effect) == (c.number > 1) for c in victims)
    assert sum(1 for g in game.deck("goal") if g.source == "custom") == 1


def test_the_issue_example_message(data):
    set_cell(data / "cards.csv", 41, "number", "seven")
    assert errors_of(data) == ["cards.csv:41:number: 'seven' is not a whole number"]


def test_every_problem_is_reported_at_once(data):
    path = data / "cards.csv"
    set_cell(path, 3, "color", "purple")
    set_cell(path, 5, "count", "-2")
    set_cell(path, 7, "deck", "villain")
    set_cell(path, 20, "requires", "1 blue + 2 anyy")
    set_cell(path, 21, "effect", "teleport")
    set_cell(path, 9, "number", "9")
    assert errors_of(data) == [
        "cards.csv:3:color: unknown colour 'purple'; known colours: green, blue, pink, yellow",
        "cards.csv:5:count: '-2' is not a valid count; expected 1 or more copies",
        "cards.csv:7:deck: unknown deck 'villain' for pyramid-scheme; known decks: victim, police, founder, token, aid",
        "cards.csv:9:number: 9 is out of range; a victim takes 1 to 5",
        "cards.csv:20:requires: unknown word 'anyy' in '1 blue + 2 anyy'; known words: any, blue, green, pink, yellow",
        "cards.csv:21:effect: unknown word 'teleport' in 'teleport'; known words: discard, flip, flip-police, "
        "flip-silent, hand, limit, pass, reserve, reset, trash-police",
    ]


def test_duplicate_id_names_the_first_row(data):
    path = data / "cards.csv"
    first = read_rows(path)[1][2]
    set_cell(path, 10, "id", first)
    assert errors_of(data) == [f"cards.csv:10:id: duplicate id '{first}' in pyramid-scheme (first used on row 2)"]


def test_unknown_game_and_empty_cells(data):
    path = data / "cards.csv"
    set_cell(path, 4, "game", "pyramid-schem")
    set_cell(path, 6, "name", "")
    set_cell(path, 8, "count", "")
    row = find_row(path, "deck", "police")
    set_cell(path, row, "number", "")
    assert errors_of(data) == [
        "cards.csv:4:game: unknown game 'pyramid-schem'; known games: pyramid-scheme",
        "cards.csv:6:name: name is empty; every design needs a display name",
        "cards.csv:8:count: count is empty; expected the number of copies (1 or more)",
        f"cards.csv:{row}:number: number is empty; a police of pyramid-scheme needs one",
    ]


def test_a_count_past_a_print_run_and_an_id_too_long_for_a_file_name_are_one_line_each(data):
    # a billion copies would take the machine's memory imposing them; a 300-character id makes export
    # file names (GAME-DECK-ID-front.png) longer than a file system allows
    path = data / "cards.csv"
    set_cell(path, 4, "count", "1000000000")
    set_cell(path, 6, "id", "x" * 300)
    set_cell(path, 8, "count", "1000")  # the most a row may ask for
    assert errors_of(data) == [
        "cards.csv:4:count: 1,000,000,000 copies of one component; a row asks for at most 1,000 (print the sheet "
        "again for more)",
        "cards.csv:6:id: 'xxxxxxxxxxxxxxxxxxxx...' is 300 characters long; an id has at most 64 (it names the "
        "component's files)",
    ]


def test_missing_column(data):
    path = data / "cards.csv"
    rows = read_rows(path)
    i = rows[0].index("count")
    write_rows(path, [r[:i] + r[i + 1:] for r in rows])
    assert errors_of(data) == ["cards.csv:1:count: missing column 'count'; the header needs game, deck, id, name, count"]


def test_empty_file(data):
    (data / "cards.csv").write_text("", encoding="utf-8")
    assert errors_of(data) == ["cards.csv: the file is empty; expected a header row such as game, deck, id, name, "
                               "count, expansion, color, number, symbol, requires, effect, text"]


def test_wrong_encoding(data):
    path = data / "cards.csv"
    text = path.read_text(encoding="utf-8").replace("Penny Pincher", "Penny Pinchér")
    path.write_bytes(text.encode("latin-1"))
    assert errors_of(data) == ["cards.csv:2: not UTF-8 text (byte 0xe9); save the sheet as 'CSV UTF-8'"]


def test_goal_sheet_errors_name_goals_csv(data):
    path = data / "goals.csv"
    set_cell(path, 3, "requires", "5 victims colour=green")
    set_cell(path, 4, "source", "internet")
    assert errors_of(data) == [
        "goals.csv:3:requires: '5 victims colour=green': 'victims' has no parameter 'colour' (accepted: color, number)",
        "goals.csv:4:source: unknown source 'internet'; known: rulebook, custom",
    ]


def test_unknown_column_is_a_warning_and_value_in_unused_column_too(data):
    path = data / "cards.csv"
    rows = read_rows(path)
    rows[0].append("colour")
    for r in rows[1:]:
        r.append("")
    write_rows(path, rows)
    row = find_row(path, "deck", "token")
    set_cell(path, row, "number", "4")
    project = load_project(data)
    warnings = [str(w) for w in project.warnings]
    # one game of several decks: the hint names its manifest, and NAME for the deck
    assert any(w.startswith("cards.csv:1:colour: unknown column 'colour' is ignored; to use it, declare it in "
                            "templates/pyramid-scheme/game.toml under [decks.NAME.columns] (colour = {}); "
                            "known columns:") for w in warnings)
    assert f"cards.csv:{row}:number: '4' is ignored: a token of pyramid-scheme has no number" in warnings


def test_no_sheet_and_unknown_game_selection(tmp_path, data):
    with pytest.raises(PnpError, match="no cards.csv here"):
        load_project(tmp_path)
    with pytest.raises(PnpError, match="unknown game 'chess'; known games: pyramid-scheme"):
        load_project(data, ["chess"])


def test_xlsx_input(tmp_path, data):
    import pandas as pd

    frame = pd.read_csv(data / "cards.csv", dtype=str, keep_default_na=False)
    frame.loc[40 - 2, "number"] = "seven"  # spreadsheet row 40
    (data / "cards.csv").unlink()
    frame.to_excel(data / "cards.xlsx", index=False)
    assert errors_of(data) == ["cards.xlsx:40:number: 'seven' is not a whole number"]


@pytest.mark.parametrize("cell, said", [
    ("XFD2", "has 16,384 columns"),
    ("A1048576", "has more than 10,000 rows"),
])
def test_a_workbook_with_a_cell_far_away_is_one_line_read_in_little_memory(tmp_path, data, cell, said):
    # a few kilobytes of workbook whose farthest cell would make a table of millions of cells
    import subprocess
    import sys
    from pathlib import Path

    from openpyxl import Workbook, load_workbook

    rows = read_rows(data / "cards.csv")
    book = Workbook()
    for r in rows:
        book.active.append(r)
    book.active[cell] = "x"
    book.save(data / "cards.xlsx")
    (data / "cards.csv").unlink()
    assert load_workbook(data / "cards.xlsx", read_only=True).worksheets[0][cell].value == "x"
    # (its own peak, VmHWM: ru_maxrss would count the pages of the test process it was forked from)
    probe = ("import sys\nfrom model.sheets import load_project\nfrom model.errors import InputErrors\n"
             "try:\n    load_project(sys.argv[1])\nexcept InputErrors as e:\n    print(e.problems[0])\n"
             "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')))\n")
    done = subprocess.run([sys.executable, "-c", probe, str(data)], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[1])
    said_line, peak_kb = done.stdout.splitlines()
    assert said_line == (f"cards.xlsx: {said}; a sheet holds at most 10,000 rows of 200 columns (one row per design; "
                         "check for a stray cell far below or to the right)")
    assert int(peak_kb) < 400_000, peak_kb


def test_a_broken_row_of_another_game_does_not_stop_this_one(data):
    import shutil

    example = REPO / "docs" / "example"
    shutil.copytree(example / "templates" / "tiny-tombs", data / "templates" / "tiny-tombs")
    rows = read_rows(data / "cards.csv")
    extra = read_rows(example / "cards.csv")
    header = rows[0]
    rows += [[dict(zip(extra[0], r)).get(h, "") for h in header] for r in extra[1:]]
    write_rows(data / "cards.csv", rows)
    tomb = find_row(data / "cards.csv", "id", "ankh")  # a tiny-tombs relic
    set_cell(data / "cards.csv", tomb, "color", "silver")
    assert errors_of(data) == [f"cards.csv:{tomb}:color: unknown colour 'silver'; known colours: gold, clay, lapis"]
    assert errors_of(data, ["tiny-tombs"]) == errors_of(data)
    load_project(data, ["pyramid-scheme"])  # the other game's mistake does not concern this build


def test_semicolon_separated_sheets_load_too(data):
    rows = read_rows(data / "cards.csv")
    rows[40][rows[0].index("number")] = "seven"
    (data / "cards.csv").write_text("\n".join(";".join(r) for r in rows) + "\n", encoding="utf-8")
    assert errors_of(data) == ["cards.csv:41:number: 'seven' is not a whole number"]


def test_whole_numbers_written_as_decimals_are_accepted(data):
    set_cell(data / "cards.csv", 41, "number", "3.0")
    set_cell(data / "cards.csv", 42, "number", "3.5")
    assert errors_of(data) == ["cards.csv:42:number: '3.5' is not a whole number"]


# ------------------------------------------------------------------ headers
def _rename(path, old, new):
    rows = read_rows(path)
    rows[0][rows[0].index(old)] = new
    write_rows(path, rows)


@pytest.mark.parametrize("typo,meant", [("txt", "text"), ("colour", "color"), ("Name", "name"), ("Count", "count"),
                                        ("expansions", "expansion"),
                                        ("nmae", "name"), ("nmber", "number"), ("requries", "requires")])
def test_a_header_typo_is_one_error_that_names_the_column_meant(data, typo, meant):
    _rename(data / "cards.csv", meant, typo)
    # one line: no 'color is empty' for every row, no 'missing column' beside it
    assert errors_of(data) == [f"cards.csv:1:{typo}: unknown column '{typo}'; did you mean '{meant}'?"]


def test_a_missing_required_column_is_one_error(data):
    rows = read_rows(data / "cards.csv")
    i = rows[0].index("color")
    write_rows(data / "cards.csv", [r[:i] + r[i + 1:] for r in rows])
    victims = find_row(data / "cards.csv", "deck", "victim")
    assert errors_of(data) == [f"cards.csv:1:color: no column 'color' in the header; victims of pyramid-scheme need "
                               f"it (64 rows, the first on row {victims})"]


def test_an_unrelated_unknown_header_is_a_warning_shown_with_the_errors(data):
    from model.errors import InputErrors

    _rename(data / "cards.csv", "symbol", "artist")
    set_cell(data / "cards.csv", 41, "number", "seven")
    with pytest.raises(InputErrors) as exc:
        load_project(data)
    assert [str(p) for p in exc.value.problems] == ["cards.csv:41:number: 'seven' is not a whole number"]
    assert [str(p) for p in exc.value.warnings][0].startswith("cards.csv:1:artist: unknown column 'artist' is ignored")


def test_two_files_for_one_sheet_are_an_error_naming_both(data):
    import pandas as pd

    pd.read_csv(data / "cards.csv", dtype=str, keep_default_na=False).to_excel(data / "cards.xlsx", index=False)
    assert errors_of(data) == ["cards.csv: cards.csv and cards.xlsx are both here: pnp would read cards.csv and "
                               "ignore the other, so edits to one of them would be lost; keep one (delete or rename "
                               "the other)"]
    (data / "cards.csv").unlink()
    assert load_project(data).games["pyramid-scheme"].cards  # the workbook alone is read


def test_control_characters_are_removed_with_a_warning(data):
    path = data / "cards.csv"
    row = find_row(path, "id", "g03")
    set_cell(path, row, "name", "Lawn\x07 Ranger\x1b[31m")
    set_cell(path, row + 1, "text", "first line\r\nsecond line")
    project = load_project(data)
    by_id = project.games["pyramid-scheme"].by_id()
    assert by_id["g03"].name == "Lawn Ranger[31m"
    assert by_id[read_rows(path)[row][2]].text == "first line\nsecond line"
    assert [str(w) for w in project.warnings] == [
        f"cards.csv:{row}:name: invisible control characters U+0007, U+001B removed: they cannot be printed"]


def test_an_unknown_column_of_a_sheet_of_several_games_says_where_columns_are_declared(tmp_path):
    data = copy_game(tmp_path / "data", "pyramid-scheme", REPO, "pyrrameds")
    path = data / "cards.csv"
    rows = read_rows(path)
    write_rows(path, [rows[0] + ["mood"]] + [r + [""] for r in rows[1:]])
    warnings = [str(w) for w in load_project(data).warnings]
    assert any(w.startswith("cards.csv:1:mood: unknown column 'mood' is ignored; to use it, declare it under "
                            "[decks.NAME.columns] (mood = {}) in its game's game.toml; known columns:")
               for w in warnings), warnings
