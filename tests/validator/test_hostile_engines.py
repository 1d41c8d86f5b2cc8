"""A rules engine cannot take the validator down.

``tests/hostile-engines`` is a game folder whose engine misbehaves on purpose (its rules option
``fault``): each fault is one line naming the engine, the game seed and the action with a replay
command, exit 1, within seconds, no process left behind, nothing written outside the output
folder, no half-made validation folder.  Ctrl-C stops a run whose engine is stuck within two
seconds.  Every case runs ``pnp`` as a real process."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HOSTILE = Path(__file__).resolve().parents[1] / "hostile-engines"
REPO = Path(__file__).resolve().parents[2]
SEED = 4636696217346418830  # the first game of a run with --seed 1: every fault happens in it, at action 5
SMALL = ["--games", "12", "--skill-games", "0", "--workers", "1"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    shutil.copytree(HOSTILE, root / "data")
    return root / "data"


def pnp(folder: Path, *args, env=None, timeout: float = 60):
    """``pnp ARGS --data FOLDER`` as a process of its own: (exit code, stdout, stderr lines, seconds)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pnp.cli", *args, "--data", str(folder)], capture_output=True,
                          text=True, timeout=timeout, cwd=REPO, env={**os.environ, **(env or {})})
    return done.returncode, done.stdout, done.stderr.splitlines(), time.monotonic() - started


def files(folder: Path) -> dict:
    """Every file under the data folder but its output, with its size and time."""
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if p.is_file() and "output" not in p.relative_to(folder).parts}


def left_behind(folder: Path) -> list[str]:
    """Processes still running whose command line names the folder (a worker outlives its run)."""
    deadline = time.monotonic() + 2.0
    while True:
        found = []
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                if str(folder) in line:
                    found.append(f"{proc.name}: {line}")
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


ANNOUNCED = "running the rules engine of hostile from {folder}/templates/hostile/rules/ (__init__.py, game.py): " \
            "Python from the data folder, with your permissions"

FAULTS = {
    "raise": "raised ValueError: a card that is not there (templates/hostile/rules/game.py:{line})",
    "exit": "called sys.exit(7): an engine must not end the process (templates/hostile/rules/game.py:{line})",
    "os-exit": "ended its worker process (ended with exit code 9): an engine must not exit (os._exit, a crash)",
    "print": "wrote to standard output ('the engine says hello'): an engine must not print, its output would mix "
             "with pnp's (templates/hostile/rules/game.py:{line})",
    "stderr": "wrote to standard error ('the engine complains'): an engine must not print, its output would mix "
              "with pnp's (templates/hostile/rules/game.py:{line})",
    "interrupt": "raised KeyboardInterrupt itself (it reads as Ctrl-C: an engine must not raise it) "
                 "(templates/hostile/rules/game.py:{line})",
    "sleep": "took longer than 1 s (--move-timeout)",
    "loop": "took longer than 1 s (--move-timeout)",
}
WHERE = {"raise": "raise ValueError", "exit": "sys.exit(7)", "print": "print(", "stderr": "sys.stderr.write",
         "interrupt": "raise KeyboardInterrupt"}


def line_of(text: str) -> int:
    source = (HOSTILE / "templates" / "hostile" / "rules" / "game.py").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(source, 1) if text in line)


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_fault_is_one_line_with_the_game_and_a_replay(folder, fault):
    before = files(folder)
    out = folder / "output"
    code, stdout, err, seconds = pnp(folder, "validate", "hostile", *SMALL, "--rule", f"fault={fault}",
                                     "--move-timeout", "1", "--out", str(out))
    what = FAULTS[fault].format(line=line_of(WHERE[fault]) if fault in WHERE else "")
    assert (code, stdout) == (1, "")
    assert err == [ANNOUNCED.format(folder=folder),
                   f"error the rules of hostile {what} in game seed {SEED} at action 5; replay it with: pnp validate "
                   f"hostile --data {folder} --rule fault={fault} --replay {SEED} --players 4 --bots greedy"]
    assert seconds < 20
    assert left_behind(folder) == []
    assert files(folder) == before  # nothing written in the data folder (no __pycache__ either)
    assert not (out / "hostile").exists()  # no validation folder half made, nor an empty one


def test_the_replay_command_plays_the_game_to_the_fault(folder):
    code, stdout, err, _ = pnp(folder, "validate", "hostile", "--rule", "fault=raise", "--replay", str(SEED),
                               "--players", "4", "--bots", "greedy")
    assert code == 1 and "Traceback" not in stdout + "\n".join(err)
    assert stdout.splitlines()[-1].startswith("  [5] P2 (greedy): ")
    assert err[-1] == (f"error the rules of hostile raised ValueError: a card that is not there (templates/hostile/"
                       f"rules/game.py:{line_of('raise ValueError')}) in game seed {SEED} at action 5")


