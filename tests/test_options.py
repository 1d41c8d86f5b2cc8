"""The README's table of options is the truth: every command takes exactly the options the
table gives it (``all``: every command), and a shared option means the same everywhere."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from pnp.cli import main

from helpers import new_game, run_pnp

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
COMMANDS = main.all_commands()


def options_table() -> dict[str, set[str]]:
    """option -> the commands the README's table gives it."""
    section = README.split("Options:\n", 1)[1].split("\nExit codes", 1)[0]
    table: dict[str, set[str]] = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        options, commands = re.split(r"(?<!\\)\|", line.strip().strip("|"))[:2]
        names = {c.strip() for c in commands.split(",")}
        for option in re.findall(r"`(--[a-z-]+)", options):
            assert option not in table, f"{option} has two rows"
            table[option] = set(COMMANDS) if names == {"all"} else names
    return table


def test_the_table_names_only_commands_that_exist():
    table = options_table()
    assert table, "no table of options in the README"
    for option, commands in table.items():
        assert commands <= set(COMMANDS), f"{option}: {sorted(commands - set(COMMANDS))} are no commands"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_takes_the_options_the_table_gives_it(name):
    table = options_table()
    taken = {flag for p in COMMANDS[name].params if isinstance(p, click.Option) for flag in p.opts
             if flag.startswith("--") and flag != "--help"}
    said = {option for option, commands in table.items() if name in commands}
    assert sorted(said - taken) == [], f"the README says pnp {name} takes these; it refuses them"
    assert sorted(taken - said) == [], f"pnp {name} takes these; the README's table does not say so"


def test_a_shared_option_is_one_option(tmp_path):
    """The same flag on two commands has the same type, default and metavar (help may say what it does there)."""
    seen: dict[str, tuple] = {}
    for name, command in COMMANDS.items():
        for p in command.params:
            if isinstance(p, click.Option) and p.name not in ("players_text", "n_games", "bots", "duplex"):
                kind = (p.opts[0], p.name, type(p.type).__name__, p.default, p.metavar, p.multiple, p.is_flag)
                assert seen.setdefault(p.opts[0], kind) == kind, f"{p.opts[0]} differs on pnp {name}"


def test_calibrate_takes_the_data_folder(tmp_path):
    new_game(tmp_path, "ruler-game")
    code, output = run_pnp("calibrate", "--data", tmp_path)
    assert code == 0, output
    assert (tmp_path / "output" / "calibration-a4-long.pdf").is_file()
    assert output.splitlines()[0] == f"wrote {tmp_path / 'output' / 'calibration-a4-long.pdf'}"
