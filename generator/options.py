"""What a build is asked for (``BuildOptions``): the command lines fill it, every target
reads its part of it (``targets.base.Target.configure``) and ``build`` runs it.  Reads no
rendering machinery: importing it costs a command line next to nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .defaults import DEFAULT_TARGETS
from .sheets.layout import PRINTER_MARGIN


@dataclass
class BuildOptions:
    page: str = "a4"
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    out: Path = Path("output")
    expansions: set[str] | None = None  # None: every expansion
    targets: tuple[str, ...] = DEFAULT_TARGETS  # names in generator.targets.TARGETS, made in this order
    settings: dict[str, dict] = field(default_factory=dict)  # target name -> its own settings, for its configure()
    layout: str = "grid"  # grid (duplex), shared (neighbours share cut lines) or gutterfold (folded)
    printer_margin: float = PRINTER_MARGIN  # mm the printer cannot print at each edge of the paper
    bleed: float | None = None  # the least bleed each component keeps on the sheets (mm); None: all of its own
    only: tuple[str, ...] = ()  # ids: just these components, in <game>-selected.pdf
