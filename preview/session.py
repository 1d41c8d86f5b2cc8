"""One designer's session: build, and build again after each save.

A ``Session`` holds the build options, a disk cache kept in memory between
builds (``generator.diskcache.DiskCache``) and the last ``Snapshot``: what the
last build gave (every card of every game with its SVG, row values, warnings
and the files written) or the data errors that stopped it.  A failed build
writes nothing, so the PDFs of the last good build stay in place; the next
good save recovers.

Everything a build compiles stays in this process between builds (template
environments, fonts, display lists), and, when there is a second core, a
helper process kept for the session makes each reference sheet while this
one renders and writes the cards.

Image editors save a picture in place, in pieces: a build that reads it half
written would show an error for a save that is going well.  So a picture that
has just changed is built from only once it is whole (a PNG's last chunk, a
JPEG's end marker, an SVG's closing tag: a whole picture is built from at once,
one that is not is waited for, at most ``SETTLE_LIMIT_S``), and a build that
finds a picture broken while it is still being written waits until it has not
changed for ``SETTLE_QUIET_S`` and builds again rather than show the error.
"""

from __future__ import annotations

import os
import re
import threading
import time
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from generator.build import BuildOptions, BuildResult, build_games
from generator.art.pictures import KINDS, kind_of
from generator.diskcache import DiskCache, cache_folder
from model.errors import InputErrors, PnpError, Problem
from model.sheets import Card, load_project

#: A picture a build found broken is built from again once it is whole and has not changed for this long
#: (seconds) ...
SETTLE_QUIET_S = 0.15
#: ... waiting at most this long for it; a picture unchanged for this long is taken as it is.
SETTLE_LIMIT_S = 3.0
#: A picture file named in a problem line: 'art/king.png' (any kind pnp reads).
_NAMED_PICTURE = re.compile(r"'([^']+(?:%s))'" % "|".join(re.escape(k) for k in KINDS), re.I)
#: The columns shown for a card, in this order, before its game-specific ones.
SHOWN_COLUMNS = ("id", "name", "count", "color", "number", "symbol", "requires", "effect", "text", "expansion")


@dataclass
class CardView:
    """One design as the preview shows it."""

    game: str
    deck: str
    deck_label: str
    id: str
    name: str
    sheet: str
    row: int
    count: int
    front: str  # design key of the front SVG
    back: str | None
    values: list[tuple[str, str]]
    warnings: list[str] = field(default_factory=list)  # problems of this row and of its rendered text
    notes: list[str] = field(default_factory=list)  # text that had to shrink
    changed: bool = False  # its picture differs from the last good build's (or it is new)


@dataclass
class GameView:
    slug: str
    title: str
    decks: list[tuple[str, str, list[CardView]]]  # (deck name, label, cards)
    files: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Snapshot:
    version: int = 0
    built_at: float = 0.0
    seconds: float = 0.0
    trigger: str = "start"
    games: list[GameView] = field(default_factory=list)
    svgs: dict[str, str] = field(default_factory=dict)  # design key -> SVG text
    pictures: dict[str, tuple] = field(default_factory=dict)  # digest -> (file, kind) of the pictures placed
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # warnings that belong to no card
    results: list[BuildResult] = field(default_factory=list, repr=False)
    general: list[str] = field(default_factory=list)  # warnings that belong to no game (a sheet's header ...)
    changed: dict[str, list[str]] | None = None  # game -> ids of the designs that differ from the last good
    # build (None: there was none to compare with)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict:
        return {
            "version": self.version,
            "built_at": self.built_at,
            "seconds": round(self.seconds, 3),
            "trigger": self.trigger,
            "errors": self.errors,
            "warnings": self.warnings,
            "games": [{
                "slug": g.slug, "title": g.title, "files": g.files, "seconds": round(g.seconds, 3),
                "decks": [{"name": name, "label": label, "cards": [c.__dict__ for c in cards]}
                          for name, label, cards in g.decks],
            } for g in self.games],
        }


def _value(v) -> str:
    return "" if v is None else str(v)


