"""``pnp validate`` as a library: static checks, simulation, summary, verdicts, files.

:func:`validate_game` runs everything for one game and writes
``<out>/<game>/validation/``; :func:`replay` plays one game move by move.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from model import __version__
from model.errors import CommandLineError, Problem
from validator.kit import Verdict, get_spec, has_rules, rules_hash

from .bots import parse_bots
from .checks import deck_checks, sheet_checks
from .again import again as again_indices
from .again import not_again
from .failures import replay_args, replay_failure
from .figures import Games
from .gamesfile import GamesWriter, remove_stale
from .metrics import TimeModel
from .runner import MOVE_TIMEOUT, Job, PlayOptions, Pool, Stream, game_seed, games_csv_header, play, run_streams
from .summary import pair_patterns, pairs_of, players_summary, skill_bots, summarize
from .thresholds import Thresholds
from .verdicts import judged, worst

DRAMA_GAMES = 2000  # the first games of the main run whose standings feed the lead and drama figures


@dataclass
class RunOptions:
    """What every run of simulated games takes: ``pnp validate``'s (:class:`Options`), and ``pnp sweep``'s and
    ``pnp tune``'s for every variant (``validator.sweep.SweepOptions``)."""

    games: int = 1000
    players: int = 4
    seed: int = 1
    workers: int | None = None
    scheduler: str | None = None
    bots: str | None = None  # None: the engine's default bots (greedy for most)
    rules: dict = field(default_factory=dict)
    thresholds: Thresholds = field(default_factory=Thresholds)
    out: Path = Path("output")
    expansions: set[str] | None = None  # the boxes to play with (the base game plus expansions); None: every box
    write: bool = True
    connect_timeout: float = 10.0  # seconds to reach a Dask scheduler
    until_sure: bool = False  # play more looks until every verdict is sure (validator.sure)
    max_games: int | None = None  # ... up to this many games per player count or variant (None: sure.MAX_FACTOR x)
    max_seconds: float | None = None  # ... or until this many seconds have passed
    move_timeout: float = MOVE_TIMEOUT  # the longest one game, or one action played again to find a fault, may take


@dataclass
class Options(RunOptions):
    strict: bool = False
    skill_games: int | None = None  # games per bot pairing of the skill matrix (None: the engine's, GameSpec.skill_games)
    sweep: tuple[int, ...] = ()  # further player counts whose seat balance is measured beside the main run
    sweep_games: int = 1000  # games per further player count
    drama_games: int = DRAMA_GAMES  # the first games of the main run that feed the lead and drama figures
    per_game: bool = False  # keep the main games' per-game values (Result.games: a paired comparison reads them)


@dataclass
class Result:
    slug: str
    title: str
    summary: dict
    verdicts: list[Verdict]
    files: list[Path]
    seconds: float
    games: object = None  # figures.Games of the main games, with Options.per_game
    warnings: list = field(default_factory=list)  # lines for the user: the run is not what it seems

    @property
    def status(self) -> str:
        return worst(v.status for v in self.verdicts)


# ------------------------------------------------------------------ hashes
def deck_hash(data) -> str:
    h = hashlib.sha256()
    for c in sorted(data.cards, key=lambda c: (c.deck, c.id)):
        h.update(repr((c.deck, c.id, c.count, c.color, c.number, c.symbol, str(c.requires), str(c.effect),
                       c.expansion)).encode())
    return h.hexdigest()[:16]


# ------------------------------------------------------------------ the run
def validate_game(data, opts: Options, progress: Callable[[str, int, int], None] | None = None) -> Result:
    """Simulate one game's deck and write its validation folder: every file, or none when
    anything fails (an engine's statistics, verdicts or sections included; a folder it made is removed)."""
    pending: list = []
    try:
        return _validate_game(data, opts, progress, pending)
    except BaseException:
        for writer in pending:
            writer.abort()
        raise


