"""``pnp validate SLUG --conformance`` as a library: the kit's conformance checks
on any engine, bundled or not, told as a table of what held.

Every game it plays is a game of the runner (``runner.play``, random bots unless
said otherwise), with a seed derived from the master seed, so every failure names
a game seed and an action, and ``pnp validate SLUG --replay SEED --players N
--bots B`` plays it move by move.  The checks, for every player count the engine
takes (or those asked for):

* **loads** - the engine imports, its ``SPEC`` is sound, a game compiles;
* **random playouts (--strict)** - random games end with a result, every
  invariant holding after every action, legal actions sorted distinct whole
  numbers, and a record that agrees with the spec;
* **zones** - every component in exactly one zone after every action; "held" only when
  the random games ran to their ends (a game stopped by an error, games that all end at
  their first action or all at the turn cap leave it "stopped", saying which);
* **same seed, same game** - a seed played twice, and by a pickled copy of the
  game (what workers receive), gives the same moves and record;
* **any worker count** - 1 and 2 worker processes give the same games.csv rows
  and figures, and fresh interpreters (each with its own hash seed, ``HASH_SEEDS``,
  the engine loaded as Dask workers load it) the same games at every player count
  checked;
* **clones** - a clone is the same position, and playing it on leaves the original;
* **observations** - a seat's observation is unchanged when what is hidden from
  it is drawn again;
* **bots see only their View** - each bot chooses the same from its seat's view
  of the position and of a copy with the hidden part drawn again;
* **a short report** - a few games with the engine's bots under ``--strict``,
  the skill matrix, the summary and report.html, written to a scratch folder.
"""

from __future__ import annotations

import pickle
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from model.errors import CommandLineError, EngineFailure, InvariantViolation, PnpError
from model.workers import beat
from validator.kit import Chance, conformance, derive_seed
from validator.kit.folder import arrived, carry

from .bots import known_bots, make_bots, parse_bots
from .failures import ENGINE_FAULTS, blame, describe, lost_text, own, replay_command, where
from .metrics import TimeModel
from .runner import MOVE_TIMEOUT, Job, PlayOptions, Pool, Stream, game_failure, play, run_streams
from .thresholds import Thresholds

HELD, FAILED, SKIPPED, STOPPED = "held", "FAILED", "not checked", "stopped"
CHECKS = ("loads", "random playouts (--strict)", "zones", "same seed, same game", "any worker count", "clones",
          "observations", "bots see only their View", "a short report")
#: Games played again by a fresh interpreter (its own hash seed), at every player count checked: a game
#: that iterates over a set of strings differs there only if it reaches the code that does, so more than a few.
FRESH_GAMES = 12
#: The hash seeds (PYTHONHASHSEED) of the fresh interpreters: an order of strings that depends on the hash
#: seed differs between most pairs of them and this process's own
HASH_SEEDS = ("0", "1", "2")


@dataclass
class HarnessOptions:
    players: tuple[int, ...] = ()  # player counts to check; () every count the engine takes
    seed: int = 1
    playouts: int = 8  # random games per player count
    watched: int = 2  # of which clones and observations are checked in the first few
    workers: int = 2  # compared with one worker
    worker_games: int = 24
    report_games: int = 30
    rules: dict = field(default_factory=dict)
    bots: str | None = None  # the bots of the short report (None: the engine's default)
    thresholds: Thresholds = field(default_factory=Thresholds)
    expansions: set[str] | None = None
    move_timeout: float = MOVE_TIMEOUT  # the longest one game may take in a worker
    replay: str = ""  # what the replay commands need besides the seed (set from the game's data and options)


