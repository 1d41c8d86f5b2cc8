"""Worker processes that end with their parent and send back only what pickles.

``process_pool`` is the one way the project starts local worker processes
(the build's render parts and reference sheets, the exports' pictures, the
validator's games, the edit loop's helper).  Each worker:

- ends as soon as its parent process is gone, however the parent ended (a
  Ctrl-C, a crash, ``kill -9``): a thread in the worker watches the parent's
  process id and ends the worker when it changes;
- leaves Ctrl-C to its parent, which stops the pool (a worker would otherwise
  print a traceback of its own for every Ctrl-C);
- sends back a ``WorkerCrash`` (plain text: the exception and its traceback)
  for any exception that is not one of the project's named errors, so that a
  bug in a worker reaches the parent as one exception the command line can
  report, never as a pool broken by an exception that does not pickle.
"""

from __future__ import annotations

import gc
import itertools
import os
import pickle
import signal
import threading
import time
import traceback
from collections import deque
from concurrent.futures import ProcessPoolExecutor

from .errors import PnpError

#: Seconds between two looks at the parent's process id.
WATCH_INTERVAL = 0.2


class WorkerCrash(Exception):
    """An unexpected exception in a worker process: a bug, with the worker's traceback as text."""

    def __init__(self, kind: str, message: str, trace: str):
        super().__init__(kind, message, trace)
        self.kind, self.message, self.trace = kind, message, trace

    def __str__(self) -> str:
        return f"{self.kind} in a worker process: {self.message}"


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs."""
    if os.name != "posix":  # os.kill would end the process on Windows; the parent id is watched alone there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _watch_parent(parent: int, owner: int) -> None:
    while True:
        time.sleep(WATCH_INTERVAL)
        if os.getppid() != parent or (owner != parent and not alive(owner)):
            os._exit(1)


def _start_worker(owner: int) -> None:
    """The initializer of every worker: Ctrl-C is left to the owner (the process
    that made the pool), and the worker ends when its parent (the owner, or a
    fork server the owner started) or the owner ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    if parent != owner and not alive(owner):  # the owner died while this worker started
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent, owner), name="pnp-parent-watch", daemon=True).start()


def _guarded(fn, args, kwargs):
    """Run ``fn`` in a worker; any exception that is not a named error, or that
    would not pickle, comes back as a WorkerCrash."""
    try:
        return fn(*args, **kwargs)
    except PnpError as exc:
        try:
            pickle.dumps(exc)
        except Exception:  # noqa: BLE001 - a named error holding something that does not pickle
            raise WorkerCrash(type(exc).__name__, str(exc), traceback.format_exc()) from None
        raise
    except Exception as exc:  # noqa: BLE001 - every other failure is reported as a bug, with its traceback
        raise WorkerCrash(type(exc).__name__, str(exc), traceback.format_exc()) from None


class WorkerPool(ProcessPoolExecutor):
    """A ProcessPoolExecutor whose workers end with their parent and whose errors always reach it."""

    def __init__(self, max_workers: int | None = None, mp_context=None):
        super().__init__(max_workers=max_workers, mp_context=mp_context, initializer=_start_worker,
                         initargs=(os.getpid(),))

    def submit(self, fn, /, *args, **kwargs):
        return super().submit(_guarded, fn, args, kwargs)


def process_pool(workers: int, mp_context=None) -> WorkerPool:
    """A pool of ``workers`` local processes (see the module's docstring)."""
    return WorkerPool(max_workers=max(1, workers), mp_context=mp_context)


