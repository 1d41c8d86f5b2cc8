"""The one registry of rules engines: a game's slug -> its engine, wherever it lives.

Engines come from two places, and every engine - pnp's own five included - is
found through one of them:

* **installed distributions** name their engines in the entry-point group
  ``pnp.engines``: the name is the slug, the value the engine's package (whose
  ``__init__`` defines ``SPEC``) or ``module:SPEC``.  pnp's own engines are
  registered so in its ``pyproject.toml``, like any other distribution's::

      [project.entry-points."pnp.engines"]
      pyramid-scheme = "validator.games.pyramid_scheme"

* **a game's data folder**: ``templates/<slug>/rules/``, a package whose
  ``__init__`` defines ``SPEC`` (see :mod:`.folder`).  It is looked for only when
  a game's data is given (``get_spec(data)``), so only in the folder pnp was
  pointed at (``--data``, or the current folder).

Two engines for one slug - from two distributions, or installed and in the data
folder - are an error naming both.  Whatever goes wrong while an engine loads is
one :class:`~model.errors.EngineError` line naming the engine and, when the fault
is in its code, the file and line; never a traceback.
"""

from __future__ import annotations

import hashlib
import importlib
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from model.errors import EngineError, NoRulesEngine

from .folder import RULES, Bundle, bundle_named, read_bundle
from .spec import GameSpec

GROUP = "pnp.engines"  # the entry-point group engines register in
DISTRIBUTION = "pyramid-pnp"  # pnp's own distribution: its engines are the bundled ones
TUTORIAL = "docs/engine-tutorial.md"


@dataclass(frozen=True)
class Engine:
    """Where one engine comes from: ``module`` is its import name (``value`` as the
    entry point gives it, e.g. ``pkg`` or ``pkg:SPEC``), ``origin`` says how a
    message names it, ``bundle`` holds a folder engine's source."""

    slug: str
    module: str
    origin: str
    value: str = ""
    bundled: bool = False
    bundle: Bundle | None = None

    def load(self) -> GameSpec:
        spec = _SPECS.get(self.key)
        if spec is None:
            spec = _SPECS[self.key] = self._load()
            _ENGINE_OF[id(spec)] = self
        if self.bundle is not None:
            _FOLDER_SPECS[self.slug] = spec  # what the slug alone means from now on (report.html from summary.json)
        return spec

    @property
    def key(self) -> tuple:
        return (self.slug, self.module)  # (a folder engine's module name stands for its source and folder)

    def _load(self) -> GameSpec:
        try:
            if self.bundle is not None:
                obj = self.bundle.load()
            else:
                module, _, attr = (self.value or self.module).partition(":")
                obj = importlib.import_module(module)
                for part in filter(None, attr.split(".")):
                    obj = getattr(obj, part)
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - the engine's own fault
            own(exc)
            raise EngineError(f"the rules of {self.slug} ({self.origin}) do not load: {_exc_line(exc)}",
                              *fault_line(exc, self)) from None
        spec = getattr(obj, "SPEC", None) if not isinstance(obj, GameSpec) else obj
        if spec is None:
            raise EngineError(f"the rules of {self.slug} ({self.origin}) define no SPEC; its __init__ must set "
                              "SPEC = GameSpec(...) (see " + TUTORIAL + ")")
        if not isinstance(spec, GameSpec):
            raise EngineError(f"the rules of {self.slug} ({self.origin}): SPEC is a {type(spec).__name__}, "
                              "not a validator.kit.GameSpec")
        if spec.slug != self.slug:
            raise EngineError(f"the rules of {self.slug} ({self.origin}) say they are for '{spec.slug}' "
                              f"(SPEC.slug); the slug must be '{self.slug}'")
        if not 1 <= spec.min_players <= spec.max_players:
            raise EngineError(f"the rules of {self.slug} ({self.origin}): players {spec.min_players}-"
                              f"{spec.max_players} is not a range of player counts")
        return spec

    def owns(self, filename: str) -> bool:
        """True for a source file of this engine (where a fault is blamed)."""
        if self.bundle is not None:
            return self.bundle.owns(filename)
        root = _package_root(self.module.partition(":")[0])
        return root is not None and filename.startswith(root)



