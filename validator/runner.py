"""Playing games: one game, a batch of games, and a whole run on an executor.

Game ``i`` of a stream always gets the seed ``derive_seed(master, stream, i)``
and its bots get seeds derived from that, so a game is the same wherever it
runs.  Bots are handed their seat's ``View``, never the state; at a
simultaneous node every acting player's bot chooses, then the joint action is
applied.

Every game a run plays goes through one :class:`Pool` - supervised local worker
processes (one at least: an engine never runs its games in the main process) or
a Dask cluster - cut into batches by :class:`Plan`: about a third of the work
left per worker each (at least a few dozen milliseconds, at most half a second),
so the last batches are small and the workers finish together.  A compiled game
travels to each worker once.  Results are consumed in batch order with a bounded
window, so the tallies and games.csv are identical for any worker count and
memory stays flat; other work (an engine's own studies, :class:`Job`) shares the
same pipeline.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from model.errors import EngineFailure, InvariantViolation
from model.workers import Lost, beat, probe
from validator.kit import SIMULTANEOUS, TERMINAL, Chance, TurnGuard, View, derive_seed
from validator.kit.chance import derive_seeds
from validator.kit.folder import arrived, carry

from .bots import make_bots
from .failures import MAX_TURN_ACTIONS, bad_actions, fault_text, lost_text, moment, replay_command, stalled
from .metrics import Tally, TimeModel, new_tally
from .pool import MOVE_TIMEOUT, Pool, Shipped, default_workers, guard_worker, received

#: a rough cost per game in seconds, by bot: the size of a stream's first batches, until one is timed
COST = {"random": 0.0006, "greedy": 0.0025, "search": 0.08}

__all__ = ["InvariantViolation", "PlayOptions", "play", "game_seed", "run_stream", "run_streams", "Pool", "Stream",
           "Job", "MOVE_TIMEOUT", "default_workers"]


@dataclass
class PlayOptions:
    strict: bool = False
    turn_cap: int = 400
    loop_after: int = 150  # from this turn on, a repeated position at a turn start ends the game as a loop
    replay: str = ""  # what a replay command needs besides the seed (--data, --rule: failures.replay_args)


def game_seed(master: int, stream: str, index: int) -> int:
    return derive_seed(master, stream, index)


def play(game, seed: int, bots: tuple[str, ...], opts: PlayOptions, log: list | None = None,
         on_action: Callable | None = None, read_standings: bool = True):
    """Play one game to the end; return (state, play statistics).

    With ``read_standings`` and a state whose ``standings()`` gives a value per
    player (None for one who is out), the standings are read at the start of
    every round and once at the end, into ``stats["standings"]``: the lead and
    drama figures come from them.  Reading them changes nothing in the game.
    ``on_action(step, state, player, action)`` is called before each action.

    An engine's ``fast_play`` hook (``GameSpec.fast_play``), when it takes these
    bots, plays the game instead of the loop below unless the run is strict,
    logged, watched (``on_action``) or reads standings: the same game, the same
    finished state and the same statistics, with less work per action.
    """
    chance = Chance(seed)
    players = make_bots(bots, [Chance(s) for s in derive_seeds(seed, "bot", count=len(bots))], game)
    fast = getattr(getattr(game, "spec", None), "fast_play", None)
    if fast is not None and not (opts.strict or read_standings) and log is None and on_action is None:
        done = fast(game, chance, players, opts)
        if done is not None:
            return done
    state = game.new_initial_state(chance)
    views = [View(state, p) for p in range(len(bots))]
    if log is not None:
        state.log = log
    decisions = choices = legal_sum = 0
    turns_with_choice = 0
    choice_turn = -1
    guard = TurnGuard(opts.turn_cap, opts.loop_after)
    last_turn = state.turns
    standings = getattr(state, "standings", None) if read_standings else None
    history = []
    last_round = state.rounds if standings is not None else 0
    step = 0
    turn_limit = MAX_TURN_ACTIONS  # the action by which a new turn must have begun
    strict = opts.strict
    legal_actions, current_player = state.legal_actions, state.current_player
    apply = state.apply_action if strict else state.apply_unchecked
    steps = [bot.step for bot in players]
    while True:
        p = current_player()
        if p == TERMINAL:
            break
        turn = state.turns
        if turn != last_turn:
            last_turn = turn
            turn_limit = step + MAX_TURN_ACTIONS
            if guard.stops(state, turn):
                break
            if standings is not None and state.rounds != last_round:
                last_round = state.rounds
                row = standings()
                if row is None:  # the engine does not measure standings
                    standings = None
                else:
                    history.append(row)
        elif step >= turn_limit:
            raise stalled(game, seed, bots, step, turn, opts.replay)
        if p == SIMULTANEOUS:
            joint = {}
            for q in state.acting_players():
                actions = legal_actions(q)
                if strict and (bad := bad_actions(game, seed, bots, step, actions, opts.replay)):
                    raise bad
                n = len(actions)
                if n == 0:
                    continue
                decisions += 1
                legal_sum += n
                if n == 1:
                    joint[q] = actions[0]
                else:
                    choices += 1
                    if choice_turn != turn:
                        choice_turn = turn
                        turns_with_choice += 1
                    joint[q] = steps[q](views[q], actions)
            if not joint:
                state.stop("stuck")
                break
            if on_action is not None:
                for q, a in joint.items():
                    on_action(step, state, q, a)
            state.apply_actions(joint)
        else:
            actions = legal_actions()
            if strict and (bad := bad_actions(game, seed, bots, step, actions, opts.replay)):
                raise bad
            n = len(actions)
            if n == 0:
                state.stop("stuck")
                break
            decisions += 1
            legal_sum += n
            if n == 1:
                action = actions[0]
            else:
                choices += 1
                if choice_turn != turn:
                    choice_turn = turn
                    turns_with_choice += 1
                action = steps[p](views[p], actions)
            if on_action is not None:
                on_action(step, state, p, action)
            apply(action)
        if strict:
            try:
                state.check_invariants()
            except AssertionError as exc:
                raise InvariantViolation(game.spec.slug, seed, step, str(exc), game.players, bots,
                                         opts.replay) from None
        step += 1
    if standings is not None:
        row = standings()
        if row is not None:
            history.append(row)
    return state, {"decisions": decisions, "choices": choices, "legal_sum": legal_sum,
                   "turns_with_choice": turns_with_choice, "standings": history}


# ------------------------------------------------------------------ batches
@dataclass
class Batch:
    """Games ``start .. start+count-1`` of one stream: what a worker receives."""

    game: object  # a compiled, picklable rules Game, or the Shipped form of it (sent once per worker)
    stream: str
    master: int
    start: int
    count: int
    bots: tuple  # one tuple of names per game pattern; game i uses bots[i % len(bots)]
    opts: PlayOptions
    model: TimeModel
    rows: bool = True
    standings: int = 0  # games with a smaller index read their standings (the lead and drama figures)
    values: bool = False  # also keep each game's values of the engine's headline figures (paired comparisons)
    only: tuple = ()  # when given, just these game indices (a replay of a few games: the reproducibility check)


@dataclass
class BatchResult:
    tally: Tally
    rows: list = field(default_factory=list)
    values: list = field(default_factory=list)  # per game: the engine's figure values (GameSpec.figures order)
    seconds: float = 0.0  # the worker's CPU time for the batch (to size the next ones)


def run_batch(batch: Batch) -> BatchResult:
    """Play a batch; a game that raises, exits or writes ends the run with one line naming its seed and action."""
    began = time.process_time()
    game = received(batch.game)
    tally = new_tally(game.spec)
    rows, values = [], []
    if batch.only:
        indices = batch.only
        seeds = [game_seed(batch.master, batch.stream, i) for i in indices]
    else:
        indices = range(batch.start, batch.start + batch.count)
        seeds = derive_seeds(batch.master, batch.stream, count=batch.count, start=batch.start)  # (game_seed of each)
    for i, seed in zip(indices, seeds):
        beat(i, 1)  # (the pool's time limit counts from each game's start; a lost worker says which game)
        bots = batch.bots[i % len(batch.bots)]
        try:
            state, stats = play(game, seed, bots, batch.opts, read_standings=i < batch.standings)
            record = state.record()
            figures = tally.add_game(i, seed, record, bots, stats, batch.model)
            if batch.rows:
                rows.append(_row(i, seed, bots, record, batch.model))
            if batch.values:
                values.append(figures)
        except (InvariantViolation, EngineFailure):
            raise
        except BaseException as exc:  # noqa: BLE001 - the engine's fault (an exit, an interrupt ...), with its seed
            raise game_failure(game, seed, bots, batch.opts, exc) from None
    return BatchResult(tally, rows, values, time.process_time() - began)


def _row(index: int, seed: int, bots, record, model: TimeModel) -> list:
    seats = record.seats
    start = seats.index(0)
    return [
        index, seed, len(seats), "|".join(bots), start + 1,
        " ".join(f"P{w + 1}" for w in record.winners),
        " ".join(str(seats[w] + 1) for w in record.winners),
        record.turns, record.rounds, record.actions,
        f"{model.minutes(record.turns, record.actions):.1f}",
        record.end,
        " ".join(f"P{p + 1}:{cause}@{turn}" for p, cause, turn in record.eliminations),
        " ".join("-" if s is None else str(s) for s in record.scores),
    ]


def games_csv_header(spec) -> list[str]:
    """games.csv's columns; the last one holds the final per-player values (``spec.score_name``)."""
    return GAMES_CSV_COLUMNS + [spec.score_name]


