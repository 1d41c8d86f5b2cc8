"""Build games: the render stage, then the targets, then one atomic write.

``build_game`` renders every design of a game once (``designs.py``; large
decks in worker processes), makes each target the options name from the
rendered game (``targets/``: card sheets, reference sheet, ...) and writes
every file at once with ``model.atomic.write_files``.  With a second core,
the reference sheet (which needs no designs) is made in a worker process
while this one renders and writes the card sheets.  This module is the only
one in ``generator`` that writes files.  ``build_games`` builds several games
(one per worker process when there are cores to spare, what they all import
imported once before they start) and writes nothing unless every one of them
builds.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from model.atomic import write_files
from model.errors import InputErrors, Problem
from model.sheets import Game

from .options import BuildOptions
from .sheets.layout import DUPLEX_MODES, LAYOUTS, LayoutError, check_printer_margin, page_size
from .stages.cache import DrawingStore
from .stages.keys import content_hash

if TYPE_CHECKING:  # the rendering machinery is imported when a build starts, not with the options
    from .stages.designs import RenderedGame
    from .targets import DeckStats, Target, TargetOutput

__all__ = ["BuildOptions", "BuildResult", "DeckStats", "PARALLEL_MIN_DESIGNS", "build_game", "build_games",
           "content_hash", "write_held", "write_results"]

PARALLEL_MIN_DESIGNS = 24  # designs to render (not in the cache) below which worker processes cost more than they save
PART_SIZE = 8  # designs per part a worker renders (designs.PART_SIZE, kept here to be read without importing it)


@dataclass
class BuildResult:
    game: str
    title: str
    files: list[Path] = field(default_factory=list)
    decks: list[DeckStats] = field(default_factory=list)
    pages: int = 0  # pages of every target together
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    content_hash: str = ""
    data: dict[Path, bytes] = field(default_factory=dict, repr=False)  # unwritten files (write=False): bytes, or
    # model.atomic.Pieces for a PDF with pictures (bytes(value) reads it whole)
    obsolete: list[Path] = field(default_factory=list, repr=False)  # removed when written, unless in files
    notes: list[str] = field(default_factory=list)  # what the layout gave up for the printable area, in words
    changed: list[str] = field(default_factory=list)  # ids of the designs rendered anew (not from the cache)
    parsed: int = 0  # SVGs parsed in this build
    rendered: object = field(default=None, repr=False, compare=False)  # the RenderedGame, in this process only
    pictures: dict[Path, str] = field(default_factory=dict)  # the picture files its designs placed: their digests
    target_pages: dict[str, int] = field(default_factory=dict)  # target name -> its pages (card sheets, reference)

    @property
    def components(self) -> int:
        return sum(d.components for d in self.decks)


def __getattr__(name: str):
    if name == "DeckStats":
        from .targets import DeckStats

        return DeckStats
    raise AttributeError(name)


def _prepare_workers(games: list[Game], targets: tuple[str, ...] = ()) -> None:
    """Before worker processes are forked: import what every one of them would
    import again (the render stage and the modules of the ``targets`` named),
    and read the games' fonts, once, here."""
    from .stages import designs  # noqa: F401
    from .art.fonts import DEFAULT_FAMILY, register_fonts
    from .targets import TARGETS

    from .stages.render import use_fonts

    for name in dict.fromkeys(targets):
        if name in TARGETS:
            TARGETS[name]  # made now: its module is imported before the workers start
            if name == "reference":
                from .stages import reference  # noqa: F401
    for g in games:
        use_fonts(g.manifest)
    register_fonts(DEFAULT_FAMILY, *{g.manifest.font for g in games})


def uses_pictures(game: Game) -> bool:
    """Whether any template of the game may place a picture file (its content hash then
    takes in the pictures, known only once the designs are rendered)."""
    from .stages.keys import folder_files

    return any("picture(" in p.read_text(encoding="utf-8", errors="replace")
               for p in folder_files(game.manifest.folder, "*.j2"))