# ------------------------------------------------------------------ supervised workers
class Lost(Exception):
    """A worker process that ended (``code``: its exit status, or the signal that ended it as a negative
    number) or was stopped for running past the pool's time limit (``overran``) while it held ``item``.
    ``marks`` are the last two numbers the task gave :func:`beat` (e.g. a game seed and an action)."""

    def __init__(self, item, code: int | None = None, overran: bool = False, marks: tuple = ()):
        super().__init__(item, code, overran, marks)
        self.item, self.code, self.overran, self.marks = item, code, overran, tuple(marks)

    @property
    def why(self) -> str:
        """How it ended, in words."""
        if self.overran:
            return "ran past its time limit"
        if self.code is not None and self.code < 0:
            try:
                return f"was ended by signal {signal.Signals(-self.code).name}"
            except ValueError:
                return f"was ended by signal {-self.code}"
        return f"ended with exit code {self.code}"


#: Seconds the parent waits on its workers' pipes before it looks at their clocks (and lets Ctrl-C in).
TICK = 0.1
#: Tasks a worker holds at once: one running, the next already there when it finishes.
AHEAD = 2

_TOKENS = itertools.count(1)
_SENDING = None  # while a Supervisor pickles a task: (the pool's id, the worker's index)
_SLOTS = None  # in a supervised worker: its three shared numbers (time the unit began, two marks)


def beat(a: float = 0.0, b: float = 0.0) -> None:
    """From inside a supervised task: a new unit of work (a game, an action) begins now - the pool's time
    limit counts from here - and ``a``, ``b`` say which (kept for :class:`Lost`).  Nothing elsewhere."""
    slots = _SLOTS
    if slots is not None:
        slots[1] = a
        slots[2] = b
        slots[0] = time.monotonic()


def sending_to():
    """While a :class:`Supervisor` pickles a task: (the pool's id, the worker's index) it goes to, else None.
    A large value sent with many tasks can use it to travel to each worker once."""
    return _SENDING


class _Slots:
    """A worker's three numbers in the pool's shared array."""

    __slots__ = ("array", "base")

    def __init__(self, array, index: int):
        self.array, self.base = array, 3 * index

    def __setitem__(self, k, v):
        self.array[self.base + k] = v

    def __getitem__(self, k):
        return self.array[self.base + k]


def _serve(tasks, replies, array, index: int, owner: int, setup) -> None:
    """A supervised worker: run the tasks its pipe brings, send back each result or exception.  A thread
    reads the pipe as tasks arrive, so the parent never waits to hand one over."""
    global _SLOTS
    import queue

    _start_worker(owner)
    slots = _SLOTS = _Slots(array, index)
    inbox: queue.SimpleQueue = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                data = tasks.recv_bytes()
            except (EOFError, OSError):
                data = b""
            inbox.put(data)
            if not data:
                return

    threading.Thread(target=read, name="pnp-worker-inbox", daemon=True).start()
    if setup is not None:
        setup()
    while True:
        data = inbox.get()
        if not data:
            return
        seq = int.from_bytes(data[:8], "little")
        slots[1] = slots[2] = 0.0
        slots[0] = time.monotonic()
        try:
            fn, item = pickle.loads(data[8:])
            reply = (seq, True, fn(item))
        except BaseException as exc:  # noqa: BLE001 - any end of a task, an exit or interrupt included, goes back
            reply = (seq, False, _portable(exc))
        slots[0] = 0.0
        try:
            replies.send(reply)
        except Exception as exc:  # noqa: BLE001 - a result that does not pickle is a bug, told as one
            replies.send((seq, False, WorkerCrash(type(exc).__name__, str(exc), traceback.format_exc())))


def _portable(exc: BaseException) -> BaseException:
    """``exc`` as it can travel to the parent: a named error that pickles as itself, anything else as a
    WorkerCrash."""
    if isinstance(exc, (PnpError, WorkerCrash)):
        try:
            pickle.dumps(exc)
            return exc
        except Exception:  # noqa: BLE001 - a named error holding something that does not pickle
            pass
    trace = "".join(traceback.format_exception(exc))
    return WorkerCrash(type(exc).__name__, str(exc), trace)


