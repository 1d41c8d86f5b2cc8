"""Exports: pictures per card, Tabletop Simulator decks and print-shop uploads.

``export_games`` checks the request up front (a known export, a resolution in
range, options that belong to it, an output folder that can be written), then
builds each game with the one target the export names (``targets.EXPORTS``)
and writes every file of every game at once, or nothing.  Its options'
defaults are the ones the command line shows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from model.errors import PnpError
from model.sheets import Game

from .build import BuildOptions, BuildResult, build_games
from .defaults import DEFAULT_DPI
from .stages.raster import MAX_DPI, MIN_DPI
from .targets import EXPORTS, TARGETS

#: which options apply to which exports (the rest are refused, naming the flag)
APPLIES = {"dpi": ("png", "tts"), "trim": ("png",), "base_url": ("tts",)}
FLAGS = {"dpi": "--dpi", "trim": "--trim", "base_url": "--base-url"}


class ExportUsageError(PnpError):
    """A mistake in how the export was asked for (exit 2)."""

    exit_code = 2


class ExportWriteError(PnpError):
    """The output folder cannot be written."""


@dataclass
class ExportOptions:
    to: str
    out: Path = Path("output")
    dpi: int | None = None  # None: DEFAULT_DPI (png, tts) or the shop's own
    trim: bool = False
    base_url: str = ""
    workers: int = 1


def check_options(options: ExportOptions) -> str:
    """The target to make; refuses an unknown export, a resolution out of range
    and an option that does not apply to the export."""
    target = EXPORTS.get(options.to)
    if target is None or target not in TARGETS:
        raise ExportUsageError(f"unknown export '{options.to}'; known: {', '.join(sorted(EXPORTS))}")
    given = {"dpi": options.dpi is not None, "trim": options.trim, "base_url": bool(options.base_url)}
    for name, used in given.items():
        if used and options.to not in APPLIES[name]:
            raise ExportUsageError(f"{FLAGS[name]} does not apply to --to {options.to}; it applies to "
                                   f"{', '.join(APPLIES[name])}")
    if options.dpi is not None and not MIN_DPI <= options.dpi <= MAX_DPI:
        raise ExportUsageError(f"--dpi {options.dpi} is out of range; give {MIN_DPI} to {MAX_DPI}")
    return target


def check_writable(folder: Path) -> None:
    """Refuse a folder that cannot be created or written, before any work; creates nothing."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ExportWriteError(f"cannot write to {folder}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ExportWriteError(f"cannot write to {folder}: {probe} is not writable")


def export_games(games: list[tuple[Game, set[str] | None]], options: ExportOptions,
                 done: Callable[[BuildResult], None] | None = None) -> list[BuildResult]:
    """Export each game; every file is written at the end, or none (InputErrors,
    ExportWriteError)."""
    target = check_options(options)
    for game, _ in games:
        check_writable(options.out / game.slug)
    settings = {"workers": max(1, options.workers)}
    if options.to in APPLIES["dpi"]:
        settings["dpi"] = options.dpi or DEFAULT_DPI
    if options.trim:
        settings["trim"] = True
    jobs = []
    for game, expansions in games:
        own = dict(settings)
        if options.to == "tts":
            own["base_url"] = options.base_url or (options.out / game.slug / "tts").resolve().as_uri()
        jobs.append((game, BuildOptions(out=options.out, expansions=expansions, targets=(target,),
                                        settings={target: own})))
    try:
        return build_games(jobs, workers=1, done=done)
    except OSError as exc:
        where = exc.filename or options.out
        raise ExportWriteError(f"cannot write to {where}: {exc.strerror or exc}") from None
