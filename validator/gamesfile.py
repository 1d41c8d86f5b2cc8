"""games.csv as a run writes it: streamed into a temporary file named with the process's id and
renamed at the end (:class:`GamesWriter`); what a killed run left behind, removed by the next run
and by ``pnp clean`` (:func:`remove_stale`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from model.atomic import AtomicFile
from model.workers import alive

__all__ = ["GamesWriter", "remove_stale"]


def remove_stale(folder: Path) -> list[Path]:
    """Temporary files an earlier run left in ``folder`` when it was killed (``.games.csv.PID.*.tmp`` of a
    process that is gone, other ``.*.tmp`` an hour old): removed, and returned."""
    import re

    removed = []
    if not folder.is_dir():
        return removed
    for path in folder.glob(".*.tmp"):
        m = re.match(r"^\.games\.csv\.(\d+)\.", path.name)
        try:
            stale = not alive(int(m.group(1))) if m else time.time() - path.stat().st_mtime > 3600
            if stale:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed


class GamesWriter(AtomicFile):
    """games.csv written as batches arrive, into a temporary file named with this process's id (so that a
    later run knows it for a leftover once the process is gone: :func:`remove_stale`) and renamed at the end.
    Aborted, it removes the file and the folders it made, when they are empty."""

    def __init__(self, path: Path, header: list[str]):
        import csv

        self.made = [p for p in (path.parent, path.parent.parent) if not p.exists()]
        super().__init__(path, tag=f"{os.getpid()}.")
        self.csv = csv.writer(self.fh, lineterminator="\n")
        self.csv.writerow(header)

    def write(self, rows) -> None:
        self.csv.writerows(rows)

    def abort(self) -> None:
        super().abort()
        for folder in self.made:  # (the innermost first)
            try:
                folder.rmdir()
            except OSError:
                break
