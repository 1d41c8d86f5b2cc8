"""Rules engines read from a game's data folder: ``templates/<slug>/rules/``.

The folder is a Python package whose ``__init__`` defines ``SPEC``.  Its source
files are read once into a :class:`Bundle` (file name -> bytes) and imported from
there under a name of their own (``pnp_rules_<slug>_<tag>``, from the source and the folder), so

* the code that runs is exactly the code that was read and hashed: an edit made
  while games run changes nothing until the next run;
* worker processes - local ones and a Dask cluster's, on this machine or another -
  receive the bundle with their batches (:func:`carry`) and import it the same way,
  without reading the data folder;
* two versions of a game's rules in one process (a test, a long-lived library
  user) never mix: the name is drawn from the source and the folder.

Importing a bundle runs its Python, as running ``make`` runs a Makefile: pnp
reads rules only from ``templates/<slug>/rules/`` of the data folder it is
given (``--data``, or the current folder), never from a cell of a sheet.  Nothing
is written into the folder (no ``__pycache__``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import pickle
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

RULES = "rules"  # the package's folder inside templates/<slug>/
PREFIX = "pnp_rules_"


@dataclass(frozen=True, eq=False)
class Bundle:
    """The source of one folder engine: ``files`` maps a path inside the rules
    folder (``__init__.py``, ``game.py``, ``sub/x.py``) to its bytes; ``root`` is
    the folder (file names in tracebacks and messages), ``shown`` how messages
    name it (relative to the data folder)."""

    slug: str
    root: str
    shown: str
    files: dict = field(repr=False)
    digest: str = ""

    @property
    def name(self) -> str:
        """The top-level module name the package is imported under: one per source and
        folder (the same code in two folders is two modules, each naming its own files)."""
        tag = hashlib.sha256(f"{self.digest}\0{self.root}".encode()).hexdigest()[:12]
        return f"{PREFIX}{re.sub(r'[^0-9a-zA-Z]+', '_', self.slug).strip('_').lower()}_{tag}"

    def load(self):
        """Import the package (once per process) and return the module."""
        return _FINDER.load(self)

    def owns(self, filename: str) -> bool:
        """True for a file name of this bundle (as its code objects carry them)."""
        return filename.startswith(self.root + "/") or filename.startswith(self.root + "\\")


def read_bundle(folder: Path, slug: str, shown: str) -> Bundle:
    """The ``*.py`` files below ``folder`` (caches and hidden folders left out)."""
    files = {}
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        files[rel.as_posix()] = path.read_bytes()
    h = hashlib.sha256()
    for rel, data in files.items():
        h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return Bundle(slug, str(folder.resolve()), shown, files, h.hexdigest())


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules of loaded bundles: ``pnp_rules_<slug>_<tag>`` and below."""

    def __init__(self):
        self.bundles: dict[str, Bundle] = {}
        self.lock = threading.RLock()  # Dask workers may unpickle batches in several threads

    def load(self, bundle: Bundle):
        name = bundle.name
        with self.lock:
            if name not in self.bundles:
                if self not in sys.meta_path:  # first: a bundle's submodules come from it, not the folder
                    sys.meta_path.insert(0, self)
                self.bundles[name] = bundle
            try:
                return importlib.import_module(name)
            except BaseException:
                self.forget(name)
                raise

    def forget(self, name: str) -> None:
        """Drop a bundle whose import failed, and whatever of it was imported."""
        self.bundles.pop(name, None)
        for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[mod]

    def bundle_of(self, module: str) -> Bundle | None:
        return self.bundles.get(module.partition(".")[0]) if module.startswith(PREFIX) else None

    def find_spec(self, fullname, path=None, target=None):
        bundle = self.bundle_of(fullname)
        if bundle is None:
            return None
        rel = "/".join(fullname.split(".")[1:])
        package = f"{rel}/__init__.py" if rel else "__init__.py"
        if package in bundle.files:
            file, is_package = package, True
        elif f"{rel}.py" in bundle.files:
            file, is_package = f"{rel}.py", False
        else:
            return None
        origin = f"{bundle.root}/{file}"
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(bundle, file, origin), origin=origin,
                                              is_package=is_package)
        if is_package:
            spec.submodule_search_locations = [str(Path(origin).parent)]
        spec.has_location = True  # __file__ is the real path: tracebacks and messages point into the folder
        return spec


class _Loader(importlib.abc.SourceLoader):
    """Source from the bundle, compiled under the file's real name; no bytecode is
    written (``path_stats`` is not offered), so the data folder stays as it was."""

    def __init__(self, bundle: Bundle, file: str, origin: str):
        self.bundle, self.file, self.origin = bundle, file, origin

    def get_filename(self, fullname):
        return self.origin

    def get_data(self, path):
        if path == self.origin:
            return self.bundle.files[self.file]
        raise OSError(f"{path} is not part of the rules bundle")


_FINDER = _Finder()


def bundle_of(obj) -> Bundle | None:
    """The bundle a loaded object (a game, a spec's function) comes from, if any."""
    return _FINDER.bundle_of(getattr(obj, "__module__", None) or type(obj).__module__)


def bundle_named(module: str) -> Bundle | None:
    return _FINDER.bundle_of(module)


# ------------------------------------------------------------------ shipping to workers
_NOT_YET = object()


class Carried:
    """A value bound for a worker process, with the bundle its classes come from.

    It travels as the bundle and the value's pickled bytes, and stays so through
    any process that merely passes it on (a Dask scheduler unpickles a task and
    pickles it again): only :func:`arrived`, where the value is used, imports the
    bundle and unpickles the value."""

    __slots__ = ("bundle", "payload", "value")

    def __init__(self, value, bundle: Bundle, payload: bytes | None = None):
        self.value, self.bundle, self.payload = value, bundle, payload

    def __reduce__(self):
        payload = self.payload
        if payload is None:
            payload = pickle.dumps(self.value, protocol=pickle.HIGHEST_PROTOCOL)
        return (_in_transit, (self.bundle, payload))


def _in_transit(bundle: Bundle, payload: bytes) -> Carried:
    return Carried(_NOT_YET, bundle, payload)


def carry(value, game):
    """``value`` (e.g. a batch of games of ``game``) made ready for any worker: as it
    is when ``game``'s engine can be imported by name there, else wrapped with its
    bundle."""
    bundle = bundle_of(game)
    return value if bundle is None else Carried(value, bundle)


def arrived(value):
    """What a worker received through :func:`carry`: the value itself, its engine imported."""
    if type(value) is not Carried:
        return value
    if value.value is _NOT_YET:
        value.bundle.load()
        value.value = pickle.loads(value.payload)
    return value.value