@pytest.mark.parametrize("fault", ["random", "shared"])
def test_a_game_that_differs_when_played_again_is_a_warning(folder, fault, tmp_path):
    code, stdout, err, _ = pnp(folder, "validate", "hostile", "--games", "30", "--skill-games", "0", "--workers", "2",
                               "--rule", f"fault={fault}", "--out", str(tmp_path))
    assert code in (0, 1) and "Traceback" not in "\n".join(err)  # (the verdicts decide)
    warnings = [line for line in err if line.startswith("warning ")]
    assert len(warnings) == 1
    assert "played again in another worker gave a different game" in warnings[0]
    assert f"pnp validate hostile --conformance checks it; the game: pnp validate hostile --data {folder} --rule " \
           f"fault={fault} --replay " in warnings[0]
    assert (tmp_path / "hostile" / "validation" / "report.html").is_file()


def test_an_engine_that_exits_as_it_is_imported(folder, tmp_path):
    code, stdout, err, _ = pnp(folder, "validate", "hostile-import", *SMALL, "--out", str(tmp_path))
    assert (code, stdout) == (1, "")
    assert err[1] == (f"error templates/hostile-import/rules/__init__.py:8: the rules of hostile-import (templates/"
                      f"hostile-import/rules/ in {folder}) do not load: it calls sys.exit(3) as it is imported")
    assert len(err) == 2 and not (tmp_path / "hostile-import").exists()


def test_only_validate_imports_a_folder_engine(folder, tmp_path):
    mark = tmp_path / "imported"
    code, _, err, _ = pnp(folder, "check", env={"PNP_HOSTILE_MARK": str(mark)})
    assert code == 0 and not mark.exists() and not any("hostile-import" in line for line in err)
    code, _, err, _ = pnp(folder, "validate", "hostile-import", *SMALL, "--out", str(tmp_path),
                          env={"PNP_HOSTILE_MARK": str(mark)})
    assert code == 1 and mark.exists()


def test_leftovers_of_a_killed_run_are_removed(folder, tmp_path):
    validation = tmp_path / "hostile" / "validation"
    validation.mkdir(parents=True)
    dead = validation / ".games.csv.99999999.k2j3.tmp"  # (no process has that id)
    dead.write_text("game,seed\n")
    code, _, err, _ = pnp(folder, "validate", "hostile", *SMALL, "--out", str(tmp_path))
    assert code in (0, 1) and not dead.exists() and (validation / "games.csv").is_file()
    dead.write_text("game,seed\n")
    code, stdout, _, _ = pnp(folder, "clean", "--out", str(tmp_path))
    assert code == 0 and not dead.exists() and f"removed {dead}" in stdout


@pytest.mark.parametrize("command", [["validate", "hostile", "--games", "12", "--skill-games", "0"],
                                     ["validate", "hostile", "--conformance"],
                                     ["sweep", "hostile", "--vary", "rule:keep=3,4", "--games", "12"]],
                         ids=["validate", "conformance", "sweep"])
def test_ctrl_c_stops_a_stuck_engine_within_two_seconds(folder, tmp_path, command):
    run = subprocess.Popen([sys.executable, "-m", "pnp.cli", *command, "--rule", "fault=sleep", "--data", str(folder),
                            *(["--out", str(tmp_path)] if "--conformance" not in command else [])],
                           cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert run.stderr.readline().startswith("running the rules engine of hostile")
        time.sleep(2.0)  # (by now the first game sleeps at its action 5)
        sent = time.monotonic()
        run.send_signal(signal.SIGINT)
        code = run.wait(timeout=10)
        seconds = time.monotonic() - sent
        err = run.stderr.read()
    finally:
        run.kill()
    assert code == 130 and seconds < 2.0, (code, seconds)
    assert err.strip().splitlines() == ["stopped (Ctrl-C); nothing more was written."]
    assert left_behind(folder) == []
    assert not (tmp_path / "hostile").exists()


CONFORMANCE = {
    "os-exit": "ended its process (ended with exit code 9): an engine must not exit (os._exit, a crash) in game seed "
               "{seed} (3 players)",
    "print": "wrote to standard output ('the engine says hello'): an engine must not print, its output would mix "
             "with pnp's (templates/hostile/rules/game.py:{line}) in game seed {seed} at action 5",
    "sleep": "took longer than 1 s (--move-timeout) in game seed {seed} (3 players)",
}


@pytest.mark.parametrize("fault", list(CONFORMANCE))
def test_conformance_tells_a_fault_as_a_failed_check(folder, fault):
    from validator.kit import derive_seed

    seed = derive_seed(1, "conformance", "playout", 3, 0)  # the first random playout of three players
    code, stdout, err, seconds = pnp(folder, "validate", "hostile", "--conformance", "--players", "3",
                                     "--rule", f"fault={fault}", "--move-timeout", "1")
    what = CONFORMANCE[fault].format(seed=seed, line=line_of("print("))
    assert code == 1 and "Traceback" not in stdout + "\n".join(err)
    assert (f"FAILED random playouts (--strict): the rules of hostile {what}; replay it with: pnp validate hostile "
            f"--data {folder} --rule fault={fault} --replay {seed} --players 3 --bots random") in stdout.splitlines()
    assert seconds < 20 and left_behind(folder) == []