class Stoppable:
    """A ``with`` block for workers: left normally it ``close()``s them, left by an exception (Ctrl-C
    included) it ``abort()``s them - kills them at once."""

    def close(self) -> None:
        raise NotImplementedError

    def abort(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is None:
            self.close()
        else:
            self.abort()


class Supervisor(Stoppable):
    """``workers`` local processes whose parent knows what each one runs.

    Unlike a ``ProcessPoolExecutor`` it can stop one worker: a task whose unit of work (see :func:`beat`)
    runs longer than ``limit`` seconds has its worker killed and ends as :class:`Lost` (so does a worker
    that exits, however), and Ctrl-C or any error in the parent kills every worker at once rather than
    waiting for tasks that may never end.  ``setup()`` runs in each worker before its first task.  Workers
    are forked where the platform can (they start in milliseconds with what the parent has imported),
    all of them when the pool is made."""

    def __init__(self, workers: int, setup=None, limit: float | None = None):
        import multiprocessing as mp

        self.workers = max(1, workers)
        self.token = next(_TOKENS)
        self.limit = limit
        self.setup = setup
        self.context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.array = self.context.RawArray("d", 3 * self.workers)
        self.procs: list = []
        self.conns: list = []  # replies from each worker
        self.sends: list = []  # tasks to each worker
        self.held: list[deque] = []
        self.closed = False
        for i in range(self.workers):
            self._start(i)

    def _start(self, i: int) -> None:
        task_in, task_out = self.context.Pipe(duplex=False)
        reply_in, reply_out = self.context.Pipe(duplex=False)
        proc = self.context.Process(target=_serve, args=(task_in, reply_out, self.array, i, os.getpid(), self.setup),
                                    name=f"pnp-worker-{i + 1}", daemon=True)
        # A forked worker's garbage collector would write to every object it inherits (each collection of the
        # oldest generation marks them), copying the parent's memory page by page into each worker: frozen
        # for the fork, they stay shared; the parent collects them again once the worker is started.
        gc.freeze()
        try:
            proc.start()
        finally:
            gc.unfreeze()
        task_in.close()
        reply_out.close()
        self.procs.append(proc)
        self.conns.append(reply_in)
        self.sends.append(task_out)
        self.held.append(deque())
        for k in range(3):
            self.array[3 * i + k] = 0.0

    def map_ordered(self, fn, items, window: int | None = None):
        """``fn(item)`` for each item in worker processes, results in item order, at most ``window``
        items in flight or waiting to be handed on.  An item that is :data:`WAIT` means "nothing more
        until the next result has been handed on"."""
        window = window or max(4, 4 * self.workers)
        source = iter(items)
        sent = given = 0
        results: dict[int, tuple] = {}
        exhausted = waiting = failed = False
        while True:
            while not (exhausted or waiting or failed) and sent - given < window:
                w = min(range(self.workers), key=lambda k: len(self.held[k]))
                if len(self.held[w]) >= AHEAD:
                    break
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                if item is WAIT:
                    waiting = True
                    break
                self.held[w].append((sent, item))
                sent += 1
                try:
                    self._send(w, sent - 1, fn, item)
                except OSError:  # the worker is gone: what it held is lost
                    failed = True
                    self._lost(w, results, False)
            if given in results:
                ok, value = results.pop(given)
                given += 1
                if not ok:
                    self.abort()
                    raise value
                waiting = False
                yield value
                continue
            if exhausted and given == sent:
                return
            if not any(self.held):
                if waiting:  # the source waits for results that are all handed on: ask it again
                    waiting = False
                    continue
                return
            failed |= self._collect(results)

    def _collect(self, results: dict) -> bool:
        """Wait a tick for replies; note workers that ended or overran. True once a task has failed."""
        from multiprocessing.connection import wait

        busy = [w for w in range(self.workers) if self.held[w]]
        ready = wait([self.conns[w] for w in busy] + [self.procs[w].sentinel for w in busy], timeout=TICK)
        failed = False
        for w in busy:
            conn, proc = self.conns[w], self.procs[w]
            if conn not in ready and proc.sentinel not in ready:
                continue
            try:
                while self.held[w] and conn.poll():
                    seq, ok, value = conn.recv()
                    self.held[w].popleft()
                    results[seq] = (ok, value)
                    failed |= not ok
            except (EOFError, OSError):
                pass
            if self.held[w] and (proc.sentinel in ready or not proc.is_alive()):
                failed = True
                self._lost(w, results, False)
        if self.limit is not None:
            now = time.monotonic()
            for w in busy:
                began = self.array[3 * w]
                if self.held[w] and began and now - began > self.limit:
                    self._lost(w, results, True)
                    failed = True
        return failed

    def _lost(self, w: int, results: dict, overran: bool) -> None:
        """Worker ``w`` ended, or overran and is killed: its running task is lost."""
        marks = self._marks(w)
        self._kill(w)
        seq, item = self.held[w][0]
        results[seq] = (False, Lost(item, None if overran else self.procs[w].exitcode, overran, marks))
        self.held[w].clear()

    def _send(self, w: int, seq: int, fn, item) -> None:
        global _SENDING
        _SENDING = (self.token, w)  # what a value shipped once per worker asks (see sending_to)
        try:
            data = pickle.dumps((fn, item), protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            _SENDING = None
        self.sends[w].send_bytes(seq.to_bytes(8, "little") + data)

    def _marks(self, w: int) -> tuple:
        return (self.array[3 * w + 1], self.array[3 * w + 2])

    def _kill(self, w: int) -> None:
        proc = self.procs[w]
        if proc.is_alive():
            proc.kill()
        proc.join(2.0)

    def abort(self) -> None:
        """Kill every worker now (a failure or Ctrl-C: what they hold is no longer wanted)."""
        if self.closed:
            return
        self.closed = True
        for proc in self.procs:
            if proc.is_alive():
                proc.kill()
        for proc, conn, send in zip(self.procs, self.conns, self.sends):
            proc.join(2.0)
            conn.close()
            send.close()

    def close(self) -> None:
        """Let idle workers end; any worker still holding a task is killed."""
        if self.closed:
            return
        if any(self.held):
            self.abort()
            return
        self.closed = True
        for conn in self.sends:
            try:
                conn.send_bytes(b"")
            except OSError:
                pass
        deadline = time.monotonic() + 2.0
        for proc, conn in zip(self.procs, self.conns):
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        for conn in self.conns + self.sends:
            conn.close()



#: An item of :meth:`Supervisor.map_ordered` that asks it to wait for the next result before asking for more.
WAIT = object()


def probe(fn, item, limit: float | None = None, setup=None):
    """``fn(item)`` alone in a fresh worker under the same watch: (True, result), (False, the exception
    it raised), or (False, :class:`Lost`) when the worker ended or overran."""
    with Supervisor(1, setup, limit) as pool:
        try:
            return True, next(iter(pool.map_ordered(fn, [item])))
        except (Lost, Exception) as exc:  # noqa: BLE001 - handed back for the caller to tell
            return False, exc


# ------------------------------------------------------------------ Ctrl-C
_HEARD = threading.Event()


def ctrl_c_heard() -> bool:
    """True once the user pressed Ctrl-C (see :func:`hear_ctrl_c`): a KeyboardInterrupt before that was raised
    by code, not by the user."""
    return _HEARD.is_set()


def hear_ctrl_c(last_words=None, grace: float = 1.5) -> None:
    """Ctrl-C raises KeyboardInterrupt in the main thread as always, and is noted (:func:`ctrl_c_heard`); and
    should the process still be running ``grace`` seconds later (code that swallowed the interrupt, or waits
    on something that never comes), ``last_words()`` runs and the process ends with exit code 130 - its worker
    processes end with it."""
    def stop() -> None:
        try:
            if last_words is not None:
                last_words()
        finally:
            os._exit(130)

    def heard(signum, frame):
        if not _HEARD.is_set():
            _HEARD.set()
            timer = threading.Timer(grace, stop)
            timer.daemon = True
            timer.start()
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, heard)