_SPECS: dict[tuple, GameSpec] = {}
_ENGINE_OF: dict[int, Engine] = {}  # id of a loaded spec -> where it came from
_FOLDER_SPECS: dict[str, GameSpec] = {}  # folder engines loaded in this process, by slug (the latest)
_INSTALLED: dict[str, list[Engine]] | None = None


# ------------------------------------------------------------------ finding engines
def installed() -> dict[str, list[Engine]]:
    """Every engine installed distributions register (``pnp.engines``), by slug;
    a slug with two entries is a clash reported when the slug is asked for."""
    global _INSTALLED
    if _INSTALLED is None:
        from importlib.metadata import entry_points

        found: dict[str, list[Engine]] = {}
        seen = set()
        for ep in entry_points(group=GROUP):
            dist = getattr(ep, "dist", None)
            name = dist.name if dist is not None else "an unknown distribution"
            version = dist.version if dist is not None else ""
            if (ep.name, ep.value) in seen:  # the same distribution seen twice on sys.path
                continue
            seen.add((ep.name, ep.value))
            bundled = _normal(name) == _normal(DISTRIBUTION)
            origin = (f"bundled with pnp: {ep.value}" if bundled else
                      f"installed: {ep.value} from {name} {version}".rstrip())
            found.setdefault(ep.name, []).append(Engine(ep.name, ep.module, origin, ep.value, bundled))
        _INSTALLED = {slug: sorted(entries, key=lambda e: (not e.bundled, e.origin)) for slug, entries in found.items()}
    return _INSTALLED


def folder_rules_of(data) -> Path | None:
    """The rules package in a game's data folder (``templates/<slug>/rules/``), if it has one (nothing is read)."""
    folder = getattr(getattr(data, "manifest", None), "folder", None)
    if folder is None:
        return None
    rules = Path(folder) / RULES
    return rules if (rules / "__init__.py").is_file() else None


def folder_engine(data) -> Engine | None:
    """The engine in a game's data folder (``templates/<slug>/rules/``), if it has one."""
    rules = folder_rules_of(data)
    if rules is None:
        return None
    folder = rules.parent
    shown = f"templates/{Path(folder).name}/{RULES}/"
    bundle = read_bundle(rules, data.slug, shown)
    return Engine(data.slug, bundle.name, f"{shown} in {Path(folder).parent.parent}", bundle=bundle)


def find_engine(game) -> Engine | None:
    """The engine of ``game``: a slug (installed engines, then a folder engine
    already loaded in this process) or a game's data (its folder's rules, which
    may not share a slug with an installed engine).  None: the game has none."""
    slug = game if isinstance(game, str) else game.slug
    entries = installed().get(slug, [])
    if len(entries) > 1:
        names = " and ".join(e.origin for e in entries)
        raise EngineError(f"two rules engines are registered for '{slug}': {names}; uninstall one")
    local = None if isinstance(game, str) else folder_engine(game)
    if entries and local is not None:
        raise EngineError(f"two rules engines for '{slug}': {entries[0].origin} and the game's own, "
                          f"{local.origin}; rename the game or remove one of them")
    if local is not None:
        return local
    if entries:
        return entries[0]
    return None


def has_rules(game) -> bool:
    """True when ``game`` (a slug or a game's data) has a rules engine."""
    if isinstance(game, str) and game in _FOLDER_SPECS:
        return True
    return find_engine(game) is not None


def engines() -> list[str]:
    """The slugs of the installed engines (pnp's own and other distributions'), sorted."""
    _check_own()
    return sorted(installed())


def get_spec(game) -> GameSpec:
    """The spec of ``game``'s engine (a slug, or the game's data from
    ``model.sheets``: then the rules in its folder count too)."""
    engine = find_engine(game)
    if engine is None:
        slug = game if isinstance(game, str) else game.slug
        if isinstance(game, str) and slug in _FOLDER_SPECS:
            return _FOLDER_SPECS[slug]
        known = ", ".join(engines())
        raise NoRulesEngine(f"no rules engine exists for '{slug}' yet; pnp validate can simulate: {known}; "
                            f"to write one: pnp new {slug} --rules, and {TUTORIAL}")
    return engine.load()