@dataclass
class Check:
    name: str
    status: str = SKIPPED
    detail: str = ""
    seed: int | None = None

    def held(self, detail: str) -> None:
        if self.status != FAILED:
            self.status, self.detail = HELD, detail

    def failed(self, message: str, seed: int | None = None) -> None:
        if self.status != FAILED:  # the first failure is the one to fix
            self.status, self.detail, self.seed = FAILED, message, seed

    def stopped(self, detail: str) -> None:
        """The check could not run to its end (what stopped it is in ``detail``): not a failure of its own."""
        if self.status != FAILED:
            self.status, self.detail = STOPPED, detail


@dataclass
class Conformance:
    slug: str
    title: str
    players: tuple[int, ...]
    checks: list[Check]
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(c.status != FAILED for c in self.checks)

    def check(self, name: str) -> Check:
        return next(c for c in self.checks if c.name == name)


def run_conformance(data, opts: HarnessOptions, progress: Callable[[str], None] | None = None) -> Conformance:
    """Every check on one game's engine (``data``: the game's sheets, ``model.sheets.Game``)."""
    from validator.kit import get_spec

    from .validate import with_expansions

    started = time.perf_counter()
    checks = [Check(name) for name in CHECKS]
    result = Conformance(data.slug, data.title, (), checks)
    step = progress or (lambda name: None)
    loads = result.check("loads")
    step("loads")
    try:
        spec = get_spec(data)
    except PnpError as exc:
        loads.failed(str(exc))
        return _done(result, started)
    result.title = spec.title
    counts = tuple(opts.players) or tuple(range(spec.min_players, spec.max_players + 1))
    result.players = counts
    bad = [n for n in counts if not spec.min_players <= n <= spec.max_players]
    if bad:
        raise CommandLineError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {bad[0]}")
    data = with_expansions(data, opts.expansions)
    games = {}
    try:
        with blame(spec):
            rules = spec.options(opts.rules)
            for n in counts:
                games[n] = spec.make(data, n, **opts.rules)
    except PnpError as exc:
        loads.failed(str(exc))
        return _done(result, started)
    loads.held(f"{_origin(spec)}; compiles for {_counts(counts)} players")
    th = opts.thresholds.bind(spec)
    from .failures import replay_args

    opts.replay = replay_args(data, opts.rules, spec.options())
    play_opts = PlayOptions(strict=True, turn_cap=int(th.get("stalls", "turn_cap")), replay=opts.replay)

    step("random playouts, same seed, bots")
    _isolated(result, spec, games, opts, play_opts)
    step("any worker count")
    _workers(result, spec, games, opts, play_opts)
    step("a short report")
    _report(result, data, spec, counts[0], rules, opts)
    return _done(result, started)


#: the checks that play games in a process of their own, by the number their games give model.workers.beat
PLAYING = {1: "random playouts (--strict)", 2: "clones", 3: "same seed, same game", 4: "bots see only their View"}


def _isolated(result: Conformance, spec, games: dict, opts: HarnessOptions, play_opts: PlayOptions) -> None:
    """The checks that play games themselves (random playouts, clones and observations, same seed, bots), in a
    worker process of their own: an engine that exits, writes to its output or runs past ``--move-timeout``
    fails the check it was in, with the game, and the harness goes on."""
    from model.workers import Lost, probe

    from .pool import guard_worker

    ok, found = probe(_playing, (result, games, opts, play_opts), opts.move_timeout, guard_worker)
    if ok:
        result.checks[:] = found
        return
    if not isinstance(found, Lost):
        raise found
    code, n = divmod(int(found.marks[0]), 100)
    i = int(found.marks[1])
    check = result.check(PLAYING.get(code, "random playouts (--strict)"))
    if code == 4:
        seed, bots = _seeds(opts, "bots", n, 1)[0], (_bot_names(spec, opts)[i],) * n
    else:
        seed, bots = _seeds(opts, "playout", n, i + 1)[i], ("random",) * n
    what = lost_text(found, opts.move_timeout, "process")
    check.failed(f"the rules of {spec.slug} {what} in game seed {seed} ({n} players); replay it with: "
                 f"{replay_command(spec.slug, seed, n, bots, opts.replay)}", seed)