GAMES_CSV_COLUMNS = ["game", "seed", "players", "bots", "start_player", "winners", "winner_seats", "turns", "rounds",
                     "actions", "minutes", "end", "eliminations"]


# ------------------------------------------------------------------ streams and jobs
@dataclass
class Stream:
    """One series of games: ``games`` games of ``stream`` with its bot patterns."""

    key: object
    game: object
    stream: str
    master: int
    games: int
    bots: list
    opts: PlayOptions
    model: TimeModel
    on_rows: Callable | None = None
    standings: int = 0  # the first games that read their standings (lead and drama figures)
    first: int = 0  # the index of the stream's first game (a later part of a stream: more games of a variant)
    on_values: Callable | None = None  # handed each batch's per-game values of the engine's headline figures
    group: int = 0  # streams and jobs of a smaller group are played first; within a group they take turns
    only: tuple = ()  # just these game indices, in one batch (``games`` is their number)


@dataclass
class Job:
    """Work for the pool besides streams of games: ``fn(part)`` for each part in a worker (a module-level
    function); ``done(results)`` in the main process with every part's result, in order."""

    key: object
    fn: Callable
    parts: list
    done: Callable[[list], None]
    group: int = 0
    cost: float = 0.05  # seconds of work per part, roughly (for the sizes of the games' batches)