def _check_own() -> None:
    """pnp's own engines are registered by its installed metadata: say how to fix an install that lacks it."""
    if not any(e.bundled for entries in installed().values() for e in entries):
        raise EngineError(f"pnp's own rules engines are not registered (no '{GROUP}' entry points of "
                          f"{DISTRIBUTION}): install pnp again, e.g. pip install -e .")


class _Engines(Mapping):
    """``ENGINES``: slug -> package of every installed engine, read when first used."""

    def __getitem__(self, slug):
        entries = installed()[slug]
        return entries[0].module

    def __iter__(self):
        return iter(engines())

    def __len__(self):
        return len(installed())

    def __repr__(self):
        return f"ENGINES({dict(self)!r})"


ENGINES: Mapping[str, str] = _Engines()


# ------------------------------------------------------------------ blame
def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _package_root(module: str) -> str | None:
    """The folder of an installed engine's package (or its one file), found without importing it."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if found is None or not found.origin:
        return None
    if found.submodule_search_locations:
        return str(Path(found.origin).parent) + "/"
    return found.origin


def _exc_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg}"
    if isinstance(exc, SystemExit):
        return f"it calls sys.exit({exc.code!r}) as it is imported"
    if isinstance(exc, KeyboardInterrupt):
        return "it raises KeyboardInterrupt as it is imported"
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def own(exc: BaseException) -> None:
    """Raise ``exc`` again when it is the user's Ctrl-C rather than the engine's fault."""
    from model.workers import ctrl_c_heard

    if isinstance(exc, KeyboardInterrupt) and ctrl_c_heard():
        raise exc


def fault_line(exc: BaseException, engine: Engine | None = None) -> tuple[str | None, int | None]:
    """(file, line) of the innermost frame of ``exc`` in the engine's own code (a
    folder engine's file shown from the data folder), or (None, None) when none is."""
    if isinstance(exc, SyntaxError) and exc.filename and (engine is None or engine.owns(exc.filename)):
        return _shown(exc.filename, engine), exc.lineno
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if engine is None or engine.owns(frame.filename):
            return _shown(frame.filename, engine), frame.lineno
    return None, None


def _shown(filename: str, engine: Engine | None) -> str:
    if engine is not None and engine.bundle is not None and engine.bundle.owns(filename):
        return engine.bundle.shown + filename[len(engine.bundle.root) + 1:]
    return filename


def engine_of(spec: GameSpec) -> Engine | None:
    """The registry entry a loaded spec came from: the one that loaded it, else (in a
    worker process, which receives games rather than loading engines) the folder
    bundle or installed engine its code belongs to; None for a spec made elsewhere."""
    engine = _ENGINE_OF.get(id(spec))
    if engine is not None:
        return engine
    module = spec.package or getattr(spec.make, "__module__", "") or ""
    bundle = bundle_named(module)
    if bundle is not None:
        return Engine(spec.slug, bundle.name, bundle.shown, bundle=bundle)
    return next((e for e in installed().get(spec.slug, []) if module.startswith(e.module)), None)


# ------------------------------------------------------------------ the rules hash
def _sources(package: str) -> list[tuple[str, bytes]]:
    bundle = bundle_named(package)
    if bundle is not None:
        return [(Path(rel).name, data) for rel, data in sorted(bundle.files.items(),
                                                                  key=lambda kv: Path(bundle.root, kv[0]))]
    mod = importlib.import_module(package)
    root = Path(mod.__file__).parent if mod.__file__.endswith("__init__.py") else Path(mod.__file__)
    paths = sorted(root.rglob("*.py")) if root.is_dir() else [root]
    return [(p.name, p.read_bytes()) for p in paths]


def rules_hash(spec: GameSpec, rules: dict) -> str:
    """A short hash of the engine's package, the kit, and the rules options."""
    h = hashlib.sha256()
    package = spec.package or spec.make.__module__  # (an engine that leaves package out: its make's module)
    for name in (package, __package__):
        for file, data in _sources(name):
            h.update(file.encode())
            h.update(data)
    h.update(repr(sorted(rules.items())).encode())
    return h.hexdigest()[:16]