def _target_names(options: BuildOptions, reference: bool) -> list[str]:
    from .targets import TARGETS

    names = [n for n in options.targets if reference or n != "reference"]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        raise InputErrors([Problem("targets", None, None, f"unknown target '{unknown[0]}'; "
                                   f"known: {', '.join(sorted(TARGETS))}")])
    return names


def _prepare_pictures(rendered: RenderedGame, workers: int) -> None:
    """Start encoding the picture files the designs place for the PDFs, once each, in the
    background while the sheets are laid out; ``_pictures_failed`` says which did not decode."""
    from .art import pdfimages, pictures

    kinds = {(pictures.kind_of(rel), digest): None
             for design in rendered.designs for rel, digest in design.pictures}
    pdfimages.prepare(list(kinds), workers)


def _pictures_failed(rendered: RenderedGame) -> list[Problem]:
    """The picture files that did not decode, once their encoding is done: an error at every
    row that places one."""
    from .art import pdfimages

    failed = pdfimages.finish()
    if not failed:
        return []
    used = {}
    for design in rendered.designs:
        for rel, digest in design.pictures:
            used.setdefault(digest, (rel, []))[1].append(design.card)
    return [Problem(card.sheet, card.row, None, f"'{used[digest][0]}' {message}")
            for digest, message in failed if digest in used for card in used[digest][1]]


def _target_in_worker(name: str, game: Game, options: BuildOptions, digest: str,
                      cache: DrawingStore | None) -> TargetOutput:
    """A target that needs no designs, made in a worker process (imports and all)."""
    from .stages.cache import NO_CACHE
    from .stages.designs import Drawings, RenderedGame, RenderOptions
    from .targets import TARGETS

    store = cache if cache is not None else NO_CACHE
    rendered = RenderedGame(game, RenderOptions.of(options.expansions), digest, drawings=Drawings(store), store=store)
    try:
        return _make(TARGETS[name], rendered, options)
    finally:
        if cache is not None and hasattr(cache, "flush"):
            cache.flush()


def _make(target: Target, rendered: RenderedGame, options: BuildOptions) -> TargetOutput:
    from .art.pictures import PictureError

    try:
        output = target.make(rendered, target.configure(options))
    except LayoutError as exc:  # what the manifest asks for does not fit the page (a component too large ...)
        raise InputErrors([Problem(f"templates/{rendered.game.slug}/game.toml", None, None, str(exc))]) from None
    except PictureError as exc:  # a picture file changed or went away while the files were being made
        raise InputErrors([Problem(rendered.manifest.data_folder.name or ".", None, None, str(exc))]) from None
    if any(p.is_error for p in output.problems):
        raise InputErrors(output.problems)
    return output


def _deck_stats(rendered: RenderedGame) -> list[DeckStats]:
    """Figures without page counts, when no target imposes sheets."""
    from .targets import DeckStats

    out = []
    for name, items in rendered.decks().items():
        deck = rendered.manifest.decks[name]
        out.append(DeckStats(name, deck.label, len(items), sum(d.count for d in items), 0, deck.size.name))
    return out


def _owned(folder: Path, outputs: list[TargetOutput]) -> list[Path]:
    """The files now in the folders a target fills alone (removed unless made again)."""
    return [p for o in outputs for sub in o.owns if (folder / sub).is_dir()
            for p in sorted((folder / sub).iterdir()) if p.is_file() and not p.name.startswith(".")]


