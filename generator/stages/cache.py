"""The contract of a drawing cache: what the render stage keeps across builds.

The render stage asks ``get(design_key(svg))`` before parsing an SVG and
``put``s what it parsed; ``NoCache`` (the default) remembers nothing.  A store
must be picklable when large decks render in worker processes (each worker
uses its own copy), and must hand back a drawing that is not changed later.

A store may also be a ``RenderCache`` and keep two more things, each under
its own key (``keys.py``):

- the SVG text of both sides of a design and its warnings, under the design's
  ``input_key`` (the row, the deck and the game's templates): an unchanged row
  is then not rendered again;
- the *display list* of a drawing (``displaylist.py``: the canvas calls that
  draw it, as plain data), under its ``design_key``: the PDF writers replay it
  instead of walking the drawing, and an SVG whose display list is kept is not
  parsed at all.

``diskcache.DiskCache`` is the one on disk that ``pnp build`` uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from model.errors import Problem

#: The build cache's folder inside an output folder (``diskcache.DiskCache`` keeps its database
#: there, ``uptodate`` its records of builds); ``pnp clean`` removes it.
CACHE_DIR = ".pnp-cache"


def cache_folder(out: Path) -> Path:
    """Where builds into ``out`` keep their cache."""
    return Path(out) / CACHE_DIR

Drawing = Any  # a reportlab.graphics.shapes.Drawing


@runtime_checkable
class DrawingStore(Protocol):
    def get(self, key: str) -> Drawing | None:
        """The drawing stored under ``key``, or None."""

    def put(self, key: str, drawing: Drawing) -> None:
        """Keep ``drawing`` under ``key`` (a hex digest from ``design_key``)."""


@dataclass(frozen=True)
class RenderedSvg:
    """What the templates gave for one design: the SVG of each side and the
    warnings found on the way (text that had to be cut short ...)."""

    front: str
    back: str | None
    warnings: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()  # text that had to shrink to fit
    pictures: tuple = ()  # ((name, digest), ...) of the picture files the design places: changed, it renders again


@runtime_checkable
class RenderCache(DrawingStore, Protocol):
    def get_svg(self, key: str) -> RenderedSvg | None:
        """The rendered SVG of a design by its ``input_key``, or None."""

    def put_svg(self, key: str, rendered: RenderedSvg) -> None:
        """Keep a design's rendered SVG under its ``input_key``."""

    def get_list(self, key: str):
        """The display list of a drawing by its ``design_key``, or None."""

    def put_list(self, key: str, display_list) -> None:
        """Keep a drawing's display list under its ``design_key``."""

    def has_list(self, key: str) -> bool:
        """Whether a display list is kept under ``key``."""

    def flush(self) -> None:
        """Make what was put so far last (a store may buffer)."""


class NoCache:
    """Remembers nothing: every distinct SVG is parsed once per build."""

    def get(self, key: str) -> Drawing | None:
        return None

    def put(self, key: str, drawing: Drawing) -> None:
        pass


NO_CACHE = NoCache()


def is_render_cache(store) -> bool:
    return isinstance(store, RenderCache)
