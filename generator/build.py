"""Build games: the render stage, then the targets, then one atomic write.

``build_game`` renders every design of a game once (``designs.py``; large
decks in worker processes), makes each target the options name from the
rendered game (``targets/``: card sheets, reference sheet, ...) and writes
every file at once with ``model.atomic.write_files``.  This module is the only
one in ``generator`` that writes files.  ``build_games`` builds several games
and writes nothing unless every one of them builds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from model.atomic import write_files
from model.errors import InputErrors, Problem
from model.sheets import Game

from .cache import DrawingStore
from .designs import RenderedGame, RenderJob, RenderOptions, game_designs
from .keys import content_hash
from .layout import DUPLEX_MODES
from .targets import DEFAULT_TARGETS, TARGETS, DeckStats, Target, TargetOutput

__all__ = ["BuildOptions", "BuildResult", "DeckStats", "PARALLEL_MIN_DESIGNS", "build_game", "build_games",
           "content_hash", "write_results"]

PARALLEL_MIN_DESIGNS = 200  # below this, worker processes cost more than they save


@dataclass
class BuildOptions:
    page: str = "a4"
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    out: Path = Path("output")
    expansions: set[str] | None = None  # None: every expansion
    targets: tuple[str, ...] = DEFAULT_TARGETS  # names in generator.targets.TARGETS, made in this order
    settings: dict[str, dict] = field(default_factory=dict)  # target name -> its own settings, for its configure()


@dataclass
class BuildResult:
    game: str
    title: str
    files: list[Path] = field(default_factory=list)
    decks: list[DeckStats] = field(default_factory=list)
    pages: int = 0
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    content_hash: str = ""
    data: dict[Path, bytes] = field(default_factory=dict, repr=False)  # unwritten files (write=False)
    obsolete: list[Path] = field(default_factory=list, repr=False)  # removed when written, unless in files

    @property
    def components(self) -> int:
        return sum(d.components for d in self.decks)


def _targets(options: BuildOptions, reference: bool) -> list[Target]:
    names = [n for n in options.targets if reference or n != "reference"]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        raise InputErrors([Problem("targets", None, None, f"unknown target '{unknown[0]}'; "
                                   f"known: {', '.join(sorted(TARGETS))}")])
    return [TARGETS[n] for n in names]


def _make(target: Target, rendered: RenderedGame, options: BuildOptions) -> TargetOutput:
    output = target.make(rendered, target.configure(options))
    if any(p.is_error for p in output.problems):
        raise InputErrors(output.problems)
    return output


def _deck_stats(rendered: RenderedGame) -> list[DeckStats]:
    """Figures without page counts, when no target imposes sheets."""
    out = []
    for name, items in rendered.decks().items():
        deck = rendered.manifest.decks[name]
        out.append(DeckStats(name, deck.label, len(items), sum(d.count for d in items), 0, deck.size.name))
    return out


def build_game(game: Game, options: BuildOptions, progress: Callable[[int], None] | None = None,
               reference: bool = True, write: bool = True, workers: int = 1,
               cache: DrawingStore | None = None) -> BuildResult:
    """Render, make the targets and write one game's files; raises InputErrors before writing anything.

    With ``write=False`` the files stay in ``result.data`` for the caller to write.
    With ``workers`` > 1, large decks are rendered in worker processes and the
    targets that need no designs (the reference sheet) are made alongside.
    ``reference=False`` leaves the reference target out; ``cache`` keeps parsed
    drawings across builds (see ``generator.cache``)."""
    start = time.perf_counter()
    if options.duplex not in DUPLEX_MODES:
        raise InputErrors([Problem("--duplex", None, None, f"unknown mode '{options.duplex}'")])
    targets = _targets(options, reference)
    render_options = RenderOptions.of(options.expansions)
    designs = game_designs(game, render_options)
    if not designs:
        raise InputErrors([Problem("cards.csv", None, None, f"no rows for {game.slug} "
                                   f"(expansions: {', '.join(sorted(options.expansions or [])) or 'all'})")])
    digest = content_hash(game, options)
    pool = None
    if workers > 1 and len(designs) >= PARALLEL_MIN_DESIGNS:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=workers)
    outputs: dict[str, TargetOutput] = {}
    try:
        job = RenderJob(game, render_options, digest, store=cache, progress=progress, pool=pool, parts=workers)
        for target in targets:  # alongside the workers
            if not target.needs_designs:
                outputs[target.name] = _make(target, job.before(), options)
        rendered = job.result()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    if rendered.errors:
        raise InputErrors(rendered.errors)
    for target in targets:
        if target.needs_designs:
            outputs[target.name] = _make(target, rendered, options)
    ordered = [outputs[t.name] for t in targets]
    folder = options.out / game.slug
    files = {folder / path: data for o in ordered for path, data in o.files.items()}
    problems = rendered.problems + [p for o in ordered for p in o.problems]
    decks = next((o.decks for o in ordered if o.decks), None) or _deck_stats(rendered)
    result = BuildResult(game.slug, game.title, list(files), decks, sum(o.pages for o in ordered),
                         [p for p in problems if not p.is_error], time.perf_counter() - start, digest,
                         obsolete=[folder / path for o in ordered for path in o.obsolete])
    if write:
        write_results([result], files)
    else:
        result.data = files
    return result


def write_results(results: list[BuildResult], files: dict[Path, bytes]) -> None:
    """Write every file at once; remove files the targets made obsolete (a backs
    file left over from an earlier --duplex none)."""
    write_files(files)
    for r in results:
        for stale in r.obsolete:
            if stale not in files and stale.exists():
                stale.unlink()


def _build_unwritten(game: Game, options: BuildOptions, workers: int = 1,
                     cache: DrawingStore | None = None) -> BuildResult:
    return build_game(game, options, write=False, workers=workers, cache=cache)


def build_games(jobs: list[tuple[Game, BuildOptions]], workers: int = 1,
                done: Callable[[BuildResult], None] | None = None,
                cache: DrawingStore | None = None) -> list[BuildResult]:
    """Build several games, in worker processes when there are cores to spare.

    Nothing is written unless every game builds: the problems of all games are
    reported together."""
    done = done or (lambda r: None)
    results: list[BuildResult] = []
    problems: list[Problem] = []
    if workers > 1 and len(jobs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            futures = [pool.submit(_build_unwritten, game, opts, 1, cache) for game, opts in jobs]
            for future in futures:
                try:
                    results.append(future.result())
                    done(results[-1])
                except InputErrors as exc:
                    problems += exc.problems
    else:
        for game, opts in jobs:
            try:
                results.append(_build_unwritten(game, opts, workers, cache))
                done(results[-1])
            except InputErrors as exc:
                problems += exc.problems
    if problems:
        raise InputErrors(problems)
    files = {path: data for r in results for path, data in r.data.items()}
    write_results(results, files)
    for r in results:
        r.data = {}
    return results