def build_game(game: Game, options: BuildOptions, progress: Callable[[int], None] | None = None,
               reference: bool = True, write: bool = True, workers: int = 1,
               cache: DrawingStore | None = None, pool=None) -> BuildResult:
    """Render, make the targets and write one game's files; raises InputErrors before writing anything.

    With ``write=False`` the files stay in ``result.data`` for the caller to write.
    With ``workers`` > 1, the targets that need no designs (the reference
    sheet) are made in a worker process while this one renders and makes the
    others (the worker imports only what this process does not need: reportlab's
    platypus), and large decks are rendered in parts by both.  ``pool`` (a
    process pool the caller keeps, as ``pnp watch`` does) is used for those
    targets instead of a new one.  ``reference=False`` leaves the reference
    target out; ``cache`` keeps what was rendered across builds (see
    ``generator.stages.cache``; ``diskcache.DiskCache`` is the one on disk), so that
    only the designs whose row or templates changed are rendered again."""
    start = time.perf_counter()
    if options.duplex not in DUPLEX_MODES:
        raise InputErrors([Problem("--duplex", None, None, f"unknown mode '{options.duplex}'")])
    if options.layout not in LAYOUTS:
        raise InputErrors([Problem("--layout", None, None, f"unknown layout '{options.layout}'; "
                                   f"known: {', '.join(LAYOUTS)}")])
    for flag, check in (("--printer-margin", lambda: check_printer_margin(options.printer_margin)),
                        ("--page", lambda: page_size(options.page))):
        try:
            check()
        except LayoutError as exc:
            raise InputErrors([Problem(flag, None, None, str(exc))]) from None
    if options.bleed is not None and options.bleed < 0:
        raise InputErrors([Problem("--bleed", None, None, f"a bleed of {options.bleed:g} mm is below 0")])
    whole = game  # every row, for the templates that list them
    if options.only:
        game = replace(game, cards=[c for c in game.cards if c.id in set(options.only)])
    from .targets import TARGETS

    names = _target_names(options, reference)
    if not any(c.deck in game.manifest.decks for c in game.select(options.expansions)):
        raise InputErrors([Problem("cards.csv", None, None, f"no rows for {game.slug} "
                                   f"(expansions: {', '.join(sorted(options.expansions or [])) or 'all'})")])
    digest = content_hash(game, options)
    from .stages.render import use_fonts

    use_fonts(game.manifest)  # the game's own families known by name before anything kept is drawn
    pictures = uses_pictures(game)
    if pictures or (cache is not None and hasattr(cache, "get_blob")):
        from .art import pdfimages

        if cache is not None and hasattr(cache, "get_blob"):
            pdfimages.STORE[0] = cache  # encoded pictures kept across builds
        if pictures:  # what a helper read ahead (pnp build), before worker processes are forked
            pdfimages.take_ahead()
    pools = []

    def new_pool():  # this process works too, so one worker fewer than cores
        from model.workers import process_pool

        pools.append(process_pool(workers - 1))
        return pools[-1]

    outputs: dict[str, TargetOutput] = {}
    early: dict[str, object] = {}

    def start_early(content_hash: str) -> None:  # the targets that need no designs (the reference sheet)
        for name in names:
            if not TARGETS.needs_designs(name):
                early[name] = (pool or (pools[0] if pools else new_pool())).submit(
                    _target_in_worker, name, game, options, content_hash, cache)

    try:
        if workers > 1 or pool is not None:
            # the targets that need no designs go to a worker first; what both need is
            # imported (and its fonts read) here before it starts
            _prepare_workers([game])
            if not pictures:
                start_early(digest)
        from .stages.designs import RenderJob, RenderOptions

        targets = [TARGETS[n] for n in names]
        render_options = RenderOptions.of(options.expansions)
        job = RenderJob(game, render_options, digest, store=cache, progress=progress,
                        pool=(pools[0] if pools else new_pool) if workers > 1 else None, parts=workers,
                        min_parallel=2 * PART_SIZE if pools else PARALLEL_MIN_DESIGNS, rows_from=whole)
        rendered = job.result()
        if pictures and (workers > 1 or pool is not None) and not rendered.errors:
            start_early(rendered.content_hash)  # the hash on every page takes in the pictures: known now
        if pictures and not rendered.errors:
            _prepare_pictures(rendered, max(workers, 2 if pool is not None else 1))
        early_errors: list[Problem] = []
        for target in targets:  # made here after the designs: they draw pictures of cards from their display lists
            if not target.needs_designs and target.name not in early:
                try:
                    outputs[target.name] = _make(target, rendered, options)
                except InputErrors as exc:
                    early_errors += exc.problems
        failed = None
        if not rendered.errors:  # the cards while the worker finishes the reference
            try:
                for target in targets:
                    if target.needs_designs:
                        outputs[target.name] = _make(target, rendered, options)
            except InputErrors as exc:
                failed = exc
        if pictures and not rendered.errors:
            undecoded = _pictures_failed(rendered)
            if undecoded:  # a picture that did not decode: said at its rows, not as the sheets' failure
                failed = InputErrors(undecoded)
        for name, future in early.items():  # their problems come first, as if they were made first
            try:
                outputs[name] = future.result()
            except InputErrors as exc:
                early_errors += exc.problems
    finally:
        for made in pools:
            made.shutdown(cancel_futures=True)
    # the designs' errors first: in deck order, they name the cards as the sheet lists them
    errors = fold_repeats(rendered.errors + early_errors + (failed.problems if failed is not None else []))
    if errors:  # the warnings found on the way go with them (pnp check shows both)
        raise InputErrors(errors + fold_repeats(rendered.warnings + [w for o in outputs.values() for w in o.problems
                                                                     if not w.is_error]))
    ordered = [outputs[t.name] for t in targets]
    folder = options.out / game.slug
    files = {folder / path: data for o in ordered for path, data in o.files.items()}
    # a card drawn on the reference sheet too warns there again: each warning once, and a template's once for
    # all the cards it met
    problems = fold_repeats(list(dict.fromkeys(rendered.problems + [p for o in ordered for p in o.problems])))
    decks = next((o.decks for o in ordered if o.decks), None) or _deck_stats(rendered)
    result = BuildResult(game.slug, game.title, list(files), decks, sum(o.pages for o in ordered),
                         [p for p in problems if not p.is_error], time.perf_counter() - start, rendered.content_hash,
                         target_pages={t.name: outputs[t.name].pages for t in targets},
                         obsolete=[folder / path for o in ordered for path in o.obsolete] + _owned(folder, ordered),
                         notes=list(dict.fromkeys(n for o in ordered for n in o.notes)),
                         changed=[d.card.id for d in rendered.rendered], parsed=rendered.parsed, rendered=rendered,
                         pictures={game.manifest.data_folder / rel: digest for d in rendered.designs
                                   for rel, digest in sorted(d.pictures)})
    if cache is not None and hasattr(cache, "flush"):
        cache.flush()
        result.warnings += [w for w in getattr(cache, "warnings", []) if w not in result.warnings]
    if write:
        write_results([result], files)
    else:
        result.data = files
    return result


