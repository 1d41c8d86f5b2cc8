"""pnp watch: which saves count, a build per save, bad saves keep the last good
PDFs, the next good save recovers, Ctrl-C ends it cleanly."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from preview.session import Session, summary
from preview.watch import ChangeFilter, watch

from helpers import REPO, copy_game, find_row, read_rows, save_until_built, set_cell

SLUG = "pyramid-scheme"


@pytest.fixture
def data(tmp_path):
    return copy_game(tmp_path / "data")


def test_the_files_that_count(tmp_path):
    data, out = tmp_path / "data", tmp_path / "data" / "output"
    accept = ChangeFilter(data, out)
    for name in ("cards.csv", "cards.xlsx", "goals.csv", "templates/g/game.toml", "templates/g/card.svg.j2",
                 "art/scarab.png", "art/photos/tomb.JPG", "map.svg", "templates/g/icons/coin.svg"):
        assert accept(None, str(data / name)), name
    for name in ("notes.txt", ".cards.csv.swp", "cards.csv~", "~$cards.xlsx", ".~lock.cards.csv#",
                 "output/g/g-cards.pdf", "templates/g/.card.svg.j2.swp", "templates/g/4913", "art/notes.txt",
                 "output/g/png/g-card-a-front.png", ".git/x.png", "art/.scarab.png.tmp", "art/scarab.png~"):
        assert not accept(None, str(data / name)), name


def test_a_session_builds_what_changed_keeps_the_last_good_pdfs_and_recovers(data, tmp_path):
    out = tmp_path / "out"
    session = Session(data, [SLUG], out)
    first = session.build()
    assert first.ok and f"{SLUG}: 92 of 92 designs rendered" in summary(first)[0]
    cards = data / "cards.csv"
    g03 = find_row(cards, "id", "g03")
    before = read_rows(cards)[g03 - 1][read_rows(cards)[0].index("text")]
    set_cell(cards, g03, "text", "Waters the lawn at noon.")
    snap = session.build([cards])
    line = summary(snap)[0]
    assert f"cards.csv: {SLUG}: 1 of 92 designs changed (g03), rendered; 2 files written in" in line
    assert [c.id for g in snap.games for _, _, cs in g.decks for c in cs if c.changed] == ["g03"]
    # the edit undone: the design changed again (back), and its picture comes from the cache
    set_cell(cards, g03, "text", before)
    snap = session.build([cards])
    assert f"cards.csv: {SLUG}: 1 of 92 designs changed (g03), from the cache; 2 files written in" in summary(snap)[0]
    assert session.build([cards]).ok and "no design changed" in summary(session.snapshot)[0]

    pdf = out / SLUG / f"{SLUG}-cards.pdf"
    good = pdf.read_bytes()
    row = find_row(cards, "id", "g05")
    set_cell(cards, row, "number", "seven")
    bad = session.build([cards])
    assert not bad.ok and not bad.games
    lines = summary(bad)
    assert "cards.csv: 1 error; nothing was written, the last good PDFs stay" in lines[0]
    assert f"error cards.csv:{row}:number: 'seven' is not a whole number" in lines
    assert pdf.read_bytes() == good

    set_cell(cards, row, "number", "1")
    fixed = session.build([cards])
    assert fixed.ok and "no design changed" in summary(fixed)[0]
    assert [c.id for c in fixed.games[0].decks[0][2][:2]] == ["g01", "g02"]
    session.close()


def test_a_template_error_names_the_file_and_line(data, tmp_path):
    session = Session(data, [SLUG], tmp_path / "out")
    police = data / "templates" / SLUG / "police.svg.j2"
    lines = police.read_text(encoding="utf-8").splitlines()
    lines.insert(4, "{{ card.no_such_column }}")  # inside the body block
    police.write_text("\n".join(lines) + "\n", encoding="utf-8")
    snap = session.build([police])
    assert any(e.startswith(f"error templates/{SLUG}/police.svg.j2:5: ") and "no_such_column" in e
               for e in snap.errors), snap.errors
    # an unclosed tag on line 5: Jinja2 notices it where the next tag starts, on line 6
    police.write_text(police.read_text(encoding="utf-8").replace("{{ card.no_such_column }}", "{{ card.name "),
                      encoding="utf-8")
    snap = session.build([police])
    assert any(e.startswith(f"error templates/{SLUG}/police.svg.j2:6: template syntax error") for e in snap.errors), \
        snap.errors


def test_a_temporary_file_that_came_and_went_is_not_a_save():
    from pathlib import Path

    from watchfiles import Change

    from preview.watch import saved_paths

    changes = {(Change.added, "/d/templates/g/sedAb12Cd"), (Change.modified, "/d/templates/g/sedAb12Cd"),
               (Change.deleted, "/d/templates/g/sedAb12Cd"), (Change.modified, "/d/templates/g/card.svg.j2"),
               (Change.deleted, "/d/templates/g/old.svg.j2")}
    assert saved_paths(changes) == [Path("/d/templates/g/card.svg.j2"), Path("/d/templates/g/old.svg.j2")]


def watched(data, tmp_path, save) -> list:
    """The builds a watch loop made while ``save(built)`` saved (until it built), the loop stopped after."""
    session = Session(data, [SLUG], tmp_path / "out")
    session.build()
    built = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(session, built.append, stop), daemon=True)
    thread.start()
    save(built)
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive()
    return built


def test_a_save_by_sed_names_the_file_saved(data, tmp_path):
    """``sed -i`` writes a temporary file beside the template and renames it over it: the build names the
    template alone."""
    template = data / "templates" / SLUG / "police-back.svg.j2"

    def sed(built):
        deadline, n = time.monotonic() + 60, 0
        while not built and time.monotonic() < deadline:
            n += 1
            subprocess.run(["sed", "-i", f"$a<!-- {n} -->", str(template)], check=True)
            time.sleep(1.0)
    built = watched(data, tmp_path, sed)
    assert built and built[0].trigger == f"templates/{SLUG}/police-back.svg.j2", built[0].trigger


def test_the_watch_loop_builds_after_a_save_and_stops(data, tmp_path):
    built = watched(data, tmp_path, lambda built: save_until_built(data / "cards.csv", "g01", "Penny Saver", built))
    assert built and built[-1].ok and built[0].trigger == "cards.csv"
    names = {c.id: c.name for g in built[-1].games for _, _, cs in g.decks for c in cs}
    assert names["g01"].startswith("Penny Saver")


def test_pnp_watch_prints_a_line_per_build_and_ends_on_ctrl_c(data, tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "watch", SLUG, "--data", str(data), "--out",
                             str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=REPO)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not any(line.startswith("watching ") for line in lines) and time.monotonic() < deadline:
            time.sleep(0.2)
        cards = data / "cards.csv"
        n = 0
        while not any("1 of 92 designs changed (g02), rendered" in line for line in lines) and time.monotonic() < deadline:
            n += 1
            set_cell(cards, find_row(cards, "id", "g02"), "name", f"Lawn Ranger {n}")
            time.sleep(1.0)
        assert any("1 of 92 designs changed (g02), rendered" in line for line in lines), lines
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        reader.join(timeout=5)
    assert code == 0, lines
    assert lines[-1].strip() == "stopped watching."
    assert "Traceback" not in "".join(lines)
    assert not [p for p in (tmp_path / "out" / SLUG).iterdir() if p.name.startswith(".")]


def test_the_session_shows_and_counts_the_warnings_check_gives(data, tmp_path):
    from pnp.findings import game_checks

    session = Session(data, [SLUG], tmp_path / "out", checks=game_checks)
    snap = session.build()
    lines = summary(snap)
    deck_warning = ("goals.csv:15:requires: pyramid-scheme: a branch 6 levels deep needs a smart-ass or a colour "
                    "pass on it: 4 colours give at most 5 levels otherwise")
    assert lines[0].endswith(", 1 warning") and f"  warning {deck_warning}" in lines
    goal = next(c for g in snap.games for _, _, cs in g.decks for c in cs if (c.sheet, c.row) == ("goals.csv", 15))
    assert any("a branch 6 levels deep" in w for w in goal.warnings)  # on the card it belongs to, on the page
    # a deck-level warning (a count against the rulebook) is shown and counted too
    rows = read_rows(data / "cards.csv")
    founder = next(n for n, r in enumerate(rows, 1) if r[1] == "founder")
    set_cell(data / "cards.csv", founder, "count", "2")
    snap = session.build([data / "cards.csv"])
    lines = summary(snap)
    assert lines[0].endswith(", 2 warnings"), lines
    assert "  warning cards.csv:count: pyramid-scheme: 5 founders in the base game, the rulebook has 4" in lines
    assert "warning cards.csv:count: pyramid-scheme: 5 founders in the base game, the rulebook has 4" in snap.warnings
    session.close()


def test_a_bug_during_a_rebuild_is_said_and_the_loop_goes_on(data, tmp_path, monkeypatch, capsys):
    import preview.session

    session = Session(data, [SLUG], tmp_path / "out")
    assert session.build().ok

    def broken(*args, **kwargs):
        raise RuntimeError("an internal mistake")

    monkeypatch.setattr(preview.session, "build_games", broken)
    snap = session.build([data / "cards.csv"])
    assert snap.errors == ["error pnp hit a bug (RuntimeError: an internal mistake); this is not a mistake in your "
                           "files: please report it on the pnp issue tracker with the traceback printed above"]
    assert "RuntimeError: an internal mistake" in capsys.readouterr().err
    monkeypatch.undo()
    assert session.build([data / "cards.csv"]).ok  # the next save builds again
    session.close()
