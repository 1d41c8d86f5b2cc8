"""Whether a build would write the files it wrote last time: then there is nothing to do.

A build records, in the build cache folder (``OUT/.pnp-cache/builds.json``), what
it was asked for (the command's games and options: its *key*), a digest of
everything it read (its *inputs*: the sheets ``cards.*`` and ``goals.*``, every
file under ``templates/``, the generator's and the model's code and templates,
the fonts and the versions of the libraries that draw), the picture files its
designs placed with a digest of each (which pictures a build reads is known only
once its templates ran), the files it wrote with their size, time and inode, and
the lines it printed about them (warnings and notes).  The same build asked again
finds the record: when the inputs digest is the same, every file it wrote is still
there untouched and every picture is the same (untouched, or read again and of the
same digest), it has nothing to write.  A file deleted or rewritten since, a
template saved, a cell edited, a picture replaced, another option, a new version of
pnp: the build runs.

Everything here reads files and hashes them, without importing what a build
needs (reportlab, the templates): the check costs a few milliseconds more than
starting ``pnp``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .stages.cache import cache_folder
from .stages.keys import BUILTIN_TEMPLATES, folder_files, fonts_fingerprint, package_version

RECORD_FILE = "builds.json"
RECORD_FORMAT = 3  # 3: pictures by SHA-256
KEPT = 16  # builds remembered per output folder (one per command and options)
#: the libraries whose upgrade changes what is drawn
LIBRARIES = ("reportlab", "svglib", "jinja2", "rl_accel")
#: the project's packages whose code decides what a build writes and the warnings it gives
CODE = ("generator", "model", "validator", "pnp")


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def file_digest(path: Path) -> str | None:
    """A picture file's digest, as the build knows its pictures (``pictures.content_digest``)."""
    from .art.pictures import content_digest

    try:
        return content_digest(path.read_bytes())
    except OSError:
        return None


def command_key(data: Path, out: Path, games: tuple[str, ...], options: dict) -> str:
    """What a build is asked for: the folders, the games and every option that changes what it writes."""
    text = json.dumps({"data": str(Path(data).resolve()), "out": str(Path(out).resolve()), "games": list(games),
                       "options": {k: options[k] for k in sorted(options)}}, sort_keys=True, default=repr)
    return _digest(text.encode())


def _code_state(h) -> None:
    """Sizes and times of the code and package data that decide the outputs (a change to any
    of them, an upgrade of a library that draws, a replaced font: another digest)."""
    root = Path(__file__).resolve().parents[1]
    for package in CODE:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".j2", ".toml") and "__pycache__" not in path.parts:
                st = path.stat()
                h.update(f"{path.relative_to(root).as_posix()}:{st.st_size}:{st.st_mtime_ns}\0".encode())
    for name in LIBRARIES:
        h.update(f"{name} {package_version(name)}\0".encode())
    h.update(f"fonts {fonts_fingerprint()}\0builtin {BUILTIN_TEMPLATES}\0".encode())


def inputs_digest(data: Path) -> str:
    """A digest of everything a build of the data folder reads."""
    from model import __version__

    h = hashlib.blake2b(digest_size=16)
    h.update(f"pnp {__version__}\0".encode())
    data = Path(data)
    for path in sorted(p for p in data.glob("*") if p.is_file() and p.stem in ("cards", "goals")):
        h.update(f"{path.name}\0".encode())
        h.update(path.read_bytes())
    templates = data / "templates"
    if templates.is_dir():
        for path in folder_files(templates):  # a link out of the folder is never read (the build leaves it out too)
            h.update(f"{path.relative_to(templates).as_posix()}\0".encode())
            h.update(path.read_bytes())
    _code_state(h)
    return h.hexdigest()


def _records(out: Path) -> dict:
    try:
        found = json.loads((cache_folder(out) / RECORD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(found, dict) or found.get("format") != RECORD_FORMAT or not isinstance(found.get("builds"), dict):
        return {}
    return found["builds"]


def _stat(path: Path) -> list[int] | None:
    """What says a file was not touched since: its size, modification time and inode."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def unchanged(out: Path, key: str, inputs: str) -> dict | None:
    """The record of the last build asked for ``key`` when its inputs are ``inputs`` and every file
    it wrote is there as it wrote it (``{"files": [...], "lines": [...]}``); None when it must run."""
    record = _records(out).get(key)
    if not isinstance(record, dict) or record.get("inputs") != inputs:
        return None
    files = record.get("files")
    if not isinstance(files, dict) or not files:
        return None
    for name, signature in files.items():  # an output rewritten, replaced or deleted since
        if _stat(Path(name)) != signature:
            return None
    pictures = record.get("pictures") or {}
    if not isinstance(pictures, dict):
        return None
    for name, found in pictures.items():  # a picture replaced since (its name in the sheet unchanged)
        if not isinstance(found, list) or len(found) != 2:
            return None
        signature, digest = found
        if _stat(Path(name)) != signature and file_digest(Path(name)) != digest:  # touched: read it
            return None
    return {"files": list(files), "lines": list(record.get("lines") or [])}


def remember(out: Path, key: str, inputs: str, files: list[Path], lines: list[str],
             pictures: dict[Path, str] | None = None) -> None:
    """Record a build that wrote ``files`` (and printed ``lines``) from the picture files ``pictures``
    (each with its digest, as the build read it), for the next one to compare with.  An
    output is known by its size, time and inode (the build wrote it; any later write changes
    them); a picture by those and its digest, so that a picture saved again unchanged still
    counts as the same."""
    from model.atomic import write_files

    builds = _records(out)
    builds.pop(key, None)
    builds[key] = {"inputs": inputs, "files": {str(Path(f).resolve()): _stat(Path(f)) for f in files},
                   "lines": lines,
                   "pictures": {str(Path(f).resolve()): [_stat(Path(f)), digest]
                                for f, digest in (pictures or {}).items()}}
    while len(builds) > KEPT:
        builds.pop(next(iter(builds)))
    payload = json.dumps({"format": RECORD_FORMAT, "builds": builds}, indent=1)
    write_files({cache_folder(out) / RECORD_FILE: payload})
