"""Playing games: one game, a batch of games, and a whole run on an executor.

Game ``i`` of a stream always gets the seed ``derive_seed(master, stream, i)``
and its bots get seeds derived from that, so a game is the same wherever it
runs.  Bots are handed their seat's ``View``, never the state; at a
simultaneous node every acting player's bot chooses, then the joint action is
applied.  Batches are submitted to a ``concurrent.futures`` executor - in-process
for one worker, a local process pool, or a Dask cluster's executor - and their
results are consumed in batch order with a bounded window, so the tallies and
games.csv are identical for any worker count and memory stays flat.
"""

from __future__ import annotations

import math
import os
from collections import deque
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from model.errors import EngineFailure, InvariantViolation, PnpError
from validator.kit import SIMULTANEOUS, TERMINAL, Chance, TurnGuard, View, derive_seed
from validator.kit.chance import derive_seeds
from validator.kit.folder import arrived, carry

from .bots import make_bots
from .failures import MAX_TURN_ACTIONS, bad_actions, describe, replay_command, stalled, where
from .metrics import Tally, TimeModel, new_tally

#: a rough cost per game in seconds, to size batches (>= ~100 ms of work each)
COST = {"random": 0.0006, "greedy": 0.0025, "search": 0.08}

__all__ = ["InvariantViolation", "PlayOptions", "play", "game_seed", "run_stream", "run_streams", "Pool"]


@dataclass
class PlayOptions:
    strict: bool = False
    turn_cap: int = 400
    loop_after: int = 150  # from this turn on, a repeated position at a turn start ends the game as a loop


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
            raise stalled(game, seed, bots, step, turn)
        if p == SIMULTANEOUS:
            joint = {}
            for q in state.acting_players():
                actions = legal_actions(q)
                if strict and (bad := bad_actions(game, seed, bots, step, actions)):
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
            if strict and (bad := bad_actions(game, seed, bots, step, actions)):
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
                raise InvariantViolation(game.spec.slug, seed, step, str(exc), game.players, bots) from None
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

    game: object  # a compiled, picklable rules Game
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


@dataclass
class BatchResult:
    tally: Tally
    rows: list = field(default_factory=list)
    values: list = field(default_factory=list)  # per game: the engine's figure values (GameSpec.figures order)


def run_batch(batch: Batch) -> BatchResult:
    """Play a batch; a game that raises ends the run with one line naming its seed and action."""
    tally = new_tally(batch.game.spec)
    rows, values = [], []
    seeds = derive_seeds(batch.master, batch.stream, count=batch.count, start=batch.start)  # (game_seed of each)
    for i, seed in enumerate(seeds, batch.start):
        bots = batch.bots[i % len(batch.bots)]
        try:
            state, stats = play(batch.game, seed, bots, batch.opts, read_standings=i < batch.standings)
            record = state.record()
            figures = tally.add_game(i, seed, record, bots, stats, batch.model)
            if batch.rows:
                rows.append(_row(i, seed, bots, record, batch.model))
            if batch.values:
                values.append(figures)
        except (InvariantViolation, EngineFailure):
            raise
        except Exception as exc:  # noqa: BLE001 - the engine's fault, told with the seed that shows it
            raise game_failure(batch.game, seed, bots, batch.opts, exc) from None
    return BatchResult(tally, rows, values)


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


# ------------------------------------------------------------------ executors
class InlineExecutor(Executor):
    """Runs each task at submit time in this process (``--workers 1``)."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(exc)
        return future


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


class Pool:
    """An executor for ``workers`` local processes or a Dask scheduler address."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None, timeout: float = 10.0):
        self.scheduler = scheduler
        self.client = None
        if scheduler:
            try:
                from distributed import Client
            except ImportError:
                raise PnpError("--scheduler needs Dask distributed; install it with: pip install 'pyramid-pnp[dask]'") \
                    from None
            try:
                self.client = Client(scheduler, timeout=f"{timeout}s")
            except (OSError, TimeoutError) as exc:
                raise PnpError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
            self.executor = self.client.get_executor()
            self.workers = max(1, sum(w.get("nthreads", 1) for w in self.client.scheduler_info()["workers"].values()))
        else:
            self.workers = workers or default_workers()
            if self.workers <= 1:
                self.executor = InlineExecutor()
            else:
                from model.workers import process_pool

                self.executor = process_pool(self.workers)

    def map_ordered(self, fn, items: Iterable, window: int | None = None) -> Iterator:
        """``fn(item)`` for each item, results in item order, at most ``window`` in flight."""
        window = window or max(2, 2 * self.workers)
        pending: deque = deque()
        for item in items:
            pending.append(self.executor.submit(fn, item))
            while len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        else:
            self.executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def batch_size(games: int, bots: Iterable[tuple], workers: int) -> int:
    """Games per task: about 150 ms of work, but enough tasks to keep every worker busy."""
    names = {n for pattern in bots for n in pattern}
    cost = max(COST.get(n, 0.002) for n in names) if names else 0.002
    by_time = max(1, math.ceil(0.15 / cost))
    by_spread = max(1, math.ceil(games / (4 * max(1, workers))))
    return max(1, min(by_time, by_spread))


