"""report.html's charts and an engine's report sections drawn beside the run, in processes of their own.

:class:`Drawing` is made as a validation run starts; the report (:mod:`validator.report`) takes what it
drew where the figures still hold, and draws the rest itself.
"""

from __future__ import annotations

import copy
import json
import os
import threading

from model.errors import EngineError
from model.workers import Lost
from validator.kit.html import plt

from . import report
from .plotters import forks, prepare


class Drawing:
    """report.html's charts drawn beside the run while the pool plays the last games.

    Made when the run starts, it imports matplotlib at once, in a process of its own where processes can
    be forked (else in a thread of the main process): the main process, which feeds the pool and merges
    what comes back, never waits for matplotlib.  On a machine of four cores or more, an engine with report
    sections of its own gets a second process, which draws them while the first draws the generic charts
    (on many cores the charts are what a run waits for once its last games are in; on fewer, a second
    import of matplotlib would cost the games more than it saves).  :meth:`draw` is handed a summary of the
    games whose figures the charts show (the main games, the engine's studies: the skill matrix, played
    last, is only tables) and every generic chart and the engine's report sections are drawn from it.  The report then
    takes each chart whose figures are unchanged, and each engine section whose summary blocks are (the
    blocks it read are noted), and draws the rest itself.  The drawing process is a supervised worker
    (model.workers): its output is refused to the engine's sections, it ends with the run, and should it
    fail the report draws everything in the main process."""

    def __init__(self, spec):
        self.spec = spec
        self.charts: dict[tuple, str] = {}
        self.sections: tuple | None = None  # (the blocks read and their values, whether all, the sections)
        self.summary: dict | None = None
        self.lost = None  # how the drawing process ended, had it ended or overrun while it drew
        self.ready = threading.Event()
        self.process = None
        if forks():
            from functools import partial

            from model.workers import Supervisor

            # forked now (the engine comes along as it is, folder engines too), matplotlib imported there at once
            self.process = Supervisor(drawers(spec), partial(_drawing_setup, spec), DRAW_LIMIT)
        self.thread = None
        if self.process is None:
            self._wait()
        # (with a drawing process, the thread that waits for it starts with the summary: the pool's workers,
        # forked after this, are forked from a process without it)

    def _wait(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="pnp-report-charts", daemon=True)
            self.thread.start()

    def draw(self, summary: dict) -> None:
        self.summary = summary
        self.ready.set()
        self._wait()

    def done(self, summary: dict | None = None) -> "Drawing":
        """Wait for the charts; ``summary`` (the final one) is drawn from if none was handed before."""
        if self.summary is None:
            self.summary = summary
        self.ready.set()
        self._wait()
        self.thread.join()
        self.close()
        return self

    def close(self) -> None:
        if self.process is not None:
            self.process.close()

    def abort(self) -> None:
        """The run failed: the drawing process ends now."""
        self.ready.set()
        if self.process is not None:
            self.process.abort()

    def _run(self) -> None:
        try:
            if self.process is None:
                plt()
            self.ready.wait()
            if self.summary is None:
                return
            if self.process is None:
                self.charts, self.sections = _draw_all(self.spec, self.summary)
            else:
                self.charts, self.sections = self.process.map_ordered(
                    _draw_forked, [(part, self.summary) for part in ("charts", "sections")])
        except Lost as lost:  # (the engine's sections exited or hung: not to be run again in the main process)
            self.lost = lost
        except Exception:  # noqa: BLE001 - the report draws what is missing itself, and raises there if it must
            pass

    def chart(self, name: str, block) -> str:
        out = self.charts.get((name, _key(block)))
        return out if out is not None else report._CHARTS[name](block)

    def engine_sections(self, s: dict) -> list:
        if self.lost is not None:
            why = self.lost.why + (f" ({DRAW_LIMIT:g} s)" if self.lost.overran else "")
            raise EngineError(f"the rules of {self.spec.slug}: the process drawing the report (its charts and the "
                              f"engine's sections, GameSpec.sections) {why}; nothing was written")
        if self.sections is not None:
            read, everything, found = self.sections
            if not everything and all(s.get(k) == v for k, v in read.items()):
                return found
        return list(self.spec.sections(s))


#: The longest the report's charts and an engine's sections may take in the drawing process (seconds).
DRAW_LIMIT = 60.0


_FORKED_SPEC = None  # in the drawing process: the engine whose sections it draws


def _drawing_setup(spec) -> None:
    """The drawing process, as it starts (validator.plotters.prepare), with the engine it draws for."""
    global _FORKED_SPEC
    _FORKED_SPEC = spec
    prepare()


def drawers(spec) -> int:
    """How many processes draw a run's report: two (the generic charts, the engine's sections) where the
    engine has sections and the machine four cores or more, else one."""
    return 2 if spec.sections is not None and (os.cpu_count() or 1) >= 4 else 1


def _draw_forked(task: tuple):
    part, summary = task
    return _DRAW[part](_FORKED_SPEC, summary)


def _draw_all(spec, s: dict) -> tuple:
    """Every generic chart of summary ``s`` and the engine's sections drawn from it: (charts, sections)."""
    return _draw_charts(spec, s), _draw_sections(spec, s)


def _draw_charts(spec, s: dict) -> dict:
    """Every generic chart of summary ``s``, by name and figures."""
    charts = report._CHARTS
    return {(name, _key(s[block])): charts[name](s[block]) for name, block in report._CHART_INPUTS if s.get(block)}


def _draw_sections(spec, s: dict) -> tuple | None:
    """The engine's sections drawn from summary ``s``, with the blocks they read: (blocks read and their
    values, whether they read all, sections), or None for an engine without sections."""
    if spec.sections is None:
        return None
    seen = _Reads(s)
    found = list(spec.sections(seen))
    return {k: copy.deepcopy(s[k]) for k in seen.read if k in s}, seen.everything, found


_DRAW = {"charts": _draw_charts, "sections": _draw_sections}


def _whole(name: str):
    """The dict method ``name``, noting that it reads every block."""
    method = getattr(dict, name)

    def read_all(self, *args):
        self.everything = True
        return method(self, *args)

    read_all.__name__ = name
    return read_all


class _Reads(dict):
    """A summary that notes which of its blocks are read (an engine's sections reused only when those stay)."""

    def __init__(self, summary: dict):
        super().__init__(summary)
        self.read: set = set()
        self.everything = False

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)

    keys = _whole("keys")
    items = _whole("items")
    values = _whole("values")
    __iter__ = _whole("__iter__")

    copy = _whole("copy")  # (a plain dict)


def _key(block) -> str:
    return json.dumps(block, sort_keys=True, default=str)
