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
from validator.drawing import Drawing

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


def exits(s: dict):
    os._exit(3)


def hangs(s: dict):
    import time

    while True:
        time.sleep(0.05)


@pytest.mark.parametrize("sections, why", [(exits, "ended with exit code 3"),
                                           (hangs, "ran past its time limit (1 s)")])
def test_sections_that_end_or_hang_the_drawing_process_are_one_line_and_not_run_again(sections, why, monkeypatch):
    from model.errors import EngineError
    from validator import drawing as module

    monkeypatch.setattr(module, "DRAW_LIMIT", 1.0)
    drawing = Drawing(SimpleNamespace(sections=sections, slug="moon-base"))
    drawing.draw({"figure": 1})
    drawing.done()
    with pytest.raises(EngineError) as told:
        drawing.engine_sections({"figure": 1})  # (never in this process: it would end it, or hang)
    assert str(told.value) == ("the rules of moon-base: the process drawing the report (its charts and the engine's "
                               f"sections, GameSpec.sections) {why}; nothing was written")


def test_on_four_cores_the_charts_and_the_sections_are_drawn_at_once_by_two_processes(monkeypatch):
    from validator import drawing as module, report

    monkeypatch.setattr(module.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(report, "_CHART_INPUTS", [("pid", "figure")])
    monkeypatch.setattr(report, "_CHARTS", {"pid": lambda block: f"{os.getpid()} {block}"})
    drawing = Drawing(SimpleNamespace(sections=whose))
    assert len(drawing.process.procs) == 2
    drawing.draw({"figure": 7})
    drawing.done()
    chart_pid, figure = drawing.chart("pid", 7).split()
    [section] = drawing.engine_sections({"figure": 7})
    section_pid = section.body[3:-4].split()[0]
    assert figure == "7" and MAIN not in (int(chart_pid), int(section_pid)) and chart_pid != section_pid


@pytest.mark.parametrize("cores, sections, processes", [(2, whose, 1), (16, None, 1), (16, whose, 2)])
def test_a_second_drawing_process_only_for_an_engines_sections_on_four_cores_or_more(cores, sections, processes,
                                                                                     monkeypatch):
    from validator import drawing as module

    monkeypatch.setattr(module.os, "cpu_count", lambda: cores)
    drawing = Drawing(SimpleNamespace(sections=sections))
    assert len(drawing.process.procs) == processes
    drawing.abort()


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


# ------------------------------------------------------------------ a sweep's charts, many at once
def pid_and(item):
    return (os.getpid(), item)


def fails_away_from_main(item):
    if os.getpid() != MAIN:
        raise RuntimeError("a plotting process fails")
    return (os.getpid(), item)


def test_plotters_draw_in_other_processes_in_order(monkeypatch):
    from validator import plotters

    monkeypatch.setattr(plotters.os, "cpu_count", lambda: 4)
    drawn = plotters.Plotters(30).map(pid_and, range(30))
    assert [item for _, item in drawn] == list(range(30))
    assert MAIN not in {pid for pid, _ in drawn} and len({pid for pid, _ in drawn}) > 1


def test_plotters_that_fail_leave_the_charts_to_the_main_process(monkeypatch):
    from validator import plotters

    monkeypatch.setattr(plotters.os, "cpu_count", lambda: 2)
    assert plotters.Plotters(5).map(fails_away_from_main, "abc") == [(MAIN, "a"), (MAIN, "b"), (MAIN, "c")]


def test_one_core_draws_in_the_main_process(monkeypatch):
    from validator import plotters

    monkeypatch.setattr(plotters.os, "cpu_count", lambda: 1)
    ps = plotters.Plotters(10)
    assert ps.pool is None and ps.map(pid_and, [1]) == [(MAIN, 1)]


def test_a_sweep_report_is_the_same_drawn_by_plotters_or_here(ps_data, tmp_path, monkeypatch):
    from validator import plotters
    from validator.sweep import SweepOptions, run_sweep
    from validator.sweep_report import render_sweep

    monkeypatch.setattr(plotters.os, "cpu_count", lambda: 3)
    result = run_sweep(ps_data, ["rule:hand-limit=3,5"], SweepOptions(games=20, workers=1, out=tmp_path))
    html = (tmp_path / "pyramid-scheme" / "sweep" / "report.html").read_text()
    record = json.loads((tmp_path / "pyramid-scheme" / "sweep" / "sweep.json").read_text())["sweep"]
    from validator.kit import get_spec

    assert html.count("<svg") >= 4
    assert render_sweep(record, get_spec("pyramid-scheme"), result.axes, result.results) == html