#: seconds of work a batch of games aims at, at most (a task's least is ``Pool.task_seconds``)
MAX_TASK = 0.5


def game_cost(bots: Iterable[tuple]) -> float:
    """The rough cost of a game with these bot patterns (the dearest bot's)."""
    names = {n for pattern in bots for n in pattern}
    return max(COST.get(n, 0.002) for n in names) if names else 0.002


class Plan:
    """Cuts streams into batches as the pool asks for them (guided: each batch about a share of the work
    left, so the last ones are small and every worker finishes at once), timing each stream's games from its
    results."""

    def __init__(self, pool: Pool, streams: list[Stream], jobs: list[Job]):
        self.pool, self.streams, self.jobs = pool, streams, jobs
        self.next = [st.first for st in streams]
        self.cost = [game_cost(st.bots) for st in streams]
        self.timed = [False] * len(streams)
        self.parts_left = [len(j.parts) for j in jobs]
        self.games = pool.ship([st.game for st in streams])
        self.groups = sorted({st.group for st in streams} | {j.group for j in jobs})

    def left(self) -> float:
        work = sum((st.first + st.games - n) * c for st, n, c in zip(self.streams, self.next, self.cost))
        return work + sum(k * j.cost for k, j in zip(self.parts_left, self.jobs))

    def time(self, i: int, result: BatchResult) -> None:
        """A batch of stream ``i`` came back: its games' cost replaces the estimate."""
        if result.tally.games:
            measured = result.seconds / result.tally.games
            self.cost[i] = measured if not self.timed[i] else 0.5 * (self.cost[i] + measured)
            self.timed[i] = True

    def batch(self, i: int):
        st = self.streams[i]
        end = st.first + st.games
        start = self.next[i]
        if start >= end:
            return None
        if st.only:
            self.next[i] = end
            return Batch(self.games[i], st.stream, st.master, 0, len(st.only), tuple(st.bots), st.opts, st.model,
                         True, st.standings, False, tuple(st.only))
        workers = self.pool.workers
        aim = min(MAX_TASK, max(self.pool.task_seconds, self.left() / (3 * workers)))
        if not self.timed[i]:  # small batches until one is back: its time sets the size of the next
            aim = min(aim, self.pool.task_seconds)
        size = max(1, min(end - start, round(aim / max(self.cost[i], 1e-6))))
        self.next[i] = start + size
        return Batch(self.games[i], st.stream, st.master, start, size, tuple(st.bots), st.opts, st.model,
                     st.on_rows is not None, st.standings, st.on_values is not None)

    def items(self) -> Iterator:
        """``(kind, index, payload)`` items in the pool's order: groups in turn, and in a group one batch or
        part from each stream or job in turn."""
        for g in self.groups:
            lanes = [("s", i) for i, st in enumerate(self.streams) if st.group == g] + \
                    [("j", i) for i, j in enumerate(self.jobs) if j.group == g]
            while lanes:
                for lane in list(lanes):
                    kind, i = lane
                    if kind == "s":
                        b = self.batch(i)
                        if b is None:
                            lanes.remove(lane)
                            continue
                        yield ("s", i, b)
                    else:
                        job = self.jobs[i]
                        if not self.parts_left[i]:
                            lanes.remove(lane)
                            continue
                        k = len(job.parts) - self.parts_left[i]
                        self.parts_left[i] -= 1
                        yield ("j", i, carry((job.fn, job.parts[k]), job.fn))  # (a folder engine's travels)


