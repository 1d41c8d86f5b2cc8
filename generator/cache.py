"""The contract of a drawing cache: parsed drawings kept across builds, by design key.

The render stage asks ``get(design_key(svg))`` before parsing an SVG and
``put``s what it parsed; ``NoCache`` (the default) remembers nothing.  A store
must be picklable when large decks render in worker processes (each worker
uses its own copy), and must hand back a drawing that is not changed later.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

Drawing = Any  # a reportlab.graphics.shapes.Drawing


@runtime_checkable
class DrawingStore(Protocol):
    def get(self, key: str) -> Drawing | None:
        """The drawing stored under ``key``, or None."""

    def put(self, key: str, drawing: Drawing) -> None:
        """Keep ``drawing`` under ``key`` (a hex digest from ``design_key``)."""


class NoCache:
    """Remembers nothing: every distinct SVG is parsed once per build."""

    def get(self, key: str) -> Drawing | None:
        return None

    def put(self, key: str, drawing: Drawing) -> None:
        pass


NO_CACHE = NoCache()
