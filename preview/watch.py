"""Waiting for saves: which files count, and the loop that builds after each.

A build starts after the files stop changing for ``STEP_MS`` (editors and
spreadsheet programs write a file in several steps: a temporary file, a
rename, a second write), or at the latest ``DEBOUNCE_MS`` after the first
change.  The sheets (``cards.csv``/``cards.xlsx``, ``goals.csv``/``.xlsx``),
everything under ``templates/`` and every picture file (PNG, JPEG, SVG)
anywhere in the data folder count; the output folder, hidden files and
folders, editor backups and office lock files do not.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from generator.art.pictures import KINDS
from model.manifest import SHEETS as SHEET_NAMES
from model.sheets import SHEET_SUFFIXES

from .session import Session, Snapshot

STEP_MS = 50
DEBOUNCE_MS = 1000
#: the files the sheets are read from, and the pictures a design may place: as the loader and the generator name them
SHEETS = {f"{name}{suffix}" for name in SHEET_NAMES for suffix in SHEET_SUFFIXES}
PICTURES = tuple(KINDS)
IGNORED_SUFFIXES = ("~", ".swp", ".swx", ".tmp", ".bak", ".part", ".crdownload")


class ChangeFilter:
    """Accepts the files a data folder's builds read."""

    def __init__(self, data: Path, out: Path):
        self.data = Path(data).resolve()
        self.templates = self.data / "templates"
        self.out = Path(out).resolve()

    def __call__(self, change, path: str) -> bool:
        p = Path(path)
        name = p.name
        if name.startswith((".", "~$", "#")) or name.endswith(IGNORED_SUFFIXES) or name == "4913":
            return False
        try:
            p = p.resolve()
        except OSError:
            return False
        if p == self.out or self.out in p.parents:
            return False
        if p.parent == self.data and name in SHEETS:
            return True
        if self.templates == p or self.templates in p.parents:
            return True
        if name.lower().endswith(PICTURES) and self.data in p.parents:
            inside = p.relative_to(self.data).parts[:-1]
            return not any(part.startswith(".") for part in inside)
        return False


def saved_paths(changes) -> list[Path]:
    """The files a batch of changes (watchfiles' (change, path) pairs) saved or removed, leaving out those
    that came and went within it: an editor's or ``sed -i``'s temporary file, written and then renamed over
    the file it saves."""
    from watchfiles import Change

    kinds: dict[str, set] = {}
    for change, path in changes:
        kinds.setdefault(path, set()).add(change)
    return sorted(Path(p) for p, seen in kinds.items()
                  if not (Change.added in seen and Change.deleted in seen and not Path(p).exists()))


def watched_paths(data: Path) -> list[Path]:
    """The data folder (for the sheets) and its templates folder."""
    return [Path(data)]


def watch(session: Session, on_build: Callable[[Snapshot], None], stop: threading.Event | None = None,
          ready: Callable[[], None] | None = None) -> None:
    """Build after every batch of saves until ``stop`` is set (or Ctrl-C: KeyboardInterrupt, for the
    caller to end on)."""
    from watchfiles import watch as watch_files

    stop = stop or threading.Event()
    accept = ChangeFilter(session.data, session.out)
    if ready is not None:
        ready()
    for changes in watch_files(*watched_paths(session.data), watch_filter=accept, step=STEP_MS,
                               debounce=DEBOUNCE_MS, stop_event=stop, raise_interrupt=True,
                               yield_on_timeout=False):
        if stop.is_set():
            break
        saved = saved_paths(changes)
        if saved:
            on_build(session.build(saved))
