"""docs/engine-tutorial.md: its code, taken exactly as the page shows it, is the example
game's engine, passes --conformance, and writes the report the page describes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

REPO = Path(__file__).resolve().parents[1]
TUTORIAL = REPO / "docs" / "engine-tutorial.md"
EXAMPLE = REPO / "docs" / "example"
RULES = "templates/tiny-tombs/rules/"
FENCE = re.compile(r'^```python title="([^"]+)"\n(.*?)^```$', re.M | re.S)
TOP_LEVEL = re.compile(r"(def |class |@)")


def tutorial_files() -> dict[str, str]:
    """Each file the page writes: its fenced blocks tagged ``title="FILE"``, in order; a block
    that starts a top-level definition follows two blank lines, any other one blank line."""
    files: dict[str, str] = {}
    for m in FENCE.finditer(TUTORIAL.read_text(encoding="utf-8")):
        path, code = m.group(1), m.group(2)
        if path in files:
            files[path] += ("\n\n" if TOP_LEVEL.match(code) else "\n") + code
        else:
            files[path] = code
    return files


def test_the_page_writes_the_example_engine_exactly():
    files = tutorial_files()
    assert sorted(files) == [RULES + n for n in ("__init__.py", "bots.py", "game.py", "report.py")]
    for path, text in files.items():
        assert (EXAMPLE / path).read_text(encoding="utf-8") == text, f"{path} differs from the tutorial's code"
    assert sorted(p.name for p in (EXAMPLE / RULES).glob("*.py")) == sorted(Path(p).name for p in files)
    lines = sum(text.count("\n") for text in files.values())
    assert lines <= 450, f"the tutorial's engine has {lines} lines"


@pytest.fixture(scope="module")
def tutorial_game(tmp_path_factory) -> Path:
    """The example game with the engine written from the page alone."""
    folder = tmp_path_factory.mktemp("tutorial") / "example"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("output", "rules"))
    for path, text in tutorial_files().items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder


def test_the_tutorials_engine_passes_conformance(tutorial_game):
    result = CliRunner().invoke(main, ["validate", "tiny-tombs", "--data", str(tutorial_game), "--conformance"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "tiny-tombs: every check held" in result.output
    assert "FAILED" not in result.output


def test_the_tutorials_command_writes_the_report_it_describes(tutorial_game):
    result = CliRunner().invoke(main, ["validate", "--data", str(tutorial_game)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    folder = tutorial_game / "output" / "tiny-tombs" / "validation"
    assert sorted(p.name for p in folder.iterdir()) == ["games.csv", "report.html", "summary.json"]
    html = (folder / "report.html").read_text(encoding="utf-8")
    for heading in ("Run record", "Static deck checks", "Game length", "Outcome", "Lead and drama", "Relics",
                    "Skill", "Failures"):
        assert f"<h2>{heading}</h2>" in html
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["games"] == 1000 and summary["run"]["players"] == 4
    status = {v["check"]: v["status"] for v in summary["verdicts"]}
    assert status == {"static checks": "PASS", "game length": "WARN", "seat balance": "WARN", "ties": "PASS",
                      "stalls": "PASS", "curses": "WARN", "skill": "PASS", "decisions": "PASS"}
    # the figures the page quotes are the ones the run gives
    page = TUTORIAL.read_text(encoding="utf-8")
    assert f"a median of {summary['length']['minutes']['median']} minutes" in page
    assert f"{summary['curses']['harmless_share'] * 100:.1f} % of the curses played found an empty hoard" in page
    skill = summary["skill"]["matrix"]
    assert (f"greedy wins {skill['greedy']['random']['rate'] * 100:.0f} % of its seats against random's "
            f"{skill['random']['greedy']['rate'] * 100:.0f} %") in page
    seats = [round(s["rate"] * 100) for s in summary["outcome"]["seats"]]
    assert f"({seats[0]} % and {seats[3]} %) than the second\n  and the third ({seats[1]} % and {seats[2]} %)" in page
    relics = {r["id"]: r for r in summary["relics"]}
    assert relics["mask"]["stolen"] == relics["mask"]["swapped"] == 0  # "the mask never"
    for card in ("scarab", "ankh"):
        r = relics[card]
        assert (r["stolen"] + r["swapped"]) / r["played"] > 0.5  # "changing hands in more than half of their plays"