_RENDERING = re.compile(r"^(?P<what>.*) \(card '(?P<id>[^']+)'(?:, [^)]*)?\)$")


def fold_repeats(problems: list[Problem]) -> list[Problem]:
    """One problem per template line: the same error (or warning) met rendering many designs
    is one line naming the first few (``(cards 'b1', 'b2', 'b3' and 61 more)``)."""
    groups: dict[tuple, list[str]] = {}
    first: dict[tuple, Problem] = {}
    out: list = []
    said: set = set()
    for p in problems:
        m = _RENDERING.match(p.message) if p.file.startswith(("templates/", "generator/")) else None
        if m is None:
            if p not in said:  # the same line met again (a template read for every design): said once
                said.add(p)
                out.append(p)
            continue
        key = (p.file, p.row, p.column, m["what"], p.severity)
        if key not in groups:
            groups[key], first[key] = [], p
            out.append(key)
        if m["id"] not in groups[key]:
            groups[key].append(m["id"])
    folded = []
    for item in out:
        if isinstance(item, Problem):
            folded.append(item)
            continue
        ids = groups[item]
        if len(ids) == 1:
            folded.append(first[item])
            continue
        shown = ", ".join(f"'{i}'" for i in ids[:3])
        more = f" and {len(ids) - 3} more" if len(ids) > 3 else ""
        folded.append(Problem(item[0], item[1], item[2], f"{item[3]} (cards {shown}{more})", item[4]))
    return folded


