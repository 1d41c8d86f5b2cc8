"""What a target is: something that turns a rendered game into files.

A target has a ``name`` (its key in ``generator.targets.TARGETS``), says
whether it needs the rendered designs, derives its own options from the
build's options, and ``make``s a ``TargetOutput``: file contents by path
relative to the game's output folder, and the problems it found.  Targets
never write files; ``generator.build`` writes the outputs of every target
of every game together, atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from model.errors import Problem

if TYPE_CHECKING:
    from ..options import BuildOptions
    from ..stages.designs import RenderedGame


@dataclass
class DeckStats:
    """One deck's figures for the build summary."""

    deck: str
    label: str
    designs: int
    components: int
    pages: int  # front pages
    size: str


@dataclass
class TargetOutput:
    files: dict[Path, bytes] = field(default_factory=dict)  # relative to output/<game>/, in order; a PDF with
    # pictures is model.atomic.Pieces (written in pieces, bytes(value) reads it whole)
    problems: list[Problem] = field(default_factory=list)
    pages: int = 0  # pages printed, for the build summary
    decks: list[DeckStats] = field(default_factory=list)  # per-deck figures, from a target that imposes sheets
    obsolete: list[Path] = field(default_factory=list)  # files an earlier build may have left; removed unless in files
    notes: list[str] = field(default_factory=list)  # what a target had to give up (a row for the printer margin ...)
    owns: list[Path] = field(default_factory=list)  # folders the target fills alone: files it did not make are removed


@runtime_checkable
class Target(Protocol):
    name: str
    #: False when ``make`` reads only the game, options and content hash of the
    #: RenderedGame: it is then made while the designs render (in worker
    #: processes), from a RenderedGame that has no designs yet.
    needs_designs: bool

    def configure(self, build: "BuildOptions") -> Any:
        """This target's own options, taken from the build's options."""

    def make(self, rendered: "RenderedGame", options: Any) -> TargetOutput:
        """The files of one game; problems are returned, never raised."""