def batches(game, stream: str, master: int, games: int, bots: list[tuple], opts: PlayOptions, model: TimeModel,
            size: int, rows: bool = True, standings: int = 0, first: int = 0, values: bool = False) -> Iterator[Batch]:
    """Games ``first .. first+games-1`` of a stream, ``size`` to a batch."""
    end = first + games
    for start in range(first, end, size):
        yield Batch(game, stream, master, start, min(size, end - start), tuple(bots), opts, model, rows, standings,
                    values)


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


def run_streams(pool: Pool, streams: list[Stream], on_progress: Callable | None = None) -> dict:
    """Play several streams through one pipeline (no worker idles between them);
    tallies are merged in batch order, so the result does not depend on the pool."""
    totals = {st.key: new_tally(st.game.spec) for st in streams}

    def tagged():
        for i, st in enumerate(streams):
            size = batch_size(st.games, st.bots, pool.workers)
            for b in batches(st.game, st.stream, st.master, st.games, st.bots, st.opts, st.model, size,
                             st.on_rows is not None, st.standings, st.first, st.on_values is not None):
                yield i, carry(b, st.game)  # an engine from a data folder travels with its batches

    items = tagged()
    for i, result in pool.map_ordered(_run_tagged, items):
        st = streams[i]
        totals[st.key].merge(result.tally)
        if st.on_rows is not None:
            st.on_rows(result.rows)
        if st.on_values is not None:
            st.on_values(result.values)
        if on_progress is not None:
            on_progress(result.tally.games)
    return totals


def _run_tagged(item):
    i, batch = item
    return i, run_batch(arrived(batch))


def run_stream(pool: Pool, game, stream: str, master: int, games: int, bots: list[tuple], opts: PlayOptions,
               model: TimeModel, on_rows: Callable | None = None, on_progress: Callable | None = None,
               standings: int = 0) -> Tally:
    """Play ``games`` games of one stream; merge tallies in order; hand rows to ``on_rows``."""
    st = Stream("main", game, stream, master, games, bots, opts, model, on_rows, standings)
    return run_streams(pool, [st], on_progress)["main"]


# ---------------------------------------------------------------- a game that raised, told in one line
def game_failure(game, seed: int, bots: tuple, opts, exc: BaseException) -> EngineFailure:
    """The one-line failure of game ``seed`` that raised ``exc``."""
    spec = game.spec
    place = where(exc, spec)
    at = f" ({place})" if place else ""
    step, again = locate(game, seed, bots, opts)
    replay = replay_command(spec.slug, seed, game.players, bots)
    if again is None:
        return EngineFailure(f"the rules of {spec.slug} raised {describe(exc)}{at} in game seed {seed}, but not "
                             f"when the seed was played again: the engine does not play the same game from the "
                             f"same seed (does it draw from anything but the Chance it is given?); "
                             f"pnp validate {spec.slug} --conformance checks it; the game: {replay}", seed)
    moment = "while setting up" if step is None else f"at action {step}"
    return EngineFailure(f"the rules of {spec.slug} raised {describe(exc)}{at} in game seed {seed} {moment}; "
                         f"replay it with: {replay}", seed, step)


def locate(game, seed: int, bots: tuple, opts) -> tuple[int | None, BaseException | None]:
    """Play ``seed`` again through the protocol loop: (the last action begun, the
    exception) when it fails again, else (None, None)."""
    seen = {"step": None}

    def note(step, state, player, action):
        seen["step"] = step

    try:
        state, _ = play(game, seed, bots, opts, on_action=note, read_standings=False)
        state.record()
    except (InvariantViolation, EngineFailure) as exc:
        return exc.step, exc
    except Exception as exc:  # noqa: BLE001 - the failure being located
        return seen["step"], exc
    return None, None
