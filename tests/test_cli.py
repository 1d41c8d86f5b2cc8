"""The command line end to end: exit codes, files written, exact messages."""


import pypdf
import pytest
from click.testing import CliRunner

from pnp.cli import main

from helpers import REPO, copy_game, set_cell

SLUG = "pyramid-scheme"


@pytest.fixture
def data(tmp_path):
    return copy_game(tmp_path / "data")


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_check_good_sheets(data):
    code, output = run("check", "--data", data)
    assert code == 0
    # the rules engine's deck checks run too: a rulebook goal that needs a flip or a pass
    assert ("warning goals.csv:15:requires: a branch 6 levels deep needs a smart-ass or a colour pass on it: "
            "4 colours give at most 5 levels otherwise") in output.splitlines()
    floor = sum("pt floor" in line for line in output.splitlines())
    assert f"No errors, {1 + floor} warning(s)." in output


def test_check_broken_sheet_lists_every_error_and_exits_1(data):
    set_cell(data / "cards.csv", 41, "number", "seven")
    set_cell(data / "cards.csv", 12, "color", "mauve")
    code, output = run("check", "--data", data)
    assert code == 1
    lines = output.splitlines()
    assert "error cards.csv:12:color: unknown colour 'mauve'; known colours: green, blue, pink, yellow" in lines
    assert "error cards.csv:41:number: 'seven' is not a whole number" in lines
    assert "2 errors; nothing was written." in lines
    assert "Traceback" not in output


def test_build_writes_both_pdfs_and_a_summary(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", SLUG, "--data", data, "--out", out)
    assert code == 0, output
    assert (out / SLUG / f"{SLUG}-cards.pdf").is_file()
    assert (out / SLUG / f"{SLUG}-reference.pdf").is_file()
    assert f"wrote {out / SLUG / f'{SLUG}-cards.pdf'}" in output
    row = next(line for line in output.splitlines() if line.startswith("│ " + SLUG))
    ref_pages = len(pypdf.PdfReader(out / SLUG / f"{SLUG}-reference.pdf").pages)
    floor = sum("pt floor" in line for line in output.splitlines())
    assert [c.strip() for c in row.split("│")[2:6]] == ["128", "92", str(29 + ref_pages), str(floor)]


def test_build_letter_and_duplex_none(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out, "--page", "letter", "--duplex", "none")
    assert code == 0, output
    cards = pypdf.PdfReader(out / SLUG / f"{SLUG}-cards.pdf")
    backs = pypdf.PdfReader(out / SLUG / f"{SLUG}-backs.pdf")
    # Letter holds 3 x 2 poker cards inside the 4 mm printer margin: victims 64 -> 11 sheets, police 18 -> 3,
    # founders 4 -> 1, goals 18 -> 3; tokens and player aids one sheet each
    assert len(cards.pages) == 11 + 3 + 1 + 3 + 1 + 1
    assert len(backs.pages) == 11 + 3 + 1 + 3 + 1
    assert float(cards.pages[0].mediabox.height) == pytest.approx(279.4 * 72 / 25.4, abs=0.01)


def test_build_refuses_bad_options_and_input(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out, "--back-offset", "1mm")
    assert code == 2 and "'1mm' is not X,Y in millimetres" in output
    code, output = run("build", "chess", "--data", data, "--out", out)
    assert code == 1 and "error unknown game 'chess'; known games: pyramid-scheme" in output
    set_cell(data / "cards.csv", 41, "number", "seven")
    code, output = run("build", "--data", data, "--out", out)
    assert code == 1
    assert "error cards.csv:41:number: 'seven' is not a whole number" in output
    assert not out.exists(), "a failed build must not write anything"


def test_no_sheet_in_folder(tmp_path):
    code, output = run("check", "--data", tmp_path)
    assert code == 1 and "no cards.csv here" in output


def test_every_command_has_help_and_documentation():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name, command in main.all_commands().items():
        code, output = run(name, "--help")
        assert code == 0 and command.help
        assert f"pnp {name}" in readme, f"README does not document 'pnp {name}'"
        for param in command.params:
            if isinstance(param.opts, list) and param.opts[0].startswith("--"):
                assert param.opts[0] in readme, f"README does not document {name} {param.opts[0]}"


def test_a_designers_own_game_builds_without_code(tmp_path):
    example = REPO / "docs" / "example"
    out = tmp_path / "out"
    code, output = run("build", "--data", example, "--out", out)
    assert code == 0, output
    reader = pypdf.PdfReader(out / "tiny-tombs" / "tiny-tombs-cards.pdf")
    assert len(reader.pages) == 6  # 12 relics on two sheets, 2 curses on a third; each followed by its backs
    assert "Golden Scarab" in reader.pages[0].extract_text()
    # its pictures (SVG, kept vector), its own OFL font, and bold, italic and an icon typed into cells
    runs = []
    reader.pages[0].extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append(
        (str(font.get("/BaseFont", "")).split("+")[-1] if font else "", text.strip())))
    assert ("FredokaOne-Regular", "Golden Scarab") in runs
    assert ("DejaVuSerif-Bold", "Steal") in runs and ("DejaVuSerif-Italic", "Nobody may steal") in runs
    assert not any(":coin:" in text or "**" in text for _, text in runs)
    pdf = (out / "tiny-tombs" / "tiny-tombs-cards.pdf").read_bytes()
    assert pdf.count(b"/FormXob.pic") >= 4 and b"/Subtype /Image" not in pdf  # four vector pictures, no bitmaps
    ref = "\n".join(p.extract_text() for p in pypdf.PdfReader(out / "tiny-tombs" / "tiny-tombs-reference.pdf").pages)
    assert "Relics: 4 designs, 12 components (rulebook: 12, matches)" in ref
