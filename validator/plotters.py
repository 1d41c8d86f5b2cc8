"""Processes that draw a report's charts beside the run, many at once.

A sweep's report holds a chart of every headline figure against every varied parameter - a few
dozen matplotlib figures, seconds of drawing once the last variant is in.  :class:`Plotters` forks a
few processes as the run starts (each imports matplotlib at once, while the games play) and, at the
end, hands them the charts to draw, results in order: the same bytes as charts drawn one after
another in the main process, which is what happens where processes cannot be forked, with a single
core, or should a plotting process fail.
"""

from __future__ import annotations

import multiprocessing as mp
import os

from validator.kit.html import plt

#: The most plotting processes a run starts (each imports matplotlib, about half a second of a core).
MOST = 8


def warm() -> None:
    """Import matplotlib now, in a thread of its own, while the pool plays: a report drawn later finds it
    imported (call it once the pool's workers have started: they are forked without the thread)."""
    import threading

    threading.Thread(target=plt, name="pnp-report-import", daemon=True).start()


def forks() -> bool:
    """Whether processes can be forked here (they start with what this one has imported and holds)."""
    return "fork" in mp.get_all_start_methods()


def prepare() -> None:
    """A drawing process, as it starts: its output refused (as a game worker's) and matplotlib imported."""
    from .pool import guard_worker

    guard_worker()
    plt()


class Plotters:
    """Up to ``charts`` plotting processes (no more than the cores, nor :data:`MOST`); with fewer than two,
    matplotlib is imported in a thread of the main process instead, and the charts are drawn there."""

    def __init__(self, charts: int):
        self.pool = None
        n = min(charts, os.cpu_count() or 1, MOST)
        if n > 1 and forks():
            from model.workers import Supervisor

            self.pool = Supervisor(n, prepare)
        else:
            warm()

    def map(self, fn, items) -> list:
        """``fn(item)`` for every item, in order (``fn`` a module's function, the items plain data)."""
        items = list(items)
        if self.pool is not None:
            try:
                return list(self.pool.map_ordered(fn, items))
            except Exception:  # noqa: BLE001 - what the processes did not draw is drawn here
                pass
            finally:
                self.close()
        return [fn(item) for item in items]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def abort(self) -> None:
        """The run failed: the plotting processes end now."""
        if self.pool is not None:
            self.pool.abort()
            self.pool = None