def _validate_game(data, opts: Options, progress, pending: list) -> Result:
    started = time.perf_counter()
    spec = get_spec(data)  # (the game's data: its folder's rules count too)
    slug = data.slug
    data = with_expansions(data, opts.expansions)
    if not spec.min_players <= opts.players <= spec.max_players:
        raise CommandLineError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, "
                               f"not {opts.players}")
    if opts.games < 1:
        raise CommandLineError("--games must be 1 or more")
    rules = spec.options(opts.rules)
    game = spec.make(data, opts.players, **opts.rules)
    problems = static_problems(spec, data, opts.players)
    bots = parse_bots(opts.bots or spec.default_bots, opts.players, spec)
    th = opts.thresholds.bind(spec)
    playtime = data.manifest.playtime_minutes
    model = time_model(th)
    play_opts = PlayOptions(strict=opts.strict, turn_cap=int(th.get("stalls", "turn_cap")),
                            replay=replay_args(data, opts.rules, spec.options()))
    out_dir = Path(opts.out) / slug / "validation"
    files: list[Path] = []
    writer = None
    if opts.write:
        remove_stale(out_dir)
        writer = GamesWriter(out_dir / "games.csv", games_csv_header(spec))
        pending.append(writer)
    skill_games = spec.skill_games if opts.skill_games is None else opts.skill_games
    pairs = pairs_of(skill_bots(spec)) if skill_games else []
    skill_total = skill_games * len(pairs)
    done = {"n": 0}
    planned = planned_games(opts, opts.games)  # the main games the run may play

    def advance(n: int) -> None:
        done["n"] += n
        if progress:
            progress(slug, done["n"], planned + skill_total)

    per_game = Games() if opts.per_game else None
    again = again_indices(opts.games)  # main games played once more at the end, by then in another worker
    kept: dict[int, list] = {}

    def on_rows(rows, write=writer.write if writer else None):
        for row in rows:
            if row[0] in again:
                kept[row[0]] = row
        if per_game is not None:
            per_game.add_rows(rows, spec.stalls)
        if write is not None:
            write(rows)

    streams = [Stream("main", game, "main", opts.seed, opts.games, [bots], play_opts, model,
                      on_rows, min(planned, opts.drama_games),
                      on_values=None if per_game is None else
                      (lambda values: per_game.add_values([f.key for f in spec.figures], values)))]
    sweep = sorted({n for n in opts.sweep if n != opts.players})
    names = opts.bots if opts.bots and "," not in opts.bots else spec.default_bots  # the further player counts' bots
    for n in sweep:
        if not spec.min_players <= n <= spec.max_players:
            raise CommandLineError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {n}")
        streams.append(Stream(("players", n), spec.make(data, n, **opts.rules), f"players:{n}", opts.seed,
                              opts.sweep_games, [parse_bots(names, n, spec)], play_opts, model))
    skill_total += planned_games(opts, opts.sweep_games) * len(sweep)
    for a, b in pairs:  # (last: the charts need the games above, the skill matrix only tables)
        streams.append(Stream((a, b), game, f"skill:{a}:{b}", opts.seed, skill_games,
                              pair_patterns(a, b, opts.players), play_opts, model, group=1))
    replayed: dict[int, list] = {}
    streams.append(Stream("again", game, "main", opts.seed, len(again), [bots], play_opts, model,
                          lambda rows: replayed.update((r[0], r) for r in rows), group=1, only=tuple(again)))
    found: list[dict] = []  # what each of the engine's studies found, in their order
    studies = spec.studies(game, th) if spec.studies is not None else []
    jobs = [Job(("study", k), study.play, study.parts, lambda results, k=k, study=study: found.append(
                (k, study.finish(results))), cost=study.cost) for k, study in enumerate(studies)]
    drawing = None
    tallies: dict = {}
    try:
        if opts.write:
            from .drawing import Drawing

            drawing = Drawing(spec)  # (matplotlib is imported while the games are played)
            pending.append(drawing)
        with Pool(opts.workers, opts.scheduler, opts.connect_timeout, opts.move_timeout) as pool:
            def first_games(group: int) -> None:  # the charts' figures are known: draw them while skill games run
                if group == 0 and drawing is not None and not opts.until_sure:
                    early = summarize(game, spec, tallies["main"], {}, problems, meta, th, playtime,
                                      [v for _, v in sorted(found)])
                    drawing.draw(early)

            t0 = time.perf_counter()
            main_done = {}

            def advance_main(n: int) -> None:
                advance(n)
                if done["n"] >= opts.games and "t" not in main_done:
                    main_done["t"] = time.perf_counter() - t0

            meta = run_record(data, spec, rules, opts.players, opts.games, opts.seed, bots, skill_games,
                              play_opts.turn_cap, opts.strict, th, opts.expansions)
            tallies = run_streams(pool, streams, advance_main, jobs, first_games, totals=tallies)
            sure = _until_sure(pool, streams, tallies, th, data, opts, advance, started) if opts.until_sure else None
            main_seconds = main_done.get("t", time.perf_counter() - t0) if sure is None else time.perf_counter() - t0
            workers = pool.workers
    except BaseException:
        if writer:
            writer.abort()
        raise
    tally = tallies.pop("main")
    tallies.pop("again")
    by_players = {n: tallies.pop(("players", n)) for n in sweep}
    skill = tallies
    meta["games"] = tally.games  # (with --until-sure, the games its looks played)
    summary = summarize(game, spec, tally, skill, problems, meta, th, playtime, [v for _, v in sorted(found)])
    if sweep:
        summary["players"] = players_summary({opts.players: tally, **by_players})
    verdicts = judged(summary, th, spec)
    if sure is not None:
        from .sure import WAITED, not_waited_for

        summary["until_sure"] = {**{k: v for k, v in sure.items() if k != "unsure_by"}, "asked": opts.games,
                                 "not_waited_for": not_waited_for(verdicts, set(WAITED))}
    warnings = [not_again(spec, i, kept[i], replayed.get(i), play_opts.replay) for i in sorted(again)
                if kept.get(i) != replayed.get(i)][:1]
    seconds = time.perf_counter() - started
    summary["timing"] = {
        "wall_seconds": round(seconds, 3),
        "simulation_seconds": round(main_seconds, 3),
        "games_per_second": round(tally.games / main_seconds, 1) if main_seconds > 0 else None,
        "workers": workers,
        "scheduler": opts.scheduler,
    }
    if opts.write:
        from .report import write_outputs

        files += write_outputs(out_dir, summary, game, spec, drawing)
    if writer:
        files.insert(0, writer.commit())  # games.csv last: the other files are written by then
    return Result(slug, data.title, summary, verdicts, files, seconds, per_game, warnings)