def run_streams(pool: Pool, streams: list[Stream], on_progress: Callable | None = None, jobs: list[Job] = (),
                on_group: Callable[[int], None] | None = None, totals: dict | None = None) -> dict:
    """Play several streams, and run the jobs, through one pipeline (no worker idles between them); tallies
    are merged in batch order, so the result does not depend on the pool.  ``on_group(g)`` is called once
    every stream and job of group ``g`` (and of every earlier group) is in; by then ``totals`` (returned,
    stream key -> Tally) holds those streams' tallies."""
    jobs = list(jobs)
    totals = {} if totals is None else totals
    totals.update({st.key: new_tally(received(st.game).spec) for st in streams})
    plan = Plan(pool, streams, jobs)
    job_results: dict[int, list] = {i: [] for i, job in enumerate(jobs) if job.parts}
    groups = plan.groups
    waiting = {g: 0 for g in groups}  # items fed and not yet merged, by group
    fed = {"group": None}  # the group the feeder is in (every earlier one is wholly fed); "all" at the end
    told: list[int] = []

    def tasks():
        for kind, i, payload in plan.items():
            g = streams[i].group if kind == "s" else jobs[i].group
            fed["group"] = g
            waiting[g] += 1
            yield kind, i, payload
        fed["group"] = "all"

    def tell() -> None:
        for g in groups:
            if g in told:
                continue
            if waiting[g] or (fed["group"] != "all" and (fed["group"] is None or fed["group"] <= g)):
                return
            told.append(g)
            if on_group is not None:
                on_group(g)

    for job in jobs:
        if not job.parts:
            job.done([])
    try:
        for kind, i, result in pool.map_ordered(_run_item, tasks()):
            if kind == "s":
                st = streams[i]
                plan.time(i, result)
                totals[st.key].merge(result.tally)
                if st.on_rows is not None:
                    st.on_rows(result.rows)
                if st.on_values is not None:
                    st.on_values(result.values)
                if on_progress is not None:
                    on_progress(result.tally.games)
                waiting[st.group] -= 1
            else:
                job_results[i].append(result)
                if len(job_results[i]) == len(jobs[i].parts):
                    jobs[i].done(job_results.pop(i))
                waiting[jobs[i].group] -= 1
            tell()
    except Lost as lost:
        raise lost_failure(lost, streams, pool.move_timeout) from None
    tell()
    return totals


def _run_item(item, games=None):
    kind, i, payload = item
    if kind == "s":
        if games is not None:  # (on Dask: the scattered games, and the batch names its own)
            payload.game = games.game(payload.game)
        return kind, i, run_batch(payload)
    fn, part = arrived(payload)
    return kind, i, fn(part)


def lost_failure(lost: Lost, streams: list[Stream], limit: float) -> EngineFailure:
    """A worker that ended or overran while it played a batch: the game it was at, played again alone in a
    fresh process to find the action."""
    kind, i, payload = lost.item
    if kind != "s":
        fn = arrived(payload)[0]
        return EngineFailure(f"a worker process {lost.why} while it ran {fn.__module__}.{fn.__qualname__} (games a "
                             "rules engine's statistics play beside the main run)")
    batch = payload
    index = int(lost.marks[0]) if lost.marks and lost.marks[1] else batch.start
    game = received(batch.game)
    seed = game_seed(batch.master, batch.stream, index)
    bots = batch.bots[index % len(batch.bots)]
    return worker_lost(game, seed, bots, batch.opts, lost, limit)