def _playing(task) -> list:
    """In a worker: the checks that play games; their outcome."""
    result, games, opts, play_opts = task
    _playouts(result, games, opts, play_opts)
    _determinism(result, games, opts, play_opts)
    _bots(result, next(iter(games.values())).spec, games, opts)  # (a compiled game knows its spec)
    return result.checks


def _done(result: Conformance, started: float) -> Conformance:
    result.seconds = time.perf_counter() - started
    return result


def _origin(spec) -> str:
    from validator.kit.registry import engine_of

    engine = engine_of(spec)
    return engine.origin if engine is not None else spec.package or spec.slug


def _counts(counts) -> str:
    counts = list(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def _seeds(opts: HarnessOptions, what: str, n: int, k: int) -> list[int]:
    return [derive_seed(opts.seed, "conformance", what, n, i) for i in range(k)]


# ------------------------------------------------------------------ random playouts, zones, clones, observations
def _playouts(result: Conformance, games: dict, opts: HarnessOptions, play_opts: PlayOptions) -> None:
    """Random games under --strict, the zones checked before every action; then the
    first ``watched`` of them again, poking clones and observations every 3 actions
    (a separate pass: a clone that is not independent must not spoil the playouts)."""
    playouts, zones = result.check("random playouts (--strict)"), result.check("zones")
    played = actions = components = errors = 0
    longest = 0  # the most actions a random game took
    stalled: list[tuple[int, str]] = []  # (seed, what to say) of random games stopped without a result
    for n, game in games.items():
        bots = ("random",) * n
        listed = sum(game.components().values())
        components = max(components, listed)
        for i, seed in enumerate(_seeds(opts, "playout", n, opts.playouts)):
            beat(100 + n, i)
            where = f"game seed {seed} ({n} players)"
            replay = replay_command(game.spec.slug, seed, n, bots, opts.replay)
            steps = [0]

            def look(k, state, player, action, where=where, steps=steps):
                steps[0] = k + 1
                if listed and zones.status != FAILED:
                    conformance.check_position_zones(state, where, "setup" if k == 0 else f"action {k - 1}")

            try:
                state, stats = play(game, seed, bots, play_opts, on_action=look, read_standings=False)
                if listed:
                    conformance.check_position_zones(state, where, "the last action")
                record = conformance.check_record(game, state, where, allow_stall=True)
                if record.end in game.spec.stalls:
                    stalled.append((seed, f"{where}: a random game ended without a result ({record.end}); "
                                          f"replay it with: {replay}"))
            except AssertionError as exc:
                check = zones if "components not conserved" in str(exc) else playouts
                check.failed(f"{exc}; replay it with: {replay}", seed)
                errors += 1
                continue
            except ENGINE_FAULTS as exc:  # noqa: BLE001 - the engine's fault, with the seed and action
                own(exc)
                message = _failure(game, seed, bots, play_opts, exc)
                playouts.failed(message, seed)
                if isinstance(exc, InvariantViolation) and _lost_or_doubled(str(exc)):
                    zones.failed(message, seed)  # --strict's own conservation check saw it first
                errors += 1
                continue
            played += 1
            actions += stats["decisions"]
            longest = max(longest, steps[0])
    if stalled and len(stalled) == played and playouts.status != FAILED:
        # random play may leave positions nobody can finish (Golden Pyramid's random players often
        # do: nothing in its rules ends such a game); every random game stopping so is a game that
        # cannot end
        playouts.failed(f"{stalled[0][1]} ({len(stalled)} of {played} random games ended so)", stalled[0][0])
    note = (f"; {len(stalled)} stopped without a result, as the rules allow ({stalled[0][1]})" if stalled else "")
    playouts.held(f"{played} games ({_counts(games)} players), {actions:,} decisions, invariants after every "
                  f"action{note}")
    if components:
        _zones(zones, components, played, errors, stalled, longest)
    elif zones.status != FAILED:
        zones.status, zones.detail = SKIPPED, "the engine lists no zones (State.zones, Game.components)"
    if playouts.status != FAILED:
        _pokes(result, games, opts, play_opts)


def _zones(zones: Check, components: int, played: int, errors: int, stalled: list, longest: int) -> None:
    """The zones row: "held" only when the random games ran to their ends; else what stopped the check."""
    each = f"{components} components, each in one zone after every action"
    if not played:
        zones.stopped("no random game ran to its end: each stopped at an error (see random playouts), so the "
                      "zones were checked only up to it")
    elif errors:
        zones.stopped(f"{each} of the {played} random games that ran to their end; {errors} stopped at an error "
                      "first (see random playouts)")
    elif len(stalled) == played:
        zones.stopped(f"{each} up to the turn cap, but every random game was stopped without a result, so no "
                      "game's end was checked")
    elif longest <= 1:
        zones.stopped("every random game ended by its first action: only the setup and that action were checked")
    else:
        zones.held(f"{each} of {played} random games, each to its end")


def _lost_or_doubled(message: str) -> bool:
    """An invariant message of the kit's conservation check (a component lost, or in two places)."""
    return "lost (in no zone)" in message or " times (in " in message


def _pokes(result: Conformance, games: dict, opts: HarnessOptions, play_opts: PlayOptions) -> None:
    clones, views = result.check("clones"), result.check("observations")
    watched = 0
    for n, game in games.items():
        bots = ("random",) * n
        for i, seed in enumerate(_seeds(opts, "playout", n, opts.watched)):
            beat(200 + n, i)
            where = f"game seed {seed} ({n} players)"
            replay = replay_command(game.spec.slug, seed, n, bots, opts.replay)

            def poke(k, state, player, action, seed=seed, where=where, replay=replay):
                if k % 3:
                    return
                for check, test in ((clones, lambda: conformance.check_clone(
                                        state, where, k, Chance(derive_seed(seed, "clone", k)))),
                                    (views, lambda: conformance.check_observation(state, where, k, seed))):
                    if check.status == FAILED:
                        continue
                    try:
                        test()
                    except AssertionError as exc:
                        check.failed(f"{exc} (before action {k}); replay it with: {replay}", seed)
                    except ENGINE_FAULTS as exc:  # noqa: BLE001 - cloning, observing or determinizing raised
                        own(exc)
                        check.failed(f"{where}, before action {k}: {_raised(game, exc)}; replay it with: {replay}",
                                     seed)

            try:
                play(game, seed, bots, play_opts, on_action=poke, read_standings=False)
            except ENGINE_FAULTS as exc:  # noqa: BLE001 - the game went on from a position a poke disturbed
                own(exc)
                for check in (clones, views):
                    if check.status != FAILED:
                        check.failed(f"{where}: the game raised {describe(exc)} after its positions were cloned and "
                                     f"observed, which it did not when played alone: a clone or an observation "
                                     f"shares something with the position; replay it with: {replay}", seed)
                continue
            watched += 1
    clones.held(f"a clone every 3 actions of {watched} games, each played on for 8 random actions")
    views.held(f"every seat every 3 actions of {watched} games, the hidden part drawn again twice")


def _failure(game, seed: int, bots: tuple, play_opts: PlayOptions, exc: Exception) -> str:
    if isinstance(exc, (InvariantViolation, EngineFailure)):
        return str(exc)
    if isinstance(exc, PnpError) and not _in_game(exc):
        raise exc
    return str(game_failure(game, seed, bots, play_opts, exc))


def _raised(game, exc: Exception) -> str:
    place = where(exc, game.spec)
    return f"the rules of {game.spec.slug} raised {describe(exc)}" + (f" ({place})" if place else "")


def _in_game(exc: PnpError) -> bool:
    """A named error the rules raised during play (e.g. IllegalAction), not a mistake on the command line."""
    from model.errors import IllegalAction, RulesError

    return isinstance(exc, (IllegalAction, RulesError))


# ------------------------------------------------------------------ determinism
def _trace(game, seed: int, bots: tuple, play_opts: PlayOptions):
    moves = []

    def note(k, state, player, action):
        moves.append((player, state.action_to_string(action)))

    state, _ = play(game, seed, bots, play_opts, on_action=note, read_standings=False)
    return moves, state.record()


def _determinism(result: Conformance, games: dict, opts: HarnessOptions, play_opts: PlayOptions) -> None:
    check = result.check("same seed, same game")
    if result.check("random playouts (--strict)").status == FAILED:
        return
    seeds_played = 0
    for n, game in games.items():
        bots = ("random",) * n
        twin = pickle.loads(pickle.dumps(carry(game, game)))
        twin = arrived(twin)
        for i, seed in enumerate(_seeds(opts, "playout", n, 3)):
            beat(300 + n, i)
            replay = replay_command(game.spec.slug, seed, n, bots, opts.replay)
            try:
                first = _trace(game, seed, bots, play_opts)
                for label, other in (("played again", _trace(game, seed, bots, play_opts)),
                                     ("played by a pickled copy of the game", _trace(twin, seed, bots, play_opts))):
                    difference = _difference(first, other)
                    if difference:
                        check.failed(f"game seed {seed} ({n} players) {label}: {difference}; the rules must draw "
                                     f"only from the Chance they are given; the game: {replay}", seed)
                        return
            except ENGINE_FAULTS as exc:  # noqa: BLE001 - a failure the playouts did not meet
                own(exc)
                check.failed(f"game seed {seed} ({n} players): {exc}", seed)
                return
            seeds_played += 1
    check.held(f"{seeds_played} seeds played twice and by a pickled copy of the game: the same moves and records")


def _difference(a, b) -> str:
    moves_a, rec_a = a
    moves_b, rec_b = b
    for k, (x, y) in enumerate(zip(moves_a, moves_b)):
        if x != y:
            return f"the games part at action {k} (P{x[0] + 1}: {x[1]}; then P{y[0] + 1}: {y[1]})"
    if len(moves_a) != len(moves_b):
        return f"one game ends after {len(moves_a)} actions, the other after {len(moves_b)}"
    if rec_a != rec_b:
        fields = [f for f in rec_a.__dataclass_fields__ if getattr(rec_a, f) != getattr(rec_b, f)]
        return f"the same moves, but the records differ in {', '.join(fields)}"
    return ""


# ------------------------------------------------------------------ worker counts
def _workers(result: Conformance, spec, games: dict, opts: HarnessOptions, play_opts: PlayOptions) -> None:
    """The same games with 1 and ``opts.workers`` worker processes at the first player count: the same
    games.csv rows and the same tallies (the engine's statistics included); then :data:`FRESH_GAMES` games
    at every player count in fresh interpreters, one per hash seed of :data:`HASH_SEEDS`."""
    check = result.check("any worker count")
    if result.check("random playouts (--strict)").status == FAILED:
        return
    game = next(iter(games.values()))
    n = game.players
    names = parse_bots(opts.bots or spec.default_bots, n, spec)
    runs = []
    tasks = _fresh_tasks(spec, games, opts)
    cap = PlayOptions(turn_cap=play_opts.turn_cap)
    fresh: dict[str, list] = {}
    parts = [(h, carry((tasks, play_opts.turn_cap), game)) for h in HASH_SEEDS]
    try:
        with blame(spec):
            for k, workers in enumerate((1, opts.workers)):
                rows: list = []
                stream = Stream("main", game, "conformance", opts.seed, opts.worker_games, [names],
                                PlayOptions(turn_cap=play_opts.turn_cap, replay=opts.replay), TimeModel(), rows.extend)
                # the fresh interpreters' games go through the second pool, beside its games
                jobs = [Job("fresh", _fresh_process, parts, lambda done: fresh.update(zip(HASH_SEEDS, done)))] \
                    if k else []
                with Pool(workers, move_timeout=opts.move_timeout) as pool:
                    tally = run_streams(pool, [stream], jobs=jobs)["main"]
                runs.append((rows, _tally_figures(tally)))
    except PnpError as exc:
        check.failed(str(exc), getattr(exc, "seed", None))
        return
    (rows1, fig1), (rows2, fig2) = runs
    for a, b in zip(rows1, rows2):
        if a != b:
            check.failed(f"game seed {a[1]} ({n} players, bots {','.join(names)}) was played differently by "
                         f"1 and {opts.workers} workers: the rules depend on something besides the seed; "
                         f"the game: {replay_command(spec.slug, a[1], n, names, opts.replay)}", a[1])
            return
    if fig1 != fig2:
        keys = sorted(k for k in fig1 if fig1.get(k) != fig2.get(k))
        check.failed(f"1 and {opts.workers} workers played the same games but counted them differently "
                     f"({', '.join(keys)}): the engine's statistics (GameSpec.stats) must merge exactly")
        return
    try:
        with blame(spec):
            here = [[_trace(g, seed, nm, cap) for seed in seeds] for g, seeds, nm in tasks]
    except PnpError as exc:
        check.failed(str(exc), getattr(exc, "seed", None))
        return
    for hash_seed in HASH_SEEDS:
        for (g, seeds, nm), mine, theirs in zip(tasks, here, fresh[hash_seed]):
            for seed, a, b in zip(seeds, mine, theirs):
                difference = _difference(a, b)
                if difference:
                    m = g.players
                    check.failed(f"game seed {seed} ({m} players) in a fresh Python process "
                                 f"(PYTHONHASHSEED={hash_seed}): {difference}; does the engine iterate over a set or "
                                 "hash strings? (each process has its own hash seed); the game: "
                                 f"{replay_command(spec.slug, seed, m, nm, opts.replay)}", seed)
                    return
    check.held(f"{opts.worker_games} games ({','.join(sorted(set(names)))}) on 1 and {opts.workers} workers: the same "
               f"games.csv rows and counts; {FRESH_GAMES} games at each of {_counts(games)} players the same in fresh "
               f"Python processes (PYTHONHASHSEED {', '.join(HASH_SEEDS)})")


def _fresh_tasks(spec, games: dict, opts: HarnessOptions) -> list[tuple]:
    """(game, seeds, bots) of every player count checked: the :data:`FRESH_GAMES` games fresh interpreters
    play again."""
    tasks = []
    for n, game in games.items():
        try:
            names = parse_bots(opts.bots or spec.default_bots, n, spec)
        except PnpError:  # --bots named one bot per seat of another count
            names = parse_bots(spec.default_bots, n, spec)
        tasks.append((game, [derive_seed(opts.seed, "conformance", i) for i in range(FRESH_GAMES)], names))
    return tasks


def _tally_figures(tally) -> dict:
    """A tally's counts, the engine's statistics' own among them, for comparing two runs."""
    out = {k: v for k, v in vars(tally).items() if k != "ext"}
    ext = getattr(tally, "ext", None)
    if ext is not None:
        out.update({f"stats.{k}": v for k, v in vars(ext).items()} if hasattr(ext, "__dict__") else {"stats": ext})
    return out


def _fresh_process(part) -> list:
    """In a worker: the traces of each task's seeds (``part``: a hash seed and the carried (tasks, turn cap),
    a task being (game, seeds, bots) of a player count) played by a newly started interpreter with that hash
    seed (PYTHONHASHSEED), which loads the engine as a Dask worker does, from what travels with the task.  The
    traces come back through a file of their own: what the engine writes to its output is no part of them."""
    import os
    import subprocess
    import sys

    hash_seed, task = part
    payload = pickle.dumps(task)  # (still carried: the interpreter imports the engine from it)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), PYTHONHASHSEED=hash_seed)
    with tempfile.TemporaryDirectory(prefix="pnp-fresh-") as tmp:
        answer = Path(tmp) / "traces.pickle"
        done = subprocess.run([sys.executable, "-m", __name__, str(answer)], input=payload, capture_output=True,
                              env=env)
        if done.returncode or not answer.is_file():
            last = (done.stderr.decode(errors="replace").strip().splitlines() or [f"exit code {done.returncode}"])[-1]
            raise PnpError(f"a fresh Python process could not play the engine's games: {last}")
        return pickle.loads(answer.read_bytes())


def _fresh_main() -> None:
    """``python -m validator.harness FILE``: play the traces of a pickled task read from stdin into FILE."""
    import sys

    tasks, cap = arrived(pickle.loads(sys.stdin.buffer.read()))
    traces = [[_trace(game, seed, bots, PlayOptions(turn_cap=cap)) for seed in seeds] for game, seeds, bots in tasks]
    Path(sys.argv[1]).write_bytes(pickle.dumps(traces))


# ------------------------------------------------------------------ bots
def _bots(result: Conformance, spec, games: dict, opts: HarnessOptions) -> None:
    check = result.check("bots see only their View")
    if result.check("random playouts (--strict)").status == FAILED:
        return
    names = _bot_names(spec, opts)
    if not names:
        check.status, check.detail = SKIPPED, "the engine has no bots but random (no heuristic)"
        return
    compared = 0
    from validator.kit.chance import derive_seeds

    for k, name in enumerate(names):
        for n, game in games.items():
            beat(400 + n, k)
            seed = _seeds(opts, "bots", n, 1)[0]
            bots = make_bots((name,) * n, [Chance(s) for s in derive_seeds(seed, "bot", count=n)], game)
            replay = replay_command(spec.slug, seed, n, (name,) * n, opts.replay)
            try:
                compared += conformance.check_bots(game, seed, bots, name, where=f"game seed {seed} ({n} players)")
            except AssertionError as exc:
                check.failed(f"{exc}; the game: {replay}", seed)
                return
            except ENGINE_FAULTS as exc:  # noqa: BLE001 - a bot or the rules raised
                own(exc)
                check.failed(str(game_failure(game, seed, (name,) * n, PlayOptions(replay=opts.replay), exc)), seed)
                return
    check.held(f"{compared:,} decisions of {', '.join(names)} compared with the hidden part drawn again")


def _bot_names(spec, opts: HarnessOptions) -> list[str]:
    """The bots whose views are checked: every bot but random (or those ``--bots`` names)."""
    if opts.bots:
        return [b for b in dict.fromkeys(x.strip() for x in opts.bots.split(",")) if b != "random"]
    return [b for b in known_bots(spec) if b != "random"]


# ------------------------------------------------------------------ a short report
def _report(result: Conformance, data, spec, players: int, rules: dict, opts: HarnessOptions) -> None:
    from .validate import Options, validate_game

    check = result.check("a short report")
    if result.check("random playouts (--strict)").status == FAILED:
        return
    with tempfile.TemporaryDirectory(prefix="pnp-conformance-") as tmp:
        run = Options(games=opts.report_games, players=players, seed=opts.seed, workers=1, strict=True,
                      bots=opts.bots, skill_games=2, rules=opts.rules, thresholds=opts.thresholds, out=Path(tmp),
                      expansions=None)
        try:
            with blame(spec):
                done = validate_game(data, run)
        except PnpError as exc:
            check.failed(str(exc), getattr(exc, "seed", None))
            return
        names = sorted(p.name for p in done.files)
    check.held(f"{opts.report_games} games ({','.join(sorted(set(done.summary['run']['bots'])))}) and the skill "
               f"matrix under --strict; wrote {', '.join(names)}")


if __name__ == "__main__":
    _fresh_main()