def planned_games(opts: RunOptions, games: int) -> int:
    """The games a stream may play: ``games``, or the last look's with ``--until-sure``."""
    if not opts.until_sure:
        return games
    from .sure import plan

    return plan(games, opts.max_games)[-1]


def _until_sure(pool, streams: list, tallies: dict, th: Thresholds, data, opts: Options, advance, started) -> dict:
    """``--until-sure``: further looks of the main games and of each further player count, until their verdicts
    are sure (validator.sure); the skill pairings play once."""
    from .sure import play_until_sure, unsure_main, unsure_seats

    box = th.box(data.manifest.playtime_minutes)

    def judge(key, tally, conf):
        if key == "main":
            return unsure_main(tally, th, box, conf)
        return unsure_seats(tally, th, conf, f"seat balance, {key[1]} players")

    waited = [st for st in streams if st.key == "main" or (isinstance(st.key, tuple) and st.key[0] == "players")]
    return play_until_sure(pool, waited, tallies, judge, opts.max_games, opts.max_seconds, started, advance)


def static_problems(spec, data, players: int) -> list[Problem]:
    """The deck's static problems, sorted: the engine's own checks (``GameSpec.static_checks``), else the
    sheets' generic ones."""
    if spec.static_checks is not None:
        return sorted(spec.static_checks(data, players))
    return sorted(sheet_checks(data))