def run_stream(pool: Pool, game, stream: str, master: int, games: int, bots: list[tuple], opts: PlayOptions,
               model: TimeModel, on_rows: Callable | None = None, on_progress: Callable | None = None,
               standings: int = 0) -> Tally:
    """Play ``games`` games of one stream; merge tallies in order; hand rows to ``on_rows``."""
    st = Stream("main", game, stream, master, games, bots, opts, model, on_rows, standings)
    return run_streams(pool, [st], on_progress)["main"]


# ---------------------------------------------------------------- a game that failed, told in one line
def game_failure(game, seed: int, bots: tuple, opts, exc: BaseException) -> EngineFailure:
    """The one-line failure of game ``seed`` that raised ``exc``."""
    spec = game.spec
    fault = fault_text(exc, spec)
    step, again = locate(game, seed, bots, opts)
    replay = replay_command(spec.slug, seed, game.players, bots, opts.replay)
    if again is None:
        return EngineFailure(f"the rules of {spec.slug} {fault} in game seed {seed}, but not "
                             f"when the seed was played again: the engine does not play the same game from the "
                             f"same seed (does it draw from anything but the Chance it is given?); "
                             f"pnp validate {spec.slug} --conformance checks it; the game: {replay}", seed)
    return EngineFailure(f"the rules of {spec.slug} {fault} in game seed {seed} {moment(step)}; "
                         f"replay it with: {replay}", seed, step)


def locate(game, seed: int, bots: tuple, opts, on_step: Callable[[int], None] | None = None
           ) -> tuple[int | None, BaseException | None]:
    """Play ``seed`` again through the protocol loop: (the last action begun, the
    exception) when it fails again, else (None, None).  ``on_step(step)`` is called
    as each action begins."""
    seen = {"step": None}

    def note(step, state, player, action):
        seen["step"] = step
        if on_step is not None:
            on_step(step)

    try:
        state, _ = play(game, seed, bots, opts, on_action=note, read_standings=False)
        state.record()
    except (InvariantViolation, EngineFailure) as exc:
        return exc.step, exc
    except BaseException as exc:  # noqa: BLE001 - the failure being located (an exit or an interrupt too)
        return seen["step"], exc
    return None, None


def worker_lost(game, seed: int, bots: tuple, opts, lost, limit: float) -> EngineFailure:
    """A worker process that ended (``os._exit``, a crash) or ran past the time limit while it played game
    ``seed``: the game is played again alone in a fresh process, watched action by action, to say where."""
    slug = game.spec.slug
    replay = replay_command(slug, seed, game.players, bots, opts.replay)
    ok, found = probe(_alone, (Shipped(game), seed, bots, opts), limit, guard_worker)
    if isinstance(found, Lost):
        step = int(found.marks[1]) if found.marks and found.marks[0] else None
        return EngineFailure(f"the rules of {slug} {lost_text(found, limit, 'worker process')} in game seed {seed} "
                             f"{moment(step)}; replay it with: {replay}", seed, step)
    if ok and found is not None:  # the replay raised, and said where
        step, text = found
        return EngineFailure(f"the rules of {slug} {text} in game seed {seed} {moment(step)}; replay it with: "
                             f"{replay}", seed, step)
    how = "ran past the time limit" if lost.overran else lost.why
    return EngineFailure(f"a worker process {how} while it played game seed {seed} of {slug}, but the game played "
                         f"again alone did not: the engine does not play the same game from the same seed, or "
                         f"it depends on the games played before; pnp validate {slug} --conformance checks it; the "
                         f"game: {replay}", seed)


def _alone(task):
    """In a fresh worker: play one game through the protocol loop, each action timed (``beat``): None when it
    ends normally, else (the action, what the engine did)."""
    shipped, seed, bots, opts = task
    game = received(shipped)
    step, exc = locate(game, seed, bots, opts, on_step=lambda step: beat(1, step))
    if exc is None:
        return None
    if isinstance(exc, (InvariantViolation, EngineFailure)):
        return step, str(exc)
    return step, fault_text(exc, game.spec)
