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
    assert ("warning goals.csv:15:requires: pyramid-scheme: a branch 6 levels deep needs a smart-ass or a colour pass "
            "on it: 4 colours give at most 5 levels otherwise") in output.splitlines()
    assert "No errors, 1 warning." in output


def test_check_broken_sheet_lists_every_error_and_exits_1(data):
    set_cell(data / "cards.csv", 41, "number", "seven")
    set_cell(data / "cards.csv", 12, "color", "mauve")
    code, output = run("check", "--data", data)
    assert code == 1
    lines = output.splitlines()
    assert "error cards.csv:12:color: unknown colour 'mauve'; known colours: green, blue, pink, yellow" in lines
    assert "error cards.csv:41:number: 'seven' is not a whole number" in lines
    assert "2 errors." in lines  # check writes nothing, and does not say it did not
    assert "Traceback" not in output


def test_build_writes_both_pdfs_and_a_summary(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", SLUG, "--data", data, "--out", out)
    assert code == 0, output
    assert (out / SLUG / f"{SLUG}-cards.pdf").is_file()
    assert (out / SLUG / f"{SLUG}-reference.pdf").is_file()
    assert f"wrote {out / SLUG / f'{SLUG}-cards.pdf'}" in output
    lines = output.splitlines()
    head = [line for line in lines if line.startswith("┃")]
    columns = [" ".join(words) for words in zip(*[[c.strip() for c in h.split("┃")[1:-1]] for h in head])]
    assert [c.strip() for c in columns] == ["game", "designs", "copies", "card pages", "ref. pages", "warnings",
                                            "seconds"]
    row = next(line for line in lines if line.startswith("│ " + SLUG))
    ref_pages = len(pypdf.PdfReader(out / SLUG / f"{SLUG}-reference.pdf").pages)
    # the deck checks' warning (goals.csv:15, as pnp check gives it) is shown and counted
    assert [c.strip() for c in row.split("│")[2:7]] == ["92", "128", "30", str(ref_pages), "1"]
    assert ("warning goals.csv:15:requires: pyramid-scheme: a branch 6 levels deep needs a smart-ass or a colour pass "
            "on it: 4 colours give at most 5 levels otherwise") in lines
    assert lines[-1].endswith("s. 1 warning (above).")


def test_build_letter_and_duplex_none(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out, "--page", "letter", "--duplex", "none")
    assert code == 0, output
    cards = pypdf.PdfReader(out / SLUG / f"{SLUG}-cards.pdf")
    backs = pypdf.PdfReader(out / SLUG / f"{SLUG}-backs.pdf")
    # Letter holds 2 x 3 poker cards (turned, with their full bleed): victims, police, founders and goals,
    # 104 cards, share 18 sheets; 4 player aids (2 a sheet) 2 sheets; tokens one; no blank pages without duplex
    assert len(cards.pages) == 18 + 2 + 1
    assert len(backs.pages) == 18 + 2
    assert float(cards.pages[0].mediabox.height) == pytest.approx(279.4 * 72 / 25.4, abs=0.01)


def test_build_only_some_components_writes_them_with_their_backs(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out, "--only", "g01,police", "--only", "t-reset")
    assert code == 0, output
    assert sorted(p.name for p in (out / SLUG).iterdir()) == [f"{SLUG}-selected.pdf"]  # no reference, no full deck
    reader = pypdf.PdfReader(out / SLUG / f"{SLUG}-selected.pdf")
    # g01 and the 18 police share 3 sheets of 8 poker cards, then the 9 reset tokens: 4 sheets, 8 pages
    assert len(reader.pages) == 8
    text = [p.extract_text() for p in reader.pages]
    assert "Penny Pincher" in text[0] and "Lawn Lover" not in " ".join(text)
    assert "backs, flip on long edge" in text[1] and "SMART-ASS" in text[1]
    assert "Tokens · fronts" in text[6] and "blank" in text[7]
    code, output = run("build", "--data", data, "--out", out, "--only", "g01,zz9")
    assert code == 2 and "no component with the id 'zz9' in pyramid-scheme" in output
    assert sorted(p.name for p in (out / SLUG).iterdir()) == [f"{SLUG}-selected.pdf"]


def test_build_on_other_paper_with_less_bleed_or_shared_cut_lines(data, tmp_path):
    code, output = run("build", "--data", data, "--out", tmp_path / "a3", "--page", "a3")
    assert code == 0, output
    page = pypdf.PdfReader(tmp_path / "a3" / SLUG / f"{SLUG}-cards.pdf").pages[0]
    assert [round(float(v) * 25.4 / 72, 1) for v in page.mediabox[2:]] == [297.0, 420.0]
    assert "a3: 16 per page (4 x 4), the full 3 mm bleed kept on every side" in output
    code, output = run("build", "--data", data, "--out", tmp_path / "custom", "--page", "230x300", "--bleed", "1.5")
    assert code == 0, output
    page = pypdf.PdfReader(tmp_path / "custom" / SLUG / f"{SLUG}-reference.pdf").pages[0]
    assert [round(float(v) * 25.4 / 72, 1) for v in page.mediabox[2:]] == [230.0, 300.0]
    assert "230 x 300 mm: 9 per page (3 x 3), 1.5 mm of the 3 mm bleed kept on every side" in output
    code, output = run("build", "--data", data, "--out", tmp_path / "shared", "--layout", "shared")
    assert code == 0 and "a4: 9 per page (3 x 3), neighbours share their cut lines" in output
    assert "shared cut lines" in output  # the summary's title says how it was laid out
    for bad, message in ((("--page", "b7"), "unknown page size 'b7'"), (("--page", "10x300"), "out of range"),
                         (("--bleed", "-1"), "-1")):
        code, output = run("build", "--data", data, "--out", tmp_path / "bad", *bad)
        assert code == 2 and message in output, output
    assert not (tmp_path / "bad").exists()


def test_a_back_offset_past_the_room_beside_the_grid_is_a_warning_that_says_how_far(data, tmp_path):
    # poker cards on A4 lie turned, two columns of 88.9 mm from x = 13.1 and 108 mm; over the long edge the
    # backs mirror (the right column's back from 210 - 196.9 = 13.1 mm, the left one's ending at 196.9 mm):
    # 10 mm to the right takes it to 206.9 mm, 0.9 mm past the printable edge at 210 - 4 mm
    code, output = run("build", "--data", data, "--out", tmp_path / "far", "--back-offset", "10,0")
    assert code == 0, output
    assert ("warning --back-offset: 10,0 takes the backs 0.9 mm into the printer margin (4 mm): a printer that "
            "cannot print there leaves that strip of the backs white") in output
    code, output = run("build", "--data", data, "--out", tmp_path / "near", "--back-offset", "8,-2")
    assert code == 0 and "--back-offset:" not in output, output


def test_build_refuses_bad_options_and_input(data, tmp_path):
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out, "--back-offset", "1mm")
    assert code == 2 and "'1mm' is not X,Y in millimetres" in output
    code, output = run("build", "--data", data, "--out", out, "--back-offset", "0,-12")
    assert code == 2 and "a back offset is at most 10 mm either way" in output and not out.exists()
    code, output = run("build", "chess", "--data", data, "--out", out)
    assert code == 2 and "error unknown game 'chess'; known games: pyramid-scheme" in output
    code, output = run("build", "--data", data, "--out", out, "--expansion", "chess")
    assert code == 2 and "error unknown expansion 'chess' for pyramid-scheme; known: base" in output
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
    assert len(reader.pages) == 4  # 12 relics and 2 curses (one back) share two sheets; each followed by its backs
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


