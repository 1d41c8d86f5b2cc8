"""The documentation keeps up with the command line: every command and every
option has help text and a line in the README."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(main.all_commands())


@pytest.mark.parametrize("name", COMMANDS)
def test_command_has_help_and_readme_row(name):
    command = main.all_commands()[name]
    assert (command.help or "").strip(), f"pnp {name} has no help text"
    assert f"`pnp {name}" in README, f"README does not document pnp {name}"


@pytest.mark.parametrize("name,option", [(c, o) for c in COMMANDS for o in main.all_commands()[c].params
                                         if isinstance(o, click.Option)], ids=lambda x: getattr(x, "name", x))
def test_option_has_help_and_readme_mention(name, option):
    flag = max(option.opts, key=len)
    assert (option.help or "").strip(), f"pnp {name} {flag} has no help text"
    assert f"`{flag}" in README, f"README does not mention {flag} (pnp {name})"


def test_architecture_page_names_every_package():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for package in ("pnp", "generator", "validator", "model"):
        assert f"`{package}/`" in text or f"`{package}`" in text
