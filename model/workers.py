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

import os
import pickle
import signal
import threading
import time
import traceback
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


def _alive(pid: int) -> bool:
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
        if os.getppid() != parent or (owner != parent and not _alive(owner)):
            os._exit(1)


def _start_worker(owner: int) -> None:
    """The initializer of every worker: Ctrl-C is left to the owner (the process
    that made the pool), and the worker ends when its parent (the owner, or a
    fork server the owner started) or the owner ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    if parent != owner and not _alive(owner):  # the owner died while this worker started
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