def test_a_bug_is_told_as_a_bug_with_its_traceback(data, tmp_path, monkeypatch):
    import generator.build

    def broken(*args, **kwargs):
        raise RuntimeError("an internal mistake")

    monkeypatch.setattr(generator.build, "build_games", broken)
    result = CliRunner().invoke(main, ["build", "--data", str(data), "--out", str(tmp_path / "out")])
    assert result.exit_code == 3
    lines = result.output.splitlines()
    assert "Traceback (most recent call last):" in lines and 'RuntimeError: an internal mistake' in lines
    assert "bug RuntimeError: an internal mistake" in lines
    assert lines[-1].startswith("This is a bug in pnp 0.1.0, not a mistake in your files. Please report it")


def test_check_renders_every_design_and_writes_nothing(data, tmp_path):
    import os

    police = data / "templates" / SLUG / "police.svg.j2"
    lines = police.read_text(encoding="utf-8").splitlines()
    lines.insert(4, "{{ card.nmae }}")  # inside the body block
    police.write_text("\n".join(lines) + "\n", encoding="utf-8")
    long = "A name far too long to fit on a victim card, however small the letters get on it"
    set_cell(data / "cards.csv", 2, "name", long)
    before = sorted(os.walk(data))
    code, output = run("check", "--data", data)
    assert code == 1
    out = output.splitlines()
    assert (f"error templates/{SLUG}/police.svg.j2:5: card has no column 'nmae'; did you mean 'name'? "
            "(card 'police')") in out
    assert any(x.startswith("warning cards.csv:2:name: 'g01' (front): name does not fit its box") for x in out), output
    assert out[-1] == "1 error, 2 warnings."
    assert sorted(os.walk(data)) == before  # no output folder, no cache


def test_the_program_passes_on_its_exit_status_and_sets_its_objects_aside_as_it_ends():
    """``pnp`` (pnp.cli:run): the command's exit status, and the run's objects frozen (gc.freeze) rather than
    swept one by one as the interpreter ends."""
    import subprocess
    import sys
    import tomllib

    assert tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]["pnp"] == "pnp.cli:run"
    probe = ("import gc\nfrom pnp.cli import run\ntry:\n    run()\nexcept SystemExit as end:\n"
             "    print(end.code, gc.get_freeze_count() > 0)\n")
    for args, said in ((["--version"], "0 True"), (["build", "no-such-game", "--data", REPO], "2 True")):
        done = subprocess.run([sys.executable, "-c", probe, *map(str, args)], capture_output=True, text=True, cwd=REPO)
        assert done.stdout.splitlines()[-1] == said