def time_model(th: Thresholds) -> TimeModel:
    """The minutes a game takes, from its turns and actions, with the thresholds' time settings."""
    return TimeModel(th.get("time", "seconds_per_turn"), th.get("time", "seconds_per_action"),
                     th.get("time", "setup_minutes"))


def run_record(data, spec, rules: dict, players: int, games: int, seed: int, bots, skill_games: int, turn_cap: int,
               strict: bool, th: Thresholds, expansions: set[str] | None) -> dict:
    """summary.json's ``run`` block: what was simulated, so that the same record gives the same figures."""
    meta = {
        "game": data.slug,
        "title": data.title,
        "tool_version": __version__,
        "deck_hash": deck_hash(data),
        "rules_hash": rules_hash(spec, rules),
        "rules_options": rules,
        "rules_defaults": spec.options(),
        "readings": spec.readings(rules),  # every option in play whose value is not the rulebook's literal text
        "players": players,
        "games": games,
        "master_seed": seed,
        "bots": list(bots),
        "skill_games_per_pair": skill_games,
        "turn_cap": turn_cap,
        "strict": strict,
        "thresholds": th.as_dict(),
        "thresholds_source": th.source,
        "playtime": data.manifest.playtime,
    }
    if expansions is not None:
        meta["expansions"] = sorted(expansions)
    return meta


def with_expansions(data, expansions: set[str] | None):
    """The game's data with the cards of the chosen boxes only (None: every box)."""
    if expansions is None:
        return data
    from model.sheets import Game

    return Game(data.manifest, data.select(expansions))


def replay(data, seed: int, players: int, bots_text: str, rules: dict, strict: bool = True,
           turn_cap: int | None = None, expansions: set[str] | None = None,
           thresholds: Thresholds | None = None) -> list[str]:
    """One game, move by move, as lines of text.  The turn cap is the run's
    (``thresholds``, or the engine's defaults) unless given."""
    spec = get_spec(data)
    if turn_cap is None:
        turn_cap = int((thresholds or Thresholds()).bind(spec).get("stalls", "turn_cap"))
    data = with_expansions(data, expansions)
    game = spec.make(data, players, **rules)
    bots = parse_bots(bots_text or spec.default_bots, players, spec)
    lines = [f"{spec.title}: replay of game seed {seed}, {players} players, bots {', '.join(bots)}"]
    log: list[str] = []
    first = {"done": False, "step": None}

    def on_action(step, state, player, action):
        first["step"] = step
        if not first["done"]:
            first["done"] = True
            lines.extend(log)
            log.clear()
            lines.append("setup:")
            lines.extend("  " + x for x in state.describe().splitlines())
        else:
            lines.extend("  " + x if not x.startswith("--") else x for x in log)
            log.clear()
        lines.append(f"  [{step}] P{player + 1} ({bots[player]}): {state.action_to_string(action)}")

    try:
        state, _ = play(game, seed, bots, PlayOptions(strict=strict, turn_cap=turn_cap,
                                                      replay=replay_args(data, rules, spec.options())),
                        log=log, on_action=on_action)
        record = state.record()
    except Exception as exc:  # noqa: BLE001 - the moves so far, then the failure in one line
        raise replay_failure(game, seed, first["step"], exc, lines + ["  " + x for x in log]) from None
    lines.extend("  " + x for x in log)
    lines.append(f"end: {spec.end_reasons.get(record.end, record.end)} after {record.turns} turns "
                 f"({record.rounds} rounds, {record.actions} actions)")
    lines.append("final position:")
    lines.extend("  " + x for x in state.describe().splitlines())
    return lines


__all__ = ["Options", "Result", "Verdict", "validate_game", "replay", "deck_checks", "game_seed", "get_spec",
           "has_rules"]