def _values(card: Card, columns) -> list[tuple[str, str]]:
    out = [(c, _value(card.get(c))) for c in SHOWN_COLUMNS]
    out += [(c, _value(card.get(c))) for c in columns if c not in SHOWN_COLUMNS]
    return [(c, v) for c, v in out if v != "" or c in ("id", "name", "count")]


class Session:
    """Builds ``games`` (None: every game) of the data folder ``data`` into ``out``."""

    def __init__(self, data: Path, games: list[str] | None = None, out: Path | None = None,
                 options: BuildOptions | None = None, expansions: tuple[str, ...] = (), cache: bool = True,
                 workers: int = 1, checks: Callable | None = None):
        """``checks(game, store)``: a game's further problems (``pnp check``'s deck and
        palette checks, given by the command line, which may import the validator),
        shown and counted with the build's own."""
        self.data = Path(data)
        self.checks = checks
        self.games = list(games) if games else None
        self.out = Path(out) if out is not None else self.data / "output"
        self.options = options or BuildOptions()
        self.expansions = tuple(expansions)
        self.workers = workers
        self.store = DiskCache(cache_folder(self.out), memory=True) if cache else None
        self.snapshot = Snapshot()
        self.lock = threading.Lock()
        self.listeners: list = []  # called with each new Snapshot
        self.helper = None  # the process pool of one that makes reference sheets (started after the first build)
        self.design_keys: dict[tuple[str, str], tuple] | None = None  # (game, id) -> design keys of the last good build
        self._helper_broken = False

    def build(self, changed: list[Path] | None = None, workers: int | None = None) -> Snapshot:
        """Build again; returns (and keeps) the new snapshot.  Never raises for the user's data."""
        with self.lock:
            start = time.perf_counter()
            trigger = ", ".join(sorted({self._name(p) for p in changed})) if changed else "start"
            settle([p for p in changed or () if _is_picture(p)], quiet=0)  # (a whole picture: at once)
            workers = self.workers if workers is None else workers
            snap = self._attempt(trigger, workers)
            deadline = time.monotonic() + SETTLE_LIMIT_S
            while snap.errors and (saving := self._being_saved(snap)) and time.monotonic() < deadline:
                settle(saving)  # caught while an editor writes it: build again once it is whole
                snap = self._attempt(trigger, workers)
            snap.seconds = time.perf_counter() - start
            self.snapshot = snap
        for listener in list(self.listeners):
            listener(snap)
        return snap

    def _being_saved(self, snap: Snapshot) -> list[Path]:
        """The pictures the errors of ``snap`` name that are being written now (changed just now, and not
        whole or still changing)."""
        named = {self.data / m for line in snap.errors for m in _NAMED_PICTURE.findall(line)}
        return [p for p in sorted(named) if not _settled(p)]

    def _attempt(self, trigger: str, workers: int) -> Snapshot:
        """One build: the snapshot of what it gave, or of the errors that stopped it."""
        snap = Snapshot(self.snapshot.version + 1, time.time(), trigger=trigger)
        try:
            self._build(snap, workers)
            self._start_helper()
        except InputErrors as exc:
            snap.errors = [f"error {p}" for p in exc.problems]
        except PnpError as exc:
            snap.errors = [f"error {exc}"]
        except Exception as exc:  # noqa: BLE001 - a bug: said so, and the loop goes on with the next save
            import sys
            import traceback

            trace = getattr(exc, "trace", None) or "".join(traceback.format_exception(exc))
            print(trace.rstrip(), file=sys.stderr)
            snap.errors = [f"error pnp hit a bug ({type(exc).__name__}: {exc}); this is not a mistake in your "
                           "files: please report it on the pnp issue tracker with the traceback printed above"]
        return snap

    def _name(self, path: Path) -> str:
        try:
            return Path(path).resolve().relative_to(self.data.resolve()).as_posix()
        except ValueError:
            return str(path)

    def _build(self, snap: Snapshot, workers: int) -> None:
        project = load_project(self.data, self.games)
        if not self.games:
            project.drop_empty()
        store = self.store
        general, by_game = project.attribute_warnings(
            (lambda game: self.checks(game, store)) if self.checks is not None else None)
        found = general + [p for own in by_game.values() for p in own]
        if any(p.is_error for p in found):
            raise InputErrors(found)
        boxes = project.select_expansions(self.expansions, strict=bool(self.games))
        jobs = []
        for slug, game in project.games.items():
            o = self.options
            jobs.append((game, BuildOptions(o.page, o.duplex, o.back_offset, self.out, boxes[slug], targets=o.targets,
                                            settings=o.settings, layout=getattr(o, "layout", "grid"),
                                            printer_margin=getattr(o, "printer_margin", None) or
                                            BuildOptions.printer_margin)))
        helper = self.helper if workers <= 1 else None
        try:
            results = build_games(jobs, workers=workers, cache=self.store, pool=helper, designs=True)
        except BrokenExecutor:  # the helper process died (or could not start): build without one from now on
            self.helper = None
            self._helper_broken = True
            results = build_games(jobs, workers=workers, cache=self.store, designs=True)
        snap.results = results
        for result in results:  # the game's own warnings (its rows', its checks') first, then the build's
            result.warnings = by_game.get(result.game, []) + result.warnings
        row_problems: dict[tuple[str, int], list[Problem]] = {}
        for p in found:
            if p.row is not None:
                row_problems.setdefault((p.file, p.row), []).append(p)
        attached: set[int] = set()
        design_keys: dict[tuple[str, str], tuple] = {}
        snap.changed = None if self.design_keys is None else {}
        for result in results:
            rendered = result.rendered
            game = project.games[result.game]
            decks = []
            for name, designs in (rendered.decks().items() if rendered is not None else []):
                deck = game.manifest.decks[name]
                cards = []
                for d in designs:
                    c = d.card
                    mine = row_problems.get((c.sheet, c.row), [])
                    attached.update(id(p) for p in mine)
                    warnings = list(dict.fromkeys(  # a template's warning is named by the template
                        [f"{p.column or 'row'}: {p.message}" for p in mine] +
                        [f"{p.column or Path(p.file).name}: {p.message}" for p in d.warnings]))
                    keys = design_keys[(game.slug, c.id)] = (d.front_key, d.back_key)
                    differs = self.design_keys is None or self.design_keys.get((game.slug, c.id)) != keys
                    if differs and snap.changed is not None:
                        snap.changed.setdefault(game.slug, []).append(c.id)
                    cards.append(CardView(game.slug, name, deck.label, c.id, c.name, c.sheet, c.row, c.count,
                                          d.front_key, d.back_key, _values(c, deck.columns), warnings,
                                          list(d.notes), differs))
                    snap.svgs[d.front_key] = d.front_svg
                    if d.back_key:
                        snap.svgs[d.back_key] = d.back_svg
                    for rel, digest in d.pictures:
                        path = game.manifest.data_folder / rel
                        snap.pictures[digest] = (path, kind_of(path))
                decks.append((name, deck.label, cards))
            snap.games.append(GameView(game.slug, game.title, decks, [str(f) for f in result.files], result.seconds))
            result.rendered = None  # the snapshot keeps what it needs
        self.design_keys = design_keys
        snap.general = [f"warning {p}" for p in general]
        snap.warnings = [f"warning {p}" for p in found if id(p) not in attached]
        snap.warnings += [f"warning {w}" for w in getattr(self.store, "warnings", [])]

    def _start_helper(self) -> None:
        """Start the helper process (spawned: this process may run a server's threads) and let it
        import and register what a reference sheet needs, so that it is ready by the next save."""
        if self.helper is not None or self._helper_broken or (os.cpu_count() or 1) < 2:
            return
        import multiprocessing

        from model.workers import process_pool

        self.helper = process_pool(1, mp_context=multiprocessing.get_context("spawn"))
        self.helper.submit(_prepare_helper)

    def close(self) -> None:
        if self.helper is not None:
            self.helper.shutdown(wait=False, cancel_futures=True)
            self.helper = None
        if self.store is not None:
            self.store.close()


