"""report.html's charts and an engine's sections are drawn in a process of their own while the games
run (the main process only feeds the pool and merges), and the report is whole even when that process
fails: what it did not draw, the main process draws."""

from __future__ import annotations

import json
import os
import sys
from types import SimpleNamespace

import pytest

from validator.kit import ReportSection
from validator.report import Drawing

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the drawing process is forked")

MAIN = os.getpid()


def whose(s: dict) -> list[ReportSection]:
    """An engine's sections that say which process drew them."""
    return [ReportSection("who", "Who", "", f"<p>{os.getpid()} {s['figure']}</p>")]


def only_in_the_main_process(s: dict) -> list[ReportSection]:
    if os.getpid() != MAIN:
        raise RuntimeError("the drawing process fails")
    return whose(s)


def test_the_sections_are_drawn_in_another_process_and_taken_when_their_figures_hold():
    drawing = Drawing(SimpleNamespace(sections=whose))
    drawing.draw({"figure": 7})
    drawing.done()
    assert drawing.process is not None
    [section] = drawing.engine_sections({"figure": 7})
    pid, figure = section.body[3:-4].split()
    assert int(pid) != MAIN and figure == "7"
    # figures that changed since: drawn again, here
    [again] = drawing.engine_sections({"figure": 8})
    assert again.body == f"<p>{MAIN} 8</p>"


def test_the_final_summary_is_drawn_there_when_none_was_handed_before():
    drawing = Drawing(SimpleNamespace(sections=whose)).done({"figure": 3})
    [section] = drawing.engine_sections({"figure": 3})
    assert int(section.body[3:-4].split()[0]) != MAIN


def test_a_drawing_process_that_fails_leaves_the_drawing_to_the_main_process():
    drawing = Drawing(SimpleNamespace(sections=only_in_the_main_process))
    drawing.draw({"figure": 5})
    drawing.done()
    assert drawing.sections is None and not drawing.charts
    [section] = drawing.engine_sections({"figure": 5})
    assert section.body == f"<p>{MAIN} 5</p>"


def test_an_aborted_run_ends_the_drawing_process():
    drawing = Drawing(SimpleNamespace(sections=whose))
    [process] = drawing.process.procs
    drawing.abort()
    process.join(2)
    assert not process.is_alive()


def test_a_validation_report_is_the_same_drawn_there_or_here(ps_data, tmp_path):
    from validator.report import render_html
    from validator.validate import Options, validate_game

    validate_game(ps_data, Options(games=60, players=4, seed=3, workers=1, skill_games=0, out=tmp_path))
    folder = tmp_path / "pyramid-scheme" / "validation"
    summary = json.loads((folder / "summary.json").read_text())
    html = (folder / "report.html").read_text()
    assert html.count("<svg") == 6 and render_html(summary) == html
