"""The engine skeleton (validator.skeleton.write_rules, behind pnp new SLUG --rules): a
placeholder game for any deck that passes --conformance and writes a report at once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.errors import EngineExists, PnpError
from model.sheets import load_project
from pnp.cli import main
from validator.kit import get_spec
from validator.skeleton import write_rules

MANIFEST = '''[game]
title = "Dune Dash"
players = "3-6"
playtime = "20 min"

[palette.sand]
fill = "#e0c080"

[decks.camel]
label = "Camels"
size = "poker"
front = "camel.svg.j2"
[decks.camel.columns]
number = { type = "int", min = 1, max = 9, required = true }

[decks.storm]
label = "Storms"
size = "poker"
front = "camel.svg.j2"
'''
ROWS = '''game,deck,id,name,count,color,number,symbol,requires,effect,text,expansion
dune-dash,camel,fast,Fast Camel,4,,7,,,,,base
dune-dash,camel,slow,Slow Camel,6,,2,,,,,base
dune-dash,storm,storm,Sand Storm,3,,,,,,,base
'''


@pytest.fixture
def dune(tmp_path) -> Path:
    """A game of its own, written as docs/custom-game.md says, without rules yet."""
    folder = tmp_path / "dune"
    (folder / "templates" / "dune-dash").mkdir(parents=True)
    (folder / "templates" / "dune-dash" / "game.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "templates" / "dune-dash" / "camel.svg.j2").write_text("<svg/>", encoding="utf-8")
    (folder / "cards.csv").write_text(ROWS, encoding="utf-8")
    return folder


def test_the_skeleton_passes_conformance_and_writes_a_report(dune):
    before = CliRunner().invoke(main, ["validate", "--data", str(dune)])
    assert before.exit_code == 1 and "none of the games here has a rules engine yet" in before.output
    written = write_rules(dune / "templates" / "dune-dash")
    rules = dune / "templates" / "dune-dash" / "rules"
    assert written == [rules / "__init__.py", rules / "game.py"]
    spec = get_spec(load_project(dune, ["dune-dash"]).games["dune-dash"])
    assert (spec.slug, spec.title, spec.min_players, spec.max_players) == ("dune-dash", "Dune Dash", 3, 6)
    result = CliRunner().invoke(main, ["validate", "dune-dash", "--data", str(dune), "--conformance"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "dune-dash: every check held" in result.output
    report = CliRunner().invoke(main, ["validate", "--data", str(dune), "--games", "200", "--players", "3"],
                                catch_exceptions=False)
    assert report.exit_code in (0, 1), report.output  # a placeholder game: its verdicts may well FAIL
    summary = json.loads((dune / "output" / "dune-dash" / "validation" / "summary.json").read_text())
    assert summary["run"]["games"] == 200 and summary["outcome"]["completed"]["rate"] == 1.0
    # every card of the sheet is a component of the placeholder game: 4 + 6 + 3
    assert sum(get_spec("dune-dash").make(load_project(dune, ["dune-dash"]).games["dune-dash"], 3)
               .components().values()) == 13


def test_a_game_with_rules_keeps_them(dune):
    write_rules(dune / "templates" / "dune-dash")
    game = dune / "templates" / "dune-dash" / "rules" / "game.py"
    game.write_text("# my own rules\n", encoding="utf-8")
    with pytest.raises(EngineExists, match=r"templates/dune-dash/rules/ already exists; nothing was written"):
        write_rules(dune / "templates" / "dune-dash")
    assert game.read_text(encoding="utf-8") == "# my own rules\n"


def test_the_slug_is_checked_and_defaults_come_from_the_folder(tmp_path):
    with pytest.raises(PnpError, match="'Dune Dash' is not a game slug"):
        write_rules(tmp_path / "templates" / "x", slug="Dune Dash")
    assert not (tmp_path / "templates").exists()
    written = write_rules(tmp_path / "templates" / "night-market")  # no manifest yet: the folder's name, 2-4
    text = written[0].read_text(encoding="utf-8")
    assert 'slug="night-market"' in text and "title='Night Market'" in text
    assert "min_players=2," in text and "max_players=4," in text


def test_pnp_new_with_rules_starts_a_game_and_its_engine(tmp_path):
    data = tmp_path / "mine"
    done = CliRunner().invoke(main, ["new", "moon-base", "--rules", "--data", str(data), "--title", 'The "Moon" Base'],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.output
    rules = data / "templates" / "moon-base" / "rules"
    assert sorted(p.name for p in rules.iterdir()) == ["__init__.py", "game.py"]
    assert f"Rules: pnp validate moon-base --data {data} --conformance checks the engine" in done.output
    spec = get_spec(load_project(data, ["moon-base"]).games["moon-base"])
    assert spec.title == 'The "Moon" Base' and (spec.min_players, spec.max_players) == (2, 4)  # pnp new's manifest
    checked = CliRunner().invoke(main, ["validate", "moon-base", "--data", str(data), "--conformance"],
                                 catch_exceptions=False)
    assert checked.exit_code == 0 and "moon-base: every check held" in checked.output
    # a game that exists gets the engine alone; one that has rules keeps them
    shutil.rmtree(rules)
    again = CliRunner().invoke(main, ["new", "moon-base", "--rules", "--data", str(data)], catch_exceptions=False)
    assert again.exit_code == 0 and again.output.startswith(f"wrote {rules}/__init__.py")
    (rules / "game.py").write_text("# mine\n", encoding="utf-8")
    refused = CliRunner().invoke(main, ["new", "moon-base", "--rules", "--data", str(data)], catch_exceptions=False)
    assert refused.exit_code == 1 and "rules/ already exists; nothing was written" in refused.output
    assert (rules / "game.py").read_text(encoding="utf-8") == "# mine\n"
    bundled = CliRunner().invoke(main, ["new", "pyramid-shambo", "--rules", "--data", str(data)])
    assert bundled.exit_code == 2 and "'pyramid-shambo' is taken" in bundled.output
