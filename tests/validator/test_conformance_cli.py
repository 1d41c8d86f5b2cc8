"""pnp validate SLUG --conformance: the kit's checks on any engine, bundled or not, a
table of what held, the seed of any failure, and the exit code accordingly.  Each
way of breaking the protocol is tried on a copy of the tutorial's engine."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from model.sheets import load_project
from pnp.cli import main
from validator.harness import CHECKS, FAILED, HELD, STOPPED, HarnessOptions, run_conformance

from helpers import TOMBS_RULES, edit_rules


def conformance(folder: Path, *args):
    return CliRunner().invoke(main, ["validate", "tiny-tombs", "--data", str(folder), "--conformance", *args],
                              catch_exceptions=False)


def rows(output: str) -> dict[str, str]:
    """check -> result, read from the printed table."""
    out = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if len(cells) >= 2 and cells[0] in CHECKS:
            out[cells[0]] = cells[1]
    return out


def test_the_tutorial_engine_passes_every_check(tombs):
    result = conformance(tombs, "--players", "2,5")
    assert result.exit_code == 0, result.output
    assert rows(result.output) == {name: HELD for name in CHECKS}
    assert "Tiny Tombs: conformance of the rules engine (2, 5 players, seed 1)" in result.output
    assert "tiny-tombs: every check held" in result.output
    assert not (tombs / "output").exists()  # it writes nothing


PEEKING_BOT = '''

class Peek:
    """Plays the relic on top of the tomb when it holds one: it reads the state, not its View."""

    name = "peek"

    def __init__(self, rng, game=None, **options):
        self.rng = rng

    def step(self, view, actions):
        top = view._state.tomb[-1] if view._state.tomb else None
        return top if top in actions else actions[0]
'''

BROKEN = [
    ("clone shares a list",
     ("game.py", "        s.hands, s.hoards = [list(h) for h in self.hands], [list(h) for h in self.hoards]",
      "        s.hands, s.hoards = self.hands, [list(h) for h in self.hoards]"),
     "clones", "playing a clone on changed the original at step 0"),
    ("observation shows the tomb",
     ("game.py", "        return Seen(player, self.player, self.choosing, tuple(self.hands[player]),",
      "        return Seen(player, self.player, self.choosing, tuple(self.tomb),"),
     "observations", "P1's observation changed at step 0 when what is hidden from P1 was drawn again"),
    ("rules draw from the random module",
     ("game.py", "        self.tomb = self.chance.shuffled(list(g.box))",
      "        import random\n        self.tomb = list(g.box)\n        random.shuffle(self.tomb)"),
     "same seed, same game", "played again: the games part at action"),
    ("rules depend on the hash seed",
     ("game.py", "        self.tomb = self.chance.shuffled(list(g.box))",
      "        self.tomb = self.chance.shuffled(sorted(g.box, key=lambda d: hash(g.ids[d]) % 7))"),
     "any worker count", "in a fresh Python process (PYTHONHASHSEED="),
    ("a relic lost",
     ("game.py", '                self.move(best, self.hoards[me], self.discard, "cursed")',
      '                self.hoards[me].remove(best)'),
     "random playouts (--strict)", "lost (in no zone)"),
    ("unsorted legal actions",
     ("game.py", "        return sorted(set(self.hands[self.player]))",
      "        return sorted(set(self.hands[self.player]), reverse=True)"),
     "random playouts (--strict)", "are not a sorted list of distinct whole numbers"),
    ("a game that never ends",
     ("game.py", "        if self.expedition < g.expeditions:", "        if True:"),
     "random playouts (--strict)", "a random game ended without a result (turn-cap)"),
    ("a bot that reads the state",
     ("__init__.py", "    thresholds={", '    bots={"peek": Peek},\n    thresholds={'),
     "bots see only their View", "the peek bot of P"),
]


@pytest.mark.parametrize("what,change,check,fragment", BROKEN, ids=[b[0] for b in BROKEN])
def test_each_broken_promise_is_found_with_a_seed_to_replay(tombs, what, change, check, fragment):
    edit_rules(tombs, *change)
    if what == "a bot that reads the state":
        path = tombs / TOMBS_RULES / "__init__.py"
        path.write_text(path.read_text(encoding="utf-8").replace("\n\nSPEC = GameSpec(", PEEKING_BOT + "\n\nSPEC = GameSpec("))
    result = conformance(tombs, "--players", "3")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert rows(result.output)[check] == FAILED
    (line,) = [x for x in result.output.splitlines() if x.startswith(f"FAILED {check}: ")]
    assert fragment in line
    assert "game seed " in line and f"pnp validate tiny-tombs --data {tombs} --replay " in line
    assert "tiny-tombs: the engine breaks the protocol" in result.output


def test_a_hash_order_that_shows_only_at_more_players_is_found(tombs):
    # the tomb is laid out by hash order from four players on: the fresh interpreters play every count checked
    edit_rules(tombs, "game.py", "        self.tomb = self.chance.shuffled(list(g.box))",
               "        self.tomb = self.chance.shuffled(sorted(g.box, key=lambda d: hash(g.ids[d]) % 7)\n"
               "                                         if g.players >= 4 else list(g.box))")
    result = conformance(tombs)
    assert result.exit_code == 1, result.output
    assert rows(result.output)["any worker count"] == FAILED
    (line,) = [x for x in result.output.splitlines() if x.startswith("FAILED any worker count: ")]
    assert "players) in a fresh Python process (PYTHONHASHSEED=" in line
    assert "(4 players)" in line or "(5 players)" in line


@pytest.mark.parametrize("what,change,zones,detail", [
    ("a relic lost", ("game.py", '                self.move(best, self.hoards[me], self.discard, "cursed")',
                      '                self.hoards[me].remove(best)'), FAILED, "lost (in no zone)"),
    ("a game that never ends", ("game.py", "        if self.expedition < g.expeditions:", "        if True:"),
     STOPPED, "every random game was stopped without a result, so no game's end was checked"),
    ("an engine that raises at its second action",
     ("game.py", "        self.decisions += 1", "        self.decisions += 1\n"
                                                "        if self.decisions > 1:\n            raise KeyError('boom')"),
     STOPPED, "no random game ran to its end: each stopped at an error"),
])
def test_the_zones_row_says_held_only_when_the_games_ran_to_their_end(tombs, what, change, zones, detail):
    edit_rules(tombs, *change)
    result = conformance(tombs, "--players", "3")
    assert result.exit_code == 1, result.output
    assert rows(result.output)["zones"] == zones
    done = run_conformance(load_project(tombs, ["tiny-tombs"]).games["tiny-tombs"], HarnessOptions(players=(3,)))
    assert done.check("zones").status == zones and detail in done.check("zones").detail


def test_a_failure_names_a_game_the_replay_plays_to_the_failure(tombs):
    edit_rules(tombs, "game.py", '                self.move(best, self.hoards[me], self.discard, "cursed")',
         '                self.hoards[me].remove(best)')
    result = conformance(tombs, "--players", "3")
    line = next(x for x in result.output.splitlines() if x.startswith("FAILED random playouts"))
    command = line.split("replay it with: ")[1].split()
    assert command[:5] == ["pnp", "validate", "tiny-tombs", "--data", str(tombs)] and "--bots" in command
    replay = CliRunner().invoke(main, command[1:], catch_exceptions=False)  # (as printed: it names the folder)
    assert replay.exit_code == 1
    seed = command[command.index("--replay") + 1]
    assert replay.output.splitlines()[-1].startswith("error invariant broken in game seed " + seed)
    assert "lost (in no zone)" in replay.output.splitlines()[-1]


def test_rules_that_do_not_load_fail_the_first_check_and_stop(tombs):
    edit_rules(tombs, "game.py", "HAND = 2  #", "HAND = TWO  #")
    result = conformance(tombs)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error templates/tiny-tombs/rules/game.py:9: the rules of tiny-tombs" in result.output


def test_options_that_make_no_sense_with_conformance(tombs):
    for args, message in ((["--out", str(tombs / "o")], "cannot be combined with --out"),
                          (["--skill-games", "3"], "cannot be combined with --skill-games"),
                          (["--replay", "5"], "--replay plays one game; it cannot be combined with --conformance")):
        result = conformance(tombs, *args)
        assert result.exit_code == 2 and message in result.output  # a mistake on the command line


@pytest.mark.parametrize("slug", ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds",
                                  "drinking-pyramid"])
def test_every_bundled_engine_passes(project_root, slug):
    """The harness on pnp's own engines, at their smallest player count, with few games."""
    from validator.kit import get_spec

    data = load_project(project_root, [slug]).games[slug]
    spec = get_spec(data)
    opts = HarnessOptions(players=(spec.min_players,), seed=3, playouts=2, watched=1, worker_games=8,
                          report_games=6)
    result = run_conformance(data, opts)
    failed = [f"{c.name}: {c.detail}" for c in result.checks if c.status == FAILED]
    assert not failed
    assert [c.status for c in result.checks] == [HELD] * len(CHECKS)
