"""``pnp validate`` end to end through the CLI: files, exit codes, messages."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from validator.kit import engines, has_rules

SMALL = ["--games", "40", "--skill-games", "2", "--workers", "1"]


def run(args, **kw):
    return CliRunner().invoke(main, ["validate", *args], catch_exceptions=False, **kw)


@pytest.fixture
def data_copy(project_root, tmp_path) -> Path:
    """A private copy of the data folder, to edit."""
    for name in ("cards.csv", "goals.csv"):
        shutil.copy(project_root / name, tmp_path / name)
    shutil.copytree(project_root / "templates", tmp_path / "templates")
    return tmp_path


def edit_rows(path: Path, change) -> None:
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
        header = list(rows[0])
    for row in rows:
        change(row)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, header)
        w.writeheader()
        w.writerows(rows)


def test_validate_writes_every_file_and_passes_or_warns(data_copy):
    result = run(["pyramid-scheme", *SMALL, "--players", "3", "--seed", "5", "--data", str(data_copy)])
    assert result.exit_code == 0, result.output
    folder = data_copy / "output" / "pyramid-scheme" / "validation"
    for name in ("report.html", "summary.json", "games.csv", "cards.csv", "goals.csv"):
        assert (folder / name).is_file(), name
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["run"]["games"] == 40 and summary["run"]["players"] == 3 and summary["run"]["master_seed"] == 5
    assert summary["verdict"] in ("PASS", "WARN")
    html = (folder / "report.html").read_text()
    assert html.count("<svg") >= 4 and "http" not in html.split("<svg")[0].replace("http-equiv", "")
    for heading in ("Run record", "Static deck checks", "Game length", "Outcome", "Lead and drama", "Goals",
                    "Rewards", "Cards", "Skill", "Failures"):
        assert f"<h2>{heading}</h2>" in html
    assert html.count("Bots are not people") == 10
    assert "pnp validate" in result.output and "game length" in result.output
    assert not list(folder.glob(".*"))  # no temporary files left


def test_broken_deck_fails(data_copy):
    """All founders at number 1: no condition of theirs can ever be met, and pyramids crumble at once."""
    def founders_at_one(row):
        if row["game"] == "pyramid-scheme" and row["deck"] == "founder":
            row["number"] = "1"

    edit_rows(data_copy / "cards.csv", founders_at_one)
    result = run(["pyramid-scheme", *SMALL, "--data", str(data_copy)])
    assert result.exit_code == 1, result.output
    summary = json.loads((data_copy / "output/pyramid-scheme/validation/summary.json").read_text())
    assert summary["verdict"] == "FAIL"
    failed = {v["check"] for v in summary["verdicts"] if v["status"] == "FAIL"}
    assert {"static checks", "game length"} <= failed
    assert any("can never be met within its number" in p["message"] and p["where"].startswith("cards.csv:67")
               for p in summary["static"])
    assert "FAIL" in result.output


def test_editing_a_row_changes_the_simulation(data_copy):
    base = run(["pyramid-scheme", *SMALL, "--skill-games", "0", "--data", str(data_copy)])
    assert base.exit_code == 0
    before = json.loads((data_copy / "output/pyramid-scheme/validation/summary.json").read_text())

    def cheaper(row):
        if row["id"] == "g06":
            row["requires"] = "1 any"
            row["effect"] = "hand 2"

    edit_rows(data_copy / "cards.csv", cheaper)
    again = run(["pyramid-scheme", *SMALL, "--skill-games", "0", "--data", str(data_copy)])
    assert again.exit_code == 0
    after = json.loads((data_copy / "output/pyramid-scheme/validation/summary.json").read_text())
    assert before["run"]["deck_hash"] != after["run"]["deck_hash"]
    g06 = next(c for c in after["cards"] if c["id"] == "g06")
    assert g06["requires"] == "any" and g06["effect"] == "hand 2"
    assert _strip(before) != _strip(after)


def _strip(s):
    return {k: v for k, v in s.items() if k not in ("timing", "run")}


def test_unknown_game_and_game_without_rules(data_copy):
    result = CliRunner().invoke(main, ["validate", "nope", "--data", str(data_copy)])
    assert result.exit_code == 2
    assert "unknown game 'nope'" in result.output
    if (data_copy / "templates" / "golden-pyramid").is_dir() and not has_rules("golden-pyramid"):
        # a bundled game whose rules engine comes later
        result = CliRunner().invoke(main, ["validate", "golden-pyramid", "--data", str(data_copy)])
        assert result.exit_code == 1
        assert "error no rules engine exists for 'golden-pyramid' yet" in result.output
    # a second game with sheets and templates but no rules module yet
    folder = data_copy / "templates" / "other-game"
    folder.mkdir()
    (folder / "game.toml").write_text('[game]\ntitle = "Other"\n[decks.card]\nfront = "card.svg.j2"\n')
    (folder / "card.svg.j2").write_text("<svg/>")
    with (data_copy / "cards.csv").open("a", encoding="utf-8") as fh:
        fh.write("other-game,card,c1,A card,1,,,,,,,base\n")
    result = CliRunner().invoke(main, ["validate", "other-game", "--data", str(data_copy)])
    assert result.exit_code == 1
    known = ", ".join(engines())  # pyramid-scheme and the engines registered since
    assert "pyramid-scheme" in known
    assert f"no rules engine exists for 'other-game' yet; pnp validate can simulate: {known}" in result.output
    assert "Traceback" not in result.output


def test_option_clashes_and_bad_values(data_copy):
    cases = [
        (["--replay", "5", "--games", "10"], "--replay plays one game; it cannot be combined with --games"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers and --scheduler cannot be combined"),
        (["--players", "5"], "Pyramid Scheme takes 2-4 players, not 5"),
        (["--bots", "clever"], "unknown bot 'clever'; known bots: random, greedy, search"),
        (["--bots", "greedy,random"], "--bots lists 2 bots for 4 players"),
        (["--rule", "colour=red"], "unknown rules option 'colour' for pyramid-scheme; known: actions"),
        (["--rule", "condition-match=mostly"], "'mostly' is not one of at-least, exactly"),
    ]
    for args, message in cases:  # a mistake on the command line: exit 2, as sweep and tune say it, never 1 (a FAIL)
        result = CliRunner().invoke(main, ["validate", "pyramid-scheme", *args, "--data", str(data_copy)])
        assert result.exit_code == 2, args
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_thresholds_file(data_copy):
    bad = data_copy / "bad.toml"
    bad.write_text("[length]\nbox = [1, 2]\n")
    result = CliRunner().invoke(main, ["validate", "pyramid-scheme", *SMALL, "--data", str(data_copy),
                                       "--thresholds", str(bad)])
    assert result.exit_code == 1
    assert "unknown key 'box' in [length]; known: box_minutes, fail_factor" in result.output
    # a box nobody can meet turns the length verdict into FAIL, and the exit code follows
    (data_copy / "validate.toml").write_text("[length]\nbox_minutes = [200, 300]\nfail_factor = 0.1\n")
    result = run(["pyramid-scheme", *SMALL, "--skill-games", "0", "--data", str(data_copy)])
    assert result.exit_code == 1
    summary = json.loads((data_copy / "output/pyramid-scheme/validation/summary.json").read_text())
    assert summary["run"]["thresholds_source"].endswith("validate.toml")
    assert any(v["check"] == "game length" and v["status"] == "FAIL" for v in summary["verdicts"])


def test_an_engines_studies_are_skipped_with_0_games_as_their_help_says(data_copy):
    """Pyrrameds' comparison of boxes and value of information (its side games, "0 skips it") set to 0 in the
    thresholds file: the run plays neither; a negative count is one line."""
    (data_copy / "validate.toml").write_text("[pyrrameds]\nsweep_games = 0\ninfo_games = 0\n")
    result = run(["pyrrameds", "--games", "20", "--skill-games", "0", "--workers", "1", "--data", str(data_copy)])
    assert result.exit_code in (0, 1), result.output
    summary = json.loads((data_copy / "output/pyrrameds/validation/summary.json").read_text())
    assert not summary["pyrrameds"].get("by_box") and not summary["pyrrameds"].get("information")
    (data_copy / "validate.toml").write_text("[pyrrameds]\ninfo_games = 50\n")  # one kept, at its own size
    run(["pyrrameds", "--games", "20", "--skill-games", "0", "--workers", "1", "--data", str(data_copy)])
    summary = json.loads((data_copy / "output/pyrrameds/validation/summary.json").read_text())
    assert summary["pyrrameds"]["information"]["games"] == 50 and summary["pyrrameds"]["by_box"]
    (data_copy / "validate.toml").write_text("[pyrrameds]\ninfo_games = -1\n")
    result = run(["pyrrameds", "--games", "20", "--data", str(data_copy)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "[pyrrameds] info_games = -1: expected a whole number, 0 (to skip them) or more" in result.output
    (data_copy / "validate.toml").write_text("[length]\nfail_factor = 0\n[pyrrameds]\nmin_sample = 0\n")
    result = run(["pyrrameds", "--games", "20", "--data", str(data_copy)])  # (not a count of games: 1 or more)
    assert result.exit_code == 1 and "[pyrrameds] min_sample = 0: expected a whole number, 1 or more" in result.output


def test_replay_prints_the_game_move_by_move(data_copy):
    games = data_copy / "output"
    result = run(["pyramid-scheme", "--replay", "12345", "--players", "2", "--data", str(data_copy)])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Pyramid Scheme: replay of game seed 12345, 2 players, bots greedy, greedy"
    assert "setup:" in lines
    assert any(line.startswith("  [0] P") for line in lines)
    assert any(line.startswith("end: ") for line in lines)
    assert not games.exists()  # a replay writes nothing
    again = run(["pyramid-scheme", "--replay", "12345", "--players", "2", "--data", str(data_copy)])
    assert again.output == result.output


def test_strict_run(data_copy):
    result = run(["pyramid-scheme", "--games", "30", "--skill-games", "1", "--workers", "1", "--strict",
                  "--data", str(data_copy), "--bots", "random,greedy,search"])
    assert result.exit_code == 2  # three bots for four players: the command line's mistake
    result = run(["pyramid-scheme", "--games", "30", "--skill-games", "1", "--workers", "1", "--strict",
                  "--players", "3", "--data", str(data_copy), "--bots", "random,greedy,search"])
    assert result.exit_code in (0, 1)
    summary = json.loads((data_copy / "output/pyramid-scheme/validation/summary.json").read_text())
    assert summary["run"]["strict"] is True and summary["run"]["bots"] == ["random", "greedy", "search"]


def test_help_names_every_option():
    result = CliRunner().invoke(main, ["validate", "--help"])
    for option in ("--games", "--players", "--seed", "--workers", "--scheduler", "--strict", "--replay", "--data",
                   "--thresholds", "--bots", "--skill-games", "--rule", "--out"):
        assert option in result.output
    doc = (Path(__file__).resolve().parents[2] / "docs" / "validator.md").read_text()
    for option in ("--games", "--players", "--seed", "--workers", "--scheduler", "--strict", "--replay", "--data",
                   "--thresholds", "--bots", "--skill-games", "--rule", "--out"):
        assert f"`{option}" in doc, option


def test_strict_violation_stops_with_the_seed_and_step(data_copy, monkeypatch):
    from validator.games.pyramid_scheme.state import State

    calls = {"n": 0}
    original = State.check_invariants

    def broken(self):
        calls["n"] += 1
        if calls["n"] == 5:
            raise AssertionError("a green victim is in two places")
        original(self)

    monkeypatch.setattr(State, "check_invariants", broken)
    result = CliRunner().invoke(main, ["validate", "pyramid-scheme", *SMALL, "--strict", "--data", str(data_copy)])
    assert result.exit_code == 1
    seed = __import__("validator.runner", fromlist=["game_seed"]).game_seed(1, "main", 0)
    line = " ".join(result.output.split())
    assert (f"error invariant broken in game seed {seed} at action 4: a green victim is in two places; replay it "
            f"with: pnp validate pyramid-scheme --data {data_copy} --replay {seed} --players 4 --bots greedy") in line
    assert not (data_copy / "output" / "pyramid-scheme" / "validation" / "games.csv").exists()
    assert "Traceback" not in result.output
