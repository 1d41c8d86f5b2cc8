"""Rules engines outside the bundled five: found in a data folder's templates/<slug>/rules/
or through the entry-point group pnp.engines, loaded the same way by every worker, and
told in one line when they fail to load, clash, or fail inside a game."""

from __future__ import annotations

import json

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.errors import EngineError, NoRulesEngine
from model.sheets import load_project
from pnp.cli import main
from validator.kit import ENGINES, engines, get_spec, has_rules, registry, rules_hash
from validator.kit.folder import arrived, carry
from validator.validate import Options, validate_game

from helpers import EXAMPLE, TOMBS_RULES, copy_game, edit_rules

BUNDLED = {"pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"}


def pnp(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def line_of(folder: Path, name: str, text: str) -> int:
    lines = (folder / TOMBS_RULES / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def tombs_data(folder: Path):
    return load_project(folder, ["tiny-tombs"]).games["tiny-tombs"]


# ------------------------------------------------------------------ one registry
def test_the_bundled_engines_register_through_the_entry_point_group():
    found = registry.installed()
    assert BUNDLED <= set(found)
    for slug in BUNDLED:
        (entry,) = found[slug]
        assert entry.bundled and entry.module == f"validator.games.{slug.replace('-', '_')}"
        assert entry.origin == f"bundled with pnp: {entry.module}"
        assert ENGINES[slug] == entry.module
    assert set(engines()) == set(ENGINES) >= BUNDLED


def test_a_data_folders_rules_are_found_only_through_its_data():
    data = tombs_data(EXAMPLE)
    assert has_rules(data)
    spec = get_spec(data)
    assert spec.slug == "tiny-tombs" and spec.title == "Tiny Tombs"
    assert "tiny-tombs" not in ENGINES  # not installed: only the game's own folder has it
    origin = registry.engine_of(spec).origin
    assert origin.startswith("templates/tiny-tombs/rules/ in ") and origin.endswith("docs/example")
    assert not list((EXAMPLE / TOMBS_RULES).rglob("__pycache__"))  # nothing written there


def test_a_folder_engine_writes_nothing_into_its_folder_and_runs_the_source_it_read(tombs, monkeypatch):
    from validator.kit import folder as folder_kit

    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # as Python runs by default
    spec = get_spec(tombs_data(tombs))
    assert spec.slug == "tiny-tombs"
    assert not list((tombs / TOMBS_RULES).rglob("__pycache__"))
    # every module of the package (its submodules too) came from the bundle that was read and hashed
    mine = [m for name, m in list(sys.modules.items()) if name.startswith(folder_kit.PREFIX)
            and str(getattr(m, "__file__", "")).startswith(str(tombs))]
    assert {m.__name__.rpartition(".")[2] for m in mine} >= {"bots", "game", "report"}
    assert all(isinstance(m.__loader__, folder_kit._Loader) for m in mine)


def test_the_rules_hash_covers_the_folder_engines_source(tombs):
    before = rules_hash(get_spec(tombs_data(tombs)), {})
    edit_rules(tombs, "game.py", "SET_BONUS = 5", "SET_BONUS = 6")
    spec = get_spec(tombs_data(tombs))
    assert rules_hash(spec, {}) != before
    assert spec.make.__module__ != get_spec(tombs_data(EXAMPLE)).make.__module__  # two versions, never mixed


def test_a_game_without_rules_says_how_to_write_them(tombs):
    shutil.rmtree(tombs / TOMBS_RULES)
    assert not has_rules(tombs_data(tombs))
    with pytest.raises(NoRulesEngine, match="no rules engine exists for 'tiny-tombs' yet; pnp validate can simulate: "
                                            r"drinking-pyramid, .*; to write one: pnp new tiny-tombs --rules, "
                                            "and docs/engine-tutorial.md"):
        get_spec(tombs_data(tombs))


def test_a_bundled_slug_with_rules_in_the_data_folder_names_both(tmp_path):
    folder = copy_game(tmp_path / "data", "pyramid-shambo")
    rules = folder / "templates" / "pyramid-shambo" / "rules"
    rules.mkdir()
    (rules / "__init__.py").write_text("raise SystemExit('never run')\n")
    data = load_project(folder, ["pyramid-shambo"]).games["pyramid-shambo"]
    with pytest.raises(EngineError) as caught:
        get_spec(data)
    message = str(caught.value)
    assert "two rules engines for 'pyramid-shambo': bundled with pnp: validator.games.pyramid_shambo" in message
    assert f"templates/pyramid-shambo/rules/ in {folder}" in message
    result = pnp("validate", "pyramid-shambo", "--data", str(folder), "--games", "5")
    assert result.exit_code == 1 and "two rules engines for 'pyramid-shambo'" in result.output
    assert "Traceback" not in result.output


@pytest.fixture
def distribution(tmp_path, monkeypatch):
    """``add(name, entry points, modules)``: an installed distribution on sys.path, seen by the registry."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))

    def add(name: str, points: dict[str, str], modules: dict[str, str]) -> None:
        info = site / f"{name}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text("[pnp.engines]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))
        for path, text in modules.items():
            (site / path).parent.mkdir(parents=True, exist_ok=True)
            (site / path).write_text(text)
        registry._INSTALLED = None

    yield add
    registry._INSTALLED = None
    for mod in [m for m in sys.modules if m.startswith("tombs_dist")]:
        del sys.modules[mod]


def test_an_installed_distributions_engine_is_found_by_slug(distribution, tombs):
    # the example's rules, packaged as a distribution of their own
    shutil.copytree(tombs / TOMBS_RULES, tombs / "tombs_dist")
    distribution("tombs-rules", {"tiny-tombs": "tombs_dist"}, {})
    sys.path.insert(0, str(tombs))
    try:
        spec = get_spec("tiny-tombs")
        assert spec.title == "Tiny Tombs" and registry.engine_of(spec).origin == \
            "installed: tombs_dist from tombs-rules 1.0"
        # the game's own rules/ folder beside the installed engine: an error naming both
        with pytest.raises(EngineError, match="two rules engines for 'tiny-tombs': installed: tombs_dist from "
                                              "tombs-rules 1.0 and the game's own, templates/tiny-tombs/rules/"):
            get_spec(tombs_data(tombs))
        shutil.rmtree(tombs / TOMBS_RULES)
        result = pnp("validate", "--data", str(tombs), "--games", "30", "--skill-games", "0", "--workers", "2")
        assert result.exit_code == 0, result.output
        assert (tombs / "output" / "tiny-tombs" / "validation" / "report.html").is_file()
    finally:
        sys.path.remove(str(tombs))


def test_two_distributions_for_one_slug_name_both(distribution):
    distribution("shambo-plus", {"pyramid-shambo": "tombs_dist_x"}, {})
    with pytest.raises(EngineError, match="two rules engines are registered for 'pyramid-shambo': bundled with pnp: "
                                          "validator.games.pyramid_shambo and installed: tombs_dist_x from "
                                          "shambo-plus 1.0; uninstall one"):
        get_spec("pyramid-shambo")


def test_an_installed_engine_that_does_not_load(distribution):
    distribution("broken", {"dune-dash": "tombs_dist_broken"},
                 {"tombs_dist_broken/__init__.py": "import math\n\nVALUE = math.tau / 0\n"})
    with pytest.raises(EngineError) as caught:
        get_spec("dune-dash")
    assert str(caught.value).endswith("tombs_dist_broken/__init__.py:3: the rules of dune-dash (installed: "
                                      "tombs_dist_broken from broken 1.0) do not load: ZeroDivisionError: float "
                                      "division by zero")


# ------------------------------------------------------------------ rules that do not load
@pytest.mark.parametrize("name,old,new,line,what", [
    ("game.py", "HAND = 2  #", "HAND = TWO  #", "templates/tiny-tombs/rules/game.py:9",
     "do not load: NameError: name 'TWO' is not defined"),
    ("bots.py", "def scores(seen, actions):", "def scores(seen, actions)", "templates/tiny-tombs/rules/bots.py:10",
     "do not load: SyntaxError: expected ':'"),
    ("__init__.py", 'slug="tiny-tombs"', 'slug="tiny-tomb"', "",
     "say they are for 'tiny-tomb' (SPEC.slug); the slug must be 'tiny-tombs'"),
    ("__init__.py", "SPEC = GameSpec(", "SPECS = GameSpec(", "", "define no SPEC"),
])
def test_rules_that_do_not_load_are_one_line_in_validate_and_check(tombs, name, old, new, line, what):
    edit_rules(tombs, name, old, new)
    result = pnp("validate", "--data", str(tombs), "--games", "10")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("running the rules engine of tiny-tombs from ")
    assert lines[1].startswith("error ")
    assert what in lines[1] and f"the rules of tiny-tombs (templates/tiny-tombs/rules/ in {tombs})" in lines[1]
    if line:
        assert lines[1].startswith(f"error {line}: ")
    checked = pnp("check", "--data", str(tombs))  # (check does not run a folder's rules: nothing to say)
    assert checked.exit_code == 0 and "Traceback" not in checked.output
    assert "the rules of tiny-tombs" not in checked.output


@pytest.mark.parametrize("args, said", [
    (["--compare", "no-such-ref"], "error --compare no-such-ref: not a data folder, a summary.json, nor a git revision"),
    (["--expansion", "no-such-box"], "error unknown expansion 'no-such-box' for tiny-tombs; known: base"),
])
def test_a_command_line_mistake_that_needs_no_engine_is_said_before_one_runs(tombs, args, said):
    result = pnp("validate", "tiny-tombs", "--data", str(tombs), *args)
    assert result.exit_code == 2
    assert result.output.strip().startswith(said) and "running the rules engine" not in result.output


def test_the_engines_static_checks_run_under_validate_not_check(tombs):
    rows = (tombs / "cards.csv").read_text(encoding="utf-8").replace("tiny-tombs,relic,ankh,", "tiny-tombs,relic,eye,")
    (tombs / "cards.csv").write_text(rows, encoding="utf-8")
    warning = "relic 'eye' has no power in the rules (scarab, mask, urn, ankh); it plays as a plain relic"
    result = pnp("check", "--data", str(tombs))
    assert result.exit_code == 0 and warning not in result.output
    result = pnp("validate", "--data", str(tombs), "--games", "5", "--skill-games", "0", "--out", str(tombs / "o"))
    summary = json.loads((tombs / "o" / "tiny-tombs" / "validation" / "summary.json").read_text(encoding="utf-8"))
    assert {"severity": "warning", "where": "cards.csv:5:id", "message": warning} in summary["static"]


@pytest.mark.parametrize("runs", ["check", "validate"])
def test_only_validate_runs_a_game_folders_rules(tombs, runs):
    """Printing and checking never run the code in a game's folder; validating does, and says so first."""
    marker = tombs / "rules-ran"
    init = tombs / TOMBS_RULES / "__init__.py"
    init.write_text(f"from pathlib import Path\nPath({str(marker)!r}).touch()\n" + init.read_text(encoding="utf-8"),
                    encoding="utf-8")
    for command in (["build"], ["export", "tiny-tombs", "--to", "png", "--dpi", "36"]):
        done = pnp(*command, "--data", str(tombs))
        assert done.exit_code == 0, done.output
        assert not marker.exists(), command
    args = ["--games", "5", "--skill-games", "0"] if runs == "validate" else []
    done = pnp(runs, "--data", str(tombs), *args)
    assert done.exit_code == 0
    assert marker.exists() == (runs == "validate")
    assert done.output.startswith("running the rules engine of tiny-tombs from ") == (runs == "validate")


# ------------------------------------------------------------------ failures inside a game
RAISE_IN_THIRD_EXPEDITION = ('            self.counts["curses"] += 1\n',
                             '            self.counts["curses"] += 1\n'
                             '            if self.expedition == 2:\n'
                             '                {}["boom"]\n')


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_engine_that_raises_in_a_game_is_one_line_with_the_seed_and_action(tombs, workers):
    edit_rules(tombs, "game.py", *RAISE_IN_THIRD_EXPEDITION)
    result = pnp("validate", "--data", str(tombs), "--games", "40", "--workers", workers)
    assert result.exit_code == 1 and "Traceback" not in result.output
    first, line = result.output.strip().splitlines()
    assert first == (f"running the rules engine of tiny-tombs from {tombs}/templates/tiny-tombs/rules/ (__init__.py, "
                     "bots.py, game.py, report.py): Python from the data folder, with your permissions")
    seed = 4636696217346418830  # the run's first game
    line_no = line_of(tombs, "game.py", '{}["boom"]')
    assert line == (f"error the rules of tiny-tombs raised KeyError: 'boom' (templates/tiny-tombs/rules/game.py:"
                    f"{line_no}) in game seed {seed} at action 45; replay it with: pnp validate tiny-tombs --data "
                    f"{tombs} --replay {seed} --players 4 --bots greedy")
    # the replay prints the game up to that action, then the same failure
    replay = pnp("validate", "tiny-tombs", "--data", str(tombs), "--replay", str(seed), "--players", "4",
                 "--bots", "greedy")
    assert replay.exit_code == 1 and "Traceback" not in replay.output
    announced, *out = replay.output.strip().splitlines()
    assert announced == first
    assert out[0] == f"Tiny Tombs: replay of game seed {seed}, 4 players, bots greedy, greedy, greedy, greedy"
    assert out[-2].startswith("  [45] P") and out[-2].endswith("play mummy")
    assert out[-1] == (f"error the rules of tiny-tombs raised KeyError: 'boom' (templates/tiny-tombs/rules/game.py:"
                       f"{line_no}) in game seed {seed} at action 45")


def test_an_engine_that_stops_counting_turns_does_not_hang_the_run(tombs):
    edit_rules(tombs, "game.py", "        self.turns += 1\n", "")
    edit_rules(tombs, "game.py", "        if self.expedition < g.expeditions:", "        if True:")
    result = pnp("validate", "--data", str(tombs), "--games", "5", "--workers", "1")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error the rules of tiny-tombs: game seed 4636696217346418830 took 10,000 actions without a new turn " \
           "(State.turns stayed at 0) by action 10000: the game does not end, or its state does not count its " \
           f"turns; replay it with: pnp validate tiny-tombs --data {tombs} --replay 4636696217346418830" in result.output


def test_strict_refuses_an_illegal_action_list(tombs):
    edit_rules(tombs, "game.py", "        return sorted(set(self.hands[self.player]))",
         "        return sorted(set(self.hands[self.player]), reverse=True)")
    loose = pnp("validate", "--data", str(tombs), "--games", "20", "--workers", "1", "--skill-games", "0")
    assert loose.exit_code in (0, 1) and "Traceback" not in loose.output
    strict = pnp("validate", "--data", str(tombs), "--games", "20", "--workers", "2", "--strict")
    assert strict.exit_code == 1 and "Traceback" not in strict.output
    assert "the rules of tiny-tombs: the legal actions in game seed 4636696217346418830 at action 0 are not a " \
           "sorted list of distinct whole numbers: [" in strict.output


def test_a_broken_invariant_crosses_from_a_worker_process(tombs):
    """--strict with two workers: the worker's InvariantViolation reaches the command as its one line."""
    edit_rules(tombs, "game.py", "                self.move(best, self.hoards[me], self.discard, \"cursed\")",
         "                self.hoards[me].remove(best)")
    result = pnp("validate", "--data", str(tombs), "--games", "20", "--workers", "2", "--strict")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error invariant broken in game seed " in result.output
    assert f"lost (in no zone); replay it with: pnp validate tiny-tombs --data {tombs} --replay" in result.output


def test_a_fault_in_the_engines_report_code_names_its_line(tombs):
    edit_rules(tombs, "report.py", '    share = s["curses"]["harmless_share"]\n', '    share = s["curses"]["harmless"] / 0\n')
    result = pnp("validate", "--data", str(tombs), "--games", "10", "--workers", "1", "--skill-games", "0")
    assert result.exit_code == 1 and "Traceback" not in result.output
    line = line_of(tombs, "report.py", '["harmless"] / 0')
    assert f"error templates/tiny-tombs/rules/report.py:{line}: the rules of tiny-tombs raised ZeroDivisionError: " \
           "division by zero" in result.output
    assert not [p for p in (tombs / "output").rglob("*") if p.is_file()]  # nothing half-written, games.csv neither


# ------------------------------------------------------------------ workers load the engine the same way
def _games_csv(data, tmp_path, name, **kw) -> bytes:
    opts = Options(games=60, players=3, seed=4, skill_games=0, out=tmp_path / name, **kw)
    validate_game(data, opts)
    return (tmp_path / name / "tiny-tombs" / "validation" / "games.csv").read_bytes()


def test_local_workers_and_a_dask_cluster_play_the_same_games(tmp_path):
    distributed = pytest.importorskip("distributed")
    data = tombs_data(EXAMPLE)
    one = _games_csv(data, tmp_path, "one", workers=1)
    assert one.count(b"\n") == 61
    assert _games_csv(data, tmp_path, "two", workers=2) == one
    # Dask workers are fresh interpreters (processes=True): the engine travels with the batches
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  protocol="tcp", host="127.0.0.1") as cluster:
        game = get_spec(data).make(data, 3)
        with distributed.Client(cluster) as client:  # a worker that cannot load the engine fails here, in time
            assert client.submit(_players_of, carry(game, game)).result(timeout=60) == 3
        assert _games_csv(data, tmp_path, "dask", scheduler=cluster.scheduler_address) == one


def _players_of(carried) -> int:
    return arrived(carried).players
