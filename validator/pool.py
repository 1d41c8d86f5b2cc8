"""The pool every game of a run goes through: supervised local worker processes, or a Dask cluster.

:class:`Pool` runs ``fn(item)`` for a stream of items and hands the results back in item order
(``map_ordered``).  Local workers are a :class:`model.workers.Supervisor`'s - even one worker is
a process of its own - each with its standard output and error refused to the engine
(:func:`guard_worker`); with a scheduler address the items go to a Dask cluster.  A compiled
game travels to each worker once (:class:`Shipped`): to a local worker with the first task that
needs it, to every Dask worker as one scattered object.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections import deque
from concurrent.futures import CancelledError
from dataclasses import replace
from typing import Iterable, Iterator

from model.errors import PnpError
from model.workers import WAIT, Stoppable, sending_to
from validator.kit.folder import arrived, carry

from .failures import EngineWrote

__all__ = ["Pool", "Shipped", "received", "guard_worker", "default_workers", "MOVE_TIMEOUT"]


# ------------------------------------------------------------------ games sent once per worker
class Shipped:
    """A compiled game (and its folder engine's bundle) pickled once in the main process and unpickled once
    per worker: a task names it by its digest after the first that brought it to a worker (local workers), or
    it is scattered to every Dask worker once (:class:`Pool`)."""

    __slots__ = ("value", "key", "payload")

    def __init__(self, value):
        self.value = value
        self.payload = pickle.dumps(carry(value, value), protocol=pickle.HIGHEST_PROTOCOL)
        self.key = hashlib.blake2b(self.payload, digest_size=16).hexdigest()

    def __reduce__(self):
        to = sending_to()
        if to is not None:
            sent = _SENT.setdefault(to, set())
            if self.key in sent:
                return (_receive, (self.key, None))
            sent.add(self.key)
        return (_receive, (self.key, self.payload))


_SENT: dict[tuple, set] = {}  # (pool, worker) -> keys of the games it has
_RECEIVED: dict[str, object] = {}  # in a worker: key -> the game


def _receive(key: str, payload: bytes | None):
    game = _RECEIVED.get(key)
    if game is None:
        if payload is None:
            raise RuntimeError(f"game {key} was named before it was sent")
        game = _RECEIVED[key] = arrived(pickle.loads(payload))
    return game


def received(game):
    """The game a batch names: itself (a worker), or the value of its Shipped form (the main process)."""
    if type(game) is Shipped:
        return game.value
    return arrived(game)


# ------------------------------------------------------------------ the pool
def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


#: the longest one game (and, when it is played again to find the fault, one action) may take: ``--move-timeout``
MOVE_TIMEOUT = 30.0


class Pool(Stoppable):
    """Worker processes that play the games: ``workers`` local ones, or a Dask scheduler's.

    Local workers are supervised (:class:`model.workers.Supervisor`): each runs with its standard output and
    error refused to the engine (a write is the engine's fault, told with the game), a game that runs past
    ``move_timeout`` seconds has its worker stopped, and Ctrl-C or a failure stops every worker at once.
    Even one worker is a process of its own, so that no engine can take the run down with it."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None, timeout: float = 10.0,
                 move_timeout: float | None = None):
        self.scheduler = scheduler
        self.client = None
        self.supervisor = None
        self.move_timeout = move_timeout or MOVE_TIMEOUT
        self.scattered: dict[str, object] = {}
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
            self.workers = max(1, sum(w.get("nthreads", 1) for w in self.client.scheduler_info()["workers"].values()))
        else:
            from model.workers import Supervisor

            self.workers = workers or default_workers()
            self.supervisor = Supervisor(self.workers, guard_worker, self.move_timeout)

    @property
    def task_seconds(self) -> float:
        """The least work worth one task: a Dask round trip costs milliseconds, a local one tens of microseconds."""
        return 0.25 if self.client is not None else 0.06

    def ship(self, games: list) -> list:
        """What batches carry for each of ``games``: each travels to each worker once.  On Dask the games not
        yet on the cluster are scattered to every worker in one call (a sweep's twenty variants in one round
        trip, not twenty)."""
        shipped = [game if type(game) is Shipped else Shipped(game) for game in games]
        if self.client is None:
            return shipped
        new = {s.key: s.payload for s in shipped if s.key not in self.scattered}
        if new:
            # Every Dask worker gets the new games once, as one object: a batch task then depends on one
            # scattered object, and the scheduler queues the batches ("root-ish" tasks: a large group with
            # fewer than five dependencies) and hands each worker the next one as it frees up.  With one
            # scattered object per game (a sweep's twenty variants) it would place every batch on a worker
            # the moment it is submitted, and some workers would idle while others have a queue.
            bundle = self.client.scatter(_Scattered(new), broadcast=True, hash=False)
            self.scattered.update((key, _OnCluster(bundle, key)) for key in new)
        return [self.scattered[s.key] for s in shipped]

    def map_ordered(self, fn, items: Iterable, window: int | None = None) -> Iterator:
        """``fn(item)`` for each item, results in item order, at most ``window`` in flight (an item that is
        ``WAIT`` holds back the next ones until a result has been handed on)."""
        if self.supervisor is not None:
            yield from self.supervisor.map_ordered(fn, items, window)
            return
        yield from self._dask_ordered(fn, items, window or max(4, 3 * self.workers))

    def _dask_ordered(self, fn, items, window: int) -> Iterator:
        from distributed import wait

        def submit(item):
            if item[0] == "s":  # the batch names its game; the scattered games go as the future Dask resolves
                kind, i, batch = item
                where = batch.game
                return self.client.submit(fn, (kind, i, replace(batch, game=where.key)), where.games, pure=False)
            return self.client.submit(fn, item, pure=False)

        pending: deque = deque()  # [future, item, times it was asked for]
        source = iter(items)
        exhausted = waiting = False
        try:
            while True:
                while not (exhausted or waiting) and len(pending) < window:
                    item = next(source, _END)
                    if item is _END:
                        exhausted = True
                    elif item is WAIT:
                        waiting = True
                    else:
                        pending.append([submit(item), item, 1])
                if not pending:
                    if waiting:
                        waiting = False
                        continue
                    return
                head = pending[0]
                while True:  # (a short wait at a time, so that Ctrl-C is heard)
                    try:
                        wait(head[0], timeout=0.2)
                    except TimeoutError:
                        continue
                    except CancelledError:
                        pass
                    if head[0].status != "cancelled":
                        value = head[0].result()
                        break
                    # the cluster let the task go (a worker or the connection to the scheduler lost): the
                    # same task again gives the same games, a few times before the run says so
                    if head[2] >= DASK_TRIES:
                        raise PnpError(f"the Dask cluster at {self.scheduler} dropped a task of this run "
                                       f"{head[2]} times (its workers or the connection to its scheduler lost); "
                                       "check the cluster and run again")
                    head[0], head[2] = submit(head[1]), head[2] + 1
                pending.popleft()
                waiting = False
                yield value
        finally:
            for future, _, _ in pending:
                future.cancel()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        elif self.supervisor is not None:
            self.supervisor.close()

    def abort(self) -> None:
        if self.supervisor is not None:
            self.supervisor.abort()
        else:
            self.close()


_END = object()
#: A task a Dask cluster drops (cancels) is asked for again, at most this many times in all.
DASK_TRIES = 3


class _Scattered:
    """Games as scattered to Dask workers, pickled (key -> payload): each unpickled once in a worker, when a
    batch first needs it, and let go with the scattered object (a cluster outlives many runs)."""

    __slots__ = ("payloads", "games")

    def __init__(self, payloads: dict[str, bytes]):
        self.payloads, self.games = payloads, {}

    def __reduce__(self):
        return (_Scattered, (self.payloads,))

    def game(self, key: str):
        game = self.games.get(key)
        if game is None:
            game = self.games[key] = arrived(pickle.loads(self.payloads[key]))
        return game


class _OnCluster:
    """What a batch carries for a game on a Dask cluster, in the main process: the scattered games it is among
    (a future) and its key."""

    __slots__ = ("games", "key")

    def __init__(self, games, key: str):
        self.games, self.key = games, key


class _Refused:
    """A worker's ``sys.stdout``/``sys.stderr``: a write is the engine's fault."""

    def __init__(self, name: str):
        self.name = name

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise EngineWrote(self.name, text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("no file")


def guard_worker() -> None:
    """Each local worker's setup: its file descriptors 1 and 2 go nowhere and a write through sys.stdout or
    sys.stderr raises EngineWrote in the engine that made it (the parent's terminal stays the parent's)."""
    import sys
    import warnings

    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    sys.stdout, sys.stderr = _Refused("output"), _Refused("error")
    warnings.simplefilter("ignore")  # (a library's warning is nobody's write)