def _is_picture(path) -> bool:
    return Path(path).suffix.lower() in KINDS


def _state(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _whole(path: Path) -> bool:
    """Whether a picture file ends as a whole one does: a PNG with its IEND chunk, a JPEG with its end
    marker, an SVG with its closing tag (a file being written in place has not got there yet)."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 64))
            tail = fh.read()
    except OSError:
        return False
    kind = kind_of(path)
    if kind == "png":
        return tail.endswith(b"IEND\xaeB`\x82")
    if kind == "jpeg":
        return b"\xff\xd9" in tail
    return tail.rstrip().endswith(b">")


def _settled(path: Path, quiet: float = SETTLE_QUIET_S) -> bool:
    """Whether a picture is done being written: whole and unchanged for ``quiet`` seconds, or not changed
    for ``SETTLE_LIMIT_S`` (taken as it is, even if broken)."""
    state = _state(path)
    if state is None:
        return True  # gone: the build says so
    age = time.time() - state[1] / 1e9
    return age >= SETTLE_LIMIT_S or (age >= quiet and _whole(path))


def settle(paths, quiet: float = SETTLE_QUIET_S, limit: float = SETTLE_LIMIT_S) -> None:
    """Wait until every picture of ``paths`` is settled (:func:`_settled`), at most ``limit`` seconds."""
    deadline = time.monotonic() + limit
    waiting = [Path(p) for p in paths]
    while waiting and time.monotonic() < deadline:
        waiting = [p for p in waiting if not _settled(p, quiet)]
        if waiting:
            time.sleep(min(0.05, quiet or 0.05))


def _prepare_helper() -> None:
    """Run in the helper process once: the imports and fonts of a reference sheet."""
    from generator.stages import designs, reference  # noqa: F401
    from generator.art.fonts import register_fonts

    register_fonts()


def _ids(ids: list[str]) -> str:
    return f"{', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''}"


def _what_changed(designs: int, rendered: list[str], changed: list[str] | None) -> str:
    """``1 of 92 designs changed (g03), rendered``; ``no design changed``; after an
    undo, ``1 of 92 designs changed (g03), from the cache``.  ``changed`` None: the
    first build, which says what it rendered."""
    plural = "s" if designs != 1 else ""
    if changed is None:
        if not rendered:
            return f"all {designs} design{plural} from the cache"
        return f"{len(rendered)} of {designs} design{plural} rendered" + \
            (f" ({_ids(rendered)})" if len(rendered) < designs else "")
    if not changed:
        return "no design changed"
    anew = [i for i in changed if i in set(rendered)]
    how = ("rendered" if len(anew) == len(changed) else "from the cache" if not anew else
           f"{len(anew)} rendered, {len(changed) - len(anew)} from the cache")
    shown = f" ({_ids(changed)})" if len(changed) < designs else ""
    return f"{len(changed)} of {designs} design{plural} changed{shown}, {how}"


def summary(snap: Snapshot) -> list[str]:
    """The lines ``pnp watch`` prints for a build: one per game (what changed,
    time, warnings), or the error lines and a last line saying nothing was written."""
    stamp = time.strftime("%H:%M:%S", time.localtime(snap.built_at))
    if snap.errors:
        n = len(snap.errors)
        return [f"{stamp} {snap.trigger}: {n} error{'s' if n != 1 else ''}; nothing was written, "
                f"the last good PDFs stay", *snap.errors]
    lines = []
    for r in snap.results:
        designs = sum(d.designs for d in r.decks)
        what = _what_changed(designs, r.changed, None if snap.changed is None else snap.changed.get(r.game, []))
        n = len(r.warnings)
        lines.append(f"{stamp} {snap.trigger}: {r.game}: {what}; {len(r.files)} files written in {r.seconds:.2f} s"
                     f"{f', {n} warning' + ('s' if n != 1 else '') if n else ''}")
        lines += [f"  warning {w}" for w in r.warnings]
    lines += [f"{stamp} {snap.trigger}: {w}" for w in snap.general]
    return lines
