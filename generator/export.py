"""Exports: pictures per card, Tabletop Simulator decks, print-shop uploads, PDF/X.

``export_games`` checks the request up front (a known export, a resolution in
range, options that belong to it, a profile that is a CMYK output profile, an
output folder that can be written), then builds each game with the one target
the export names (``targets.EXPORTS``) and writes every file of every game at
once, or nothing.  An export that would write nothing at all (no deck fits a
shop's sizes) is an error, with the warnings that say why; a game that gets
nothing while others do is a warning.  Its options' defaults are the ones the
command line shows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from model.errors import InputErrors, PnpError, Problem
from model.sheets import Game

from .build import BuildOptions, BuildResult, build_games, write_held
from .defaults import DEFAULT_DPI
from .stages.raster import MAX_DPI, MIN_DPI
from .targets.shops import STANDARDS
from .targets import EXPORTS, TARGETS

def _pdfx_exports() -> tuple[str, ...]:
    """``pdfx`` and the shops whose preset asks for PDF/X."""
    from .targets.shops import known_presets, load_preset

    return ("pdfx", *(s for s in known_presets() if load_preset(s).pdfx is not None))


PDFX_EXPORTS = _pdfx_exports()  # read once: the presets are part of pnp
#: which options apply to which exports (the rest are refused, naming the flag)
APPLIES = {"dpi": ("png", "tts", *PDFX_EXPORTS), "trim": ("png",), "base_url": ("tts",),
           "profile": PDFX_EXPORTS, "standard": ("pdfx",)}
FLAGS = {"dpi": "--dpi", "trim": "--trim", "base_url": "--base-url", "profile": "--profile", "standard": "--standard"}


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
    profile: Path | None = None  # pdfx: the shop's ICC profile; None: the bundled one
    standard: str | None = None  # pdfx: "x-1a" or "x-4" (shops.STANDARDS); None: x-4


def check_options(options: ExportOptions) -> str:
    """The target to make; refuses an unknown export, a resolution out of range
    and an option that does not apply to the export."""
    target = EXPORTS.get(options.to)
    if target is None or target not in TARGETS:
        raise ExportUsageError(f"unknown export '{options.to}'; known: {', '.join(sorted(EXPORTS))}")
    given = {"dpi": options.dpi is not None, "trim": options.trim, "base_url": bool(options.base_url),
             "profile": options.profile is not None, "standard": options.standard is not None}
    for name, used in given.items():
        if used and options.to not in APPLIES[name]:
            raise ExportUsageError(f"{FLAGS[name]} does not apply to --to {options.to}; it applies to "
                                   f"{', '.join(APPLIES[name])}")
    if options.base_url:
        from urllib.parse import urlsplit

        parts = urlsplit(options.base_url)
        if parts.scheme not in ("http", "https", "file") or (parts.scheme != "file" and not parts.netloc):
            raise ExportUsageError(f"--base-url '{options.base_url}' is not an address Tabletop Simulator can load "
                                   "the sheets from; give an http:// or https:// address (e.g. "
                                   "https://example.org/my-game/), or leave it out for the export folder")
    if options.dpi is not None and not MIN_DPI <= options.dpi <= MAX_DPI:
        raise ExportUsageError(f"--dpi {options.dpi} is out of range; give {MIN_DPI} to {MAX_DPI}")
    if options.standard is not None and options.standard not in STANDARDS:
        raise ExportUsageError(f"unknown --standard '{options.standard}'; known: {', '.join(STANDARDS)}")
    if options.to == "pdfx" and options.dpi is not None and options.standard != "x-1a":
        raise ExportUsageError("--dpi applies to --standard x-1a (cards flattened to pictures); PDF/X-4 keeps "
                               "the artwork's vectors")
    if options.profile is not None:
        from .draw.cmyk import load_profile

        load_profile(options.profile)  # a ProfileError names what is wrong with it
    return target


def colour_note(to: str) -> str | None:
    """What the command line says of an export that is not CMYK: its pictures are RGB."""
    if to in PDFX_EXPORTS:
        return None
    if to in ("png", "tts"):
        return f"{to}/ holds RGB (sRGB) pictures, for screens and digital tables; --to pdfx makes CMYK print files"
    from .targets.shops import load_preset

    return (f"{to}/ holds RGB (sRGB) pictures, as {load_preset(to).name} takes them; --to pdfx makes CMYK "
            "print files")


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
    if options.to in ("png", "tts"):
        settings["dpi"] = options.dpi or DEFAULT_DPI
    elif options.dpi is not None:  # a print file flattened at this resolution (else the shop's own)
        settings["dpi"] = options.dpi
    if options.trim:
        settings["trim"] = True
    if options.profile is not None:
        settings["profile"] = str(options.profile)
    if options.standard is not None:
        settings["standard"] = STANDARDS[options.standard]
    jobs = []
    for game, expansions in games:
        own = dict(settings)
        if options.to == "tts":
            own["base_url"] = options.base_url or (options.out / game.slug / "tts").resolve().as_uri()
        jobs.append((game, BuildOptions(out=options.out, expansions=expansions, targets=(target,),
                                        settings={target: own})))
    try:
        results = build_games(jobs, workers=1, done=done, write=False)
        empty = [r for r in results if not r.files]
        if empty and len(empty) == len(results):  # nothing at all: an error, with the warnings that say why
            names = ", ".join(r.game for r in empty)
            raise InputErrors([w for r in results for w in r.warnings] + [Problem(
                f"--to {options.to}", None, None, f"nothing to export for {names}: no deck fits "
                f"{_shop_name(options.to)} (the warnings name each deck left out and the sizes there are)")])
        for r in empty:
            r.warnings.append(Problem(f"--to {options.to}", None, None, f"nothing exported for {r.game}: no deck "
                                      f"fits {_shop_name(options.to)}", "warning"))
        write_held(results)
    except OSError as exc:
        where = exc.filename or options.out
        raise ExportWriteError(f"cannot write to {where}: {exc.strerror or exc}") from None
    return results


def _shop_name(to: str) -> str:
    from .targets.shops import known_presets, load_preset

    return f"a {load_preset(to).name} size" if to in known_presets() else "the export"