def write_results(results: list[BuildResult], files: dict[Path, bytes]) -> None:
    """Write every file at once; remove files the targets made obsolete (a backs
    file left over from an earlier --duplex none)."""
    write_files(files)
    for r in results:
        for stale in r.obsolete:
            if stale not in files and stale.exists():
                stale.unlink()


def write_held(results: list[BuildResult]) -> None:
    """Write the files the results hold unwritten (``data``), all at once, and let go of them."""
    write_results(results, {path: data for r in results for path, data in r.data.items()})
    for r in results:
        r.data = {}


def _build_unwritten(game: Game, options: BuildOptions, workers: int = 1,
                     cache: DrawingStore | None = None, pool=None) -> BuildResult:
    return build_game(game, options, write=False, workers=workers, cache=cache, pool=pool)


def _build_in_worker(game: Game, options: BuildOptions, cache: DrawingStore | None = None,
                     designs: bool = False) -> BuildResult:
    result = _build_unwritten(game, options, 1, cache)
    rendered = result.rendered
    result.rendered = None  # stays in the worker: its drawings are large
    if designs:  # the designs alone (SVG text, keys, warnings), for the edit loop's page
        from .stages.designs import RenderedGame

        result.rendered = RenderedGame(rendered.game, rendered.options, rendered.content_hash, rendered.designs,
                                       problems=rendered.problems, parsed=rendered.parsed)
    return result


def build_games(jobs: list[tuple[Game, BuildOptions]], workers: int = 1,
                done: Callable[[BuildResult], None] | None = None,
                cache: DrawingStore | None = None, pool=None, write: bool = True,
                designs: bool = False) -> list[BuildResult]:
    """Build several games, in worker processes when there are cores to spare.

    Several games with ``workers`` > 1 are built one per worker, the largest
    first; games built here hand their reference sheet to a worker (``pool``
    when given, see ``build_game``).  Nothing is written unless every game
    builds: the problems of all games are reported together.  ``write=False``
    writes nothing at all (``pnp check``: every design rendered, every target
    made, for their problems; an export, which looks at what it would write
    first): the files stay in each result's ``data``.  ``designs``: every result keeps its rendered
    designs (``result.rendered``, without drawings when built in a worker), as
    the edit loop's page needs them."""
    done = done or (lambda r: None)
    results: list[BuildResult] = []
    problems: list[Problem] = []
    if workers > 1 and len(jobs) > 1:
        from model.workers import process_pool

        _prepare_workers([game for game, _ in jobs], tuple(n for _, opts in jobs for n in opts.targets))
        with process_pool(min(workers, len(jobs))) as executor:
            # the largest games first, so that the workers finish together
            order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][0].cards))
            submitted = {i: executor.submit(_build_in_worker, jobs[i][0], jobs[i][1], cache, designs) for i in order}
            futures = [submitted[i] for i in range(len(jobs))]
            for future in futures:
                try:
                    results.append(future.result())
                    done(results[-1])
                except InputErrors as exc:
                    problems += exc.problems + exc.warnings
    else:
        for game, opts in jobs:
            try:
                results.append(_build_unwritten(game, opts, workers, cache, pool))
                done(results[-1])
            except InputErrors as exc:
                problems += exc.problems + exc.warnings
    seen: set[Problem] = set()
    for r in results:  # a warning of the whole build (the cache's) is said once, with the first game
        r.warnings = [w for w in r.warnings if not (w in seen or seen.add(w))]
    if problems:  # with the warnings of the games that built
        raise InputErrors(problems + [w for r in results for w in r.warnings])
    if write:
        write_held(results)
    return results
