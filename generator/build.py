"""Build one game: render designs, impose sheets, write the PDFs atomically."""

from __future__ import annotations

import hashlib
import io
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from model.atomic import write_files
from model.errors import InputErrors, Problem, Problems
from model.sheets import Card, Game

from .layout import DUPLEX_MODES, Sheet, back_marks, back_slots, grid
from .pdf import Page, Placement, SheetWriter, new_canvas
from .render import DrawingCache, Renderer


@dataclass
class BuildOptions:
    page: str = "a4"
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    out: Path = Path("output")
    expansions: set[str] | None = None  # None: every expansion


@dataclass
class DeckStats:
    deck: str
    label: str
    designs: int
    components: int
    pages: int  # front pages
    size: str


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

    @property
    def components(self) -> int:
        return sum(d.components for d in self.decks)


@dataclass
class Rendered:
    card: Card
    front: str
    back: str | None


def chunks(items: list, n: int) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)] or [[]]


PARALLEL_MIN_DESIGNS = 200  # below this, worker processes cost more than they save


def content_hash(game: Game, options: BuildOptions) -> str:
    """A short hash of everything that is printed: the rows, the game's template
    folder, the generator's own templates, the tool version and the options."""
    from model import __version__

    h = hashlib.sha256(__version__.encode())
    for card in game.select(options.expansions):
        h.update(repr(card).encode())
    for folder in (game.manifest.folder, Path(__file__).parent / "templates"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    h.update(repr((options.page, options.duplex, options.back_offset)).encode())
    return h.hexdigest()[:10]


def _render_part(game: Game, options: BuildOptions, designs: list[tuple[str, Card]]):
    """Worker side of GameBuilder.render_all: render and parse some designs."""
    b = GameBuilder(game, options)
    rendered = b.render_and_parse(designs)
    return rendered, b.cache.drawings, b.problems.items


def _reference_part(game: Game, options: BuildOptions, digest: str):
    from .reference import build_reference

    problems = Problems()
    data, pages = build_reference(game, options, problems, DrawingCache(), digest)
    return data, pages, problems.items


class GameBuilder:
    def __init__(self, game: Game, options: BuildOptions, progress: Callable[[int], None] | None = None):
        self.game = game
        self.options = options
        self.manifest = game.manifest
        self.problems = Problems()
        self.cache = DrawingCache()
        self.progress = progress or (lambda n: None)

    def decks(self) -> list[tuple[str, list[Card]]]:
        out = []
        for name in self.manifest.decks:
            cards = self.game.deck(name, self.options.expansions)
            if cards:
                out.append((name, cards))
        return out

    def designs(self) -> list[tuple[str, Card]]:
        return [(name, card) for name, cards in self.decks() for card in cards]

    def render_and_parse(self, designs: list[tuple[str, Card]]) -> dict[str, list[Rendered]]:
        """Templates -> SVG -> drawings (into the cache), for some designs, in deck order."""
        renderer = Renderer(self.manifest, self.problems)
        rendered: dict[str, list[Rendered]] = {}
        for name, card in designs:
            deck = self.manifest.decks[name]
            front = renderer.svg(deck.front, deck, card)
            back = renderer.svg(deck.back, deck, card, "back") if deck.back else None
            self.progress(1)
            if front is None or (deck.back and back is None):
                continue
            where = f"templates/{self.manifest.slug}/{{}} ({card.id})"
            self.cache.get(front, where.format(deck.front), self.problems)
            if back is not None:
                self.cache.get(back, where.format(deck.back), self.problems)
            rendered.setdefault(name, []).append(Rendered(card, front, back))
        return rendered

    def submit_render(self, pool, parts: int) -> list:
        """Start rendering in worker processes (nothing when the deck is small)."""
        designs = self.designs()
        if pool is None or parts < 2 or len(designs) < PARALLEL_MIN_DESIGNS:
            return []
        size = -(-len(designs) // parts)
        return [pool.submit(_render_part, self.game, self.options, designs[i:i + size])
                for i in range(0, len(designs), size)]

    def collect_render(self, futures: list) -> dict[str, list[Rendered]]:
        """The rendered designs, from the workers' futures or rendered here."""
        if not futures:
            rendered = self.render_and_parse(self.designs())
        else:
            rendered = {}
            for future in futures:
                part, drawings, problems = future.result()
                self.cache.drawings.update(drawings)
                self.problems.items += problems
                for name, items in part.items():
                    rendered.setdefault(name, []).extend(items)
                self.progress(sum(len(v) for v in part.values()))
        self.problems.raise_if_errors()
        return rendered

    def pages(self, rendered: dict[str, list[Rendered]], digest: str) -> tuple[list[Page], list[Page], list[DeckStats]]:
        """Fronts interleaved with their backs (duplex), and backs alone (duplex none)."""
        opts = self.options
        joined: list[Page] = []
        backs_only: list[Page] = []
        stats = []
        plan = []
        for name, items in rendered.items():
            deck = self.manifest.decks[name]
            sheet = grid(opts.page, deck.size.width, deck.size.height, deck.size.bleed)
            copies = [r for r in items for _ in range(r.card.count)]
            groups = chunks(copies, sheet.per_page)
            plan.append((deck, sheet, groups))
            stats.append(DeckStats(name, deck.label, len(items), len(copies), len(groups), deck.size.name))
        total = sum(len(g) * (2 if deck.back and opts.duplex != "none" else 1) for deck, _, g in plan)
        total_backs = sum(len(g) for deck, _, g in plan if deck.back) if opts.duplex == "none" else 0
        n = 0
        nb = 0
        ck = self.cache.key
        title = self.manifest.title
        for deck, sheet, groups in plan:
            back_sheet = None
            if deck.back:
                back_sheet = Sheet(sheet.page_w, sheet.page_h, sheet.rows, sheet.cols, sheet.gutter_x,
                                   sheet.gutter_y, sheet.bleed,
                                   back_slots(sheet, opts.duplex, opts.back_offset), [])
                back_sheet.marks = back_marks(sheet, opts.duplex, opts.back_offset)
            for group in groups:
                n += 1
                fronts = [Placement(sheet.slots[i], ck(r.front)) for i, r in enumerate(group)]
                joined.append(Page(sheet, fronts, f"{title} · {deck.label} · fronts · page {n}/{total} · {digest}",
                                   deck.crop_marks))
                if back_sheet is None:
                    continue
                backs = [Placement(back_sheet.slots[i], ck(r.back)) for i, r in enumerate(group)]
                flip = {"long": "backs, flip on long edge", "short": "backs, flip on short edge",
                        "none": "backs"}[opts.duplex]
                if opts.duplex == "none":
                    nb += 1
                    backs_only.append(Page(back_sheet, backs, f"{title} · {deck.label} · {flip} · page {nb}/{total_backs}"
                                                              f" · {digest}", deck.crop_marks))
                else:
                    n += 1
                    joined.append(Page(back_sheet, backs, f"{title} · {deck.label} · {flip} · page {n}/{total}"
                                                          f" · {digest}", deck.crop_marks))
        return joined, backs_only, stats

    def write_pdf(self, pages: list[Page], subject: str) -> bytes:
        buffer = io.BytesIO()
        first = pages[0].sheet
        c = new_canvas(buffer, first.page_w, first.page_h, f"{self.manifest.title} - {subject}", subject)
        writer = SheetWriter(c, self.cache.drawings)
        for page in pages:
            writer.page(page)
        c.save()
        return buffer.getvalue()


def build_game(game: Game, options: BuildOptions, progress: Callable[[int], None] | None = None,
               reference: bool = True, write: bool = True, workers: int = 1) -> BuildResult:
    """Render, impose and write one game's PDFs; raises InputErrors before writing anything.

    With ``write=False`` the files stay in ``result.data`` for the caller to write.
    With ``workers`` > 1, large decks are rendered in worker processes and the
    reference sheet is made alongside."""
    start = time.perf_counter()
    if options.duplex not in DUPLEX_MODES:
        raise InputErrors([Problem("--duplex", None, None, f"unknown mode '{options.duplex}'")])
    b = GameBuilder(game, options, progress)
    designs = b.designs()
    if not designs:
        raise InputErrors([Problem("cards.csv", None, None, f"no rows for {game.slug} "
                                   f"(expansions: {', '.join(sorted(options.expansions or [])) or 'all'})")])
    digest = content_hash(game, options)
    pool = None
    if workers > 1 and len(designs) >= PARALLEL_MIN_DESIGNS:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures = b.submit_render(pool, workers)
        ref = _reference_part(game, options, digest) if reference else None  # alongside the workers
        rendered = b.collect_render(futures)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    joined, backs_only, stats = b.pages(rendered, digest)
    folder = options.out / game.slug
    files: dict[Path, bytes] = {folder / f"{game.slug}-cards.pdf": b.write_pdf(joined, "cards")}
    if backs_only:
        files[folder / f"{game.slug}-backs.pdf"] = b.write_pdf(backs_only, "card backs")
    ref_pages = 0
    if ref is not None:
        data, ref_pages, problems = ref
        b.problems.items += problems
        files[folder / f"{game.slug}-reference.pdf"] = data
    b.problems.raise_if_errors()
    result = BuildResult(game.slug, game.title, list(files), stats,
                         len(joined) + len(backs_only) + ref_pages, b.problems.warnings,
                         time.perf_counter() - start, digest)
    if write:
        write_results([result], files)
    else:
        result.data = files
    return result


def write_results(results: list[BuildResult], files: dict[Path, bytes]) -> None:
    """Write every file at once; drop a backs file left over from an earlier --duplex none."""
    write_files(files)
    for r in results:
        folder = r.files[0].parent
        stale = folder / f"{r.game}-backs.pdf"
        if stale not in files and stale.exists():
            stale.unlink()


def _build_unwritten(game: Game, options: BuildOptions, workers: int = 1) -> BuildResult:
    return build_game(game, options, write=False, workers=workers)


def build_games(jobs: list[tuple[Game, BuildOptions]], workers: int = 1,
                done: Callable[[BuildResult], None] | None = None) -> list[BuildResult]:
    """Build several games, in worker processes when there are cores to spare.

    Nothing is written unless every game builds: the problems of all games are
    reported together."""
    done = done or (lambda r: None)
    results: list[BuildResult] = []
    problems: list[Problem] = []
    if workers > 1 and len(jobs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            futures = [pool.submit(_build_unwritten, game, opts) for game, opts in jobs]
            for future in futures:
                try:
                    results.append(future.result())
                    done(results[-1])
                except InputErrors as exc:
                    problems += exc.problems
    else:
        for game, opts in jobs:
            try:
                results.append(_build_unwritten(game, opts, workers))
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
