"""The per-design cache on disk: ``<output folder>/.pnp-cache/cache.sqlite``.

It lives in the output folder, beside the files it helps build, rather than
in the user's cache folder: its keys already name everything that can change
a design, so any place would be correct, and this one is removed with the
output, is emptied by ``pnp clean`` without hunting, keeps two data folders
from evicting each other, and gives every test and CI run (each with its own
``--out``) a cache of its own.  Nothing is written outside the folders the
user named.

One SQLite database holds four kinds of entries (``cache.RenderCache``): the
rendered SVG of a design by its input key, the display list of a drawing by
its design key, the PDF form stream a display list wrote (``pdf.FormStream``,
so that the card sheets take a design unchanged since the last build without
running its list again), and compiled Jinja2 templates; the pictures encoded for
PDFs, megabytes each, are files of their own beside it (``blobs/``).  Every value
carries a seal made with a key bound to the database file (a blob, to the blobs folder): its
place, device and inode, which a copy made anywhere else does not have.  So a cache that came
with a game folder, written somewhere else, is never read: each of its entries fails its seal
and the design is rendered again (a forged entry could otherwise name a picture outside the
folder, or print what no template wrote).  An entry that fails its seal, or that is not in the
format this version writes, is ignored (and replaced when the design is rendered again).  A file
that is not a database, or a database of another layout, is set aside and a
new one started.  Anything else that goes wrong with the database (a full
disk, a read-only folder) turns the cache off for the rest of the run and is
reported once through ``warnings``; a build never fails because of its cache.

Writes are buffered and written in one transaction per ``flush`` (and every
``FLUSH_EVERY`` entries, so memory stays flat in large decks).  Two builds at
once share the database safely: SQLite serialises the writers, an entry is
written whole or not at all, and two writers of one key write the same value.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sqlite3
import struct
import threading
from collections import OrderedDict
from pathlib import Path

from model.errors import Problem

from .draw import displaylist
from .stages.cache import Drawing, RenderedSvg, cache_folder

DB_NAME = "cache.sqlite"
SCHEMA = 2  # 2: entries sealed with the database file's own key
FLUSH_EVERY = 200
DIGEST = 16
SVG_FORMAT = 3
BLOB_DIR = "blobs"
BLOB_HEAD = struct.Struct("<Q16s")  # a blob file's length and the seal of what follows


def place_key(path: Path, purpose: str) -> bytes | None:
    """A key bound to the file or folder ``path`` itself: its place, device and inode (None when it is
    missing).  A copy of it made anywhere else has another key."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    text = f"{Path(path).resolve()}\0{st.st_dev}\0{st.st_ino}\0{purpose}"
    return hashlib.blake2b(text.encode(), digest_size=32).digest()


def seal(key: bytes, name: str, payload: bytes) -> bytes:
    """The seal of ``payload`` kept under ``name`` (an entry's kind and key, NUL between; a blob's key), made
    with ``key`` (``place_key``)."""
    mac = hashlib.blake2b(key=key, digest_size=DIGEST)
    mac.update(name.encode() + b"\0")
    mac.update(payload)
    return mac.digest()


def _open(key: bytes | None, name: str, sealed) -> bytes | None:
    """The payload of a sealed value, or None when it does not carry its seal under ``key``."""
    import hmac

    if key is None or not isinstance(sealed, bytes) or len(sealed) < DIGEST:
        return None
    payload = sealed[DIGEST:]
    return payload if hmac.compare_digest(seal(key, name, payload), sealed[:DIGEST]) else None


def _svg_dumps(rendered: RenderedSvg) -> bytes:
    warnings = tuple((p.file, p.row, p.column, p.message, p.severity) for p in rendered.warnings)
    return marshal.dumps((SVG_FORMAT, rendered.front, rendered.back, warnings, tuple(rendered.notes),
                          tuple(tuple(p) for p in rendered.pictures)))


def svg_loads(data: bytes) -> RenderedSvg | None:
    """A kept design's rendered SVG from its payload, or None when it is not one this version takes."""
    try:
        fmt, front, back, warnings, notes, pictures = marshal.loads(data)
        if fmt != SVG_FORMAT or type(front) is not str or not (back is None or type(back) is str):
            return None
        if not all(type(p) is tuple and len(p) == 2 and all(type(v) is str for v in p) and _inside(p[0])
                   for p in pictures):
            return None
        return RenderedSvg(front, back, tuple(Problem(*w) for w in warnings), tuple(str(n) for n in notes),
                           tuple(pictures))
    except (EOFError, ValueError, TypeError):
        return None


def _inside(rel: str) -> bool:
    """Whether a picture's name, as a kept design gives it, stays inside the data folder (relative, no ``..``)."""
    parts = rel.replace("\\", "/").split("/")
    return bool(rel) and not rel.startswith(("/", "\\")) and ":" not in rel and ".." not in parts


class DiskCache:
    """A ``RenderCache`` in one SQLite file under ``folder`` (created on first write).

    The rendered SVGs read are kept in this process.  ``memory`` keeps what was
    read or written in this process as well (for ``pnp watch``, which builds
    again and again); ``memory_limit`` bounds the display lists kept that way."""

    def __init__(self, folder: Path, memory: bool = False, memory_limit: int = 5000, read_only: bool = False):
        self.folder = Path(folder)
        self.memory = memory
        self.memory_limit = memory_limit
        self.read_only = read_only  # read what an earlier build kept, write nothing (pnp check)
        self._init_runtime()

    def _init_runtime(self) -> None:
        self._conn: sqlite3.Connection | None = None
        self._pid = os.getpid()
        self._pending: dict[tuple[str, str], bytes] = {}
        self._svgs: dict[str, RenderedSvg] = {}
        self._lists: OrderedDict[str, object] = OrderedDict()
        self._forms: OrderedDict[str, object] = OrderedDict()
        self._lock = threading.RLock()
        self.disabled = False
        self.warnings: list[Problem] = []
        self.hits = 0
        self.misses = 0
        self._code_key_found = None
        self._entry_key_found = None
        self._blob_key_found = None

    # each worker process opens its own connection
    def __getstate__(self):
        return {"folder": self.folder, "memory": self.memory, "memory_limit": self.memory_limit,
                "read_only": self.read_only}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._init_runtime()

    @property
    def path(self) -> Path:
        return self.folder / DB_NAME

    @property
    def identity(self) -> tuple:
        """What makes two stores the same store (copies of one in worker processes are)."""
        return ("disk", str(self.folder.resolve()))

    # ------------------------------------------------------------ the database
    def _connect(self) -> sqlite3.Connection | None:
        if self.disabled:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        self._conn = None
        if getattr(self, "read_only", False):
            return self._connect_read_only()
        self._pid = os.getpid()
        for attempt in (1, 2):
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
                try:
                    conn.execute("PRAGMA journal_mode=WAL")
                except sqlite3.OperationalError:
                    pass  # a file system without shared memory: the default journal works too
                conn.execute("PRAGMA synchronous=NORMAL")
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if tables and (tables != {"entries"} or version != SCHEMA):
                    conn.close()
                    raise sqlite3.DatabaseError("a database of another layout")
                conn.execute("CREATE TABLE IF NOT EXISTS entries (kind TEXT NOT NULL, key TEXT NOT NULL, "
                             "value BLOB NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID")
                conn.execute(f"PRAGMA user_version={SCHEMA}")
                self._conn = conn
                return conn
            except sqlite3.DatabaseError as exc:
                if attempt == 1 and self._set_aside():
                    continue
                self._disable(f"cannot use the build cache ({exc}); building without it")
            except OSError as exc:
                self._disable(f"cannot use the build cache ({exc}); building without it")
                return None
        return None

    def _connect_read_only(self) -> sqlite3.Connection | None:
        if not self.path.is_file():
            return None
        try:
            # immutable: no lock and no -wal/-shm files made beside it (entries are sealed; one being
            # written meanwhile is missed, never read half-written)
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, timeout=30,
                                   isolation_level=None, check_same_thread=False)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables != {"entries"} or version != SCHEMA:
                conn.close()
                return None
        except sqlite3.Error:
            return None
        self._conn = conn
        return conn

    def _set_aside(self) -> bool:
        """Remove a database file that is damaged or not ours."""
        self._entry_key_found = self._code_key_found = None  # (bound to the file removed)
        try:
            for suffix in ("", "-wal", "-shm", "-journal"):
                p = self.path.with_name(DB_NAME + suffix)
                if p.exists():
                    p.unlink()
            return True
        except OSError:
            return False

    def _disable(self, message: str) -> None:
        if not self.disabled:
            self.disabled = True
            self.warnings.append(Problem(str(self.path), None, None, message, "warning"))
        self._pending.clear()
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = None

    def _read(self, kind: str, key: str) -> bytes | None:
        pending = self._pending.get((kind, key))
        if pending is not None:
            return pending
        if not self.path.exists():
            return None
        with self._lock:
            conn = self._connect()
            if conn is None:
                return None
            try:
                row = conn.execute("SELECT value FROM entries WHERE kind=? AND key=?", (kind, key)).fetchone()
            except sqlite3.DatabaseError as exc:
                self._disable(f"the build cache could not be read ({exc}); building without it")
                return None
        return None if row is None else _open(self._entry_key(), f"{kind}\0{key}", row[0])

    def _entry_key(self) -> bytes | None:
        """The key that seals the database's entries (``place_key`` of the database file)."""
        found = self._entry_key_found
        if found is None:
            found = self._entry_key_found = place_key(self.path, "entries")
        return found

    def _write(self, kind: str, key: str, payload: bytes) -> None:
        if self.disabled or self.read_only:
            return
        with self._lock:
            self._pending[(kind, key)] = payload
            if len(self._pending) >= FLUSH_EVERY:
                self.flush()

    def flush(self) -> None:
        """Write the buffered entries in one transaction."""
        with self._lock:
            if not self._pending or self.disabled:
                return
            pending = list(self._pending.items())
            self._pending.clear()
            conn = self._connect()
            sealing = self._entry_key() if conn is not None else None  # (the file exists once connected)
            if sealing is None:
                return
            rows = [(kind, key, seal(sealing, f"{kind}\0{key}", value) + value) for (kind, key), value in pending]
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT OR REPLACE INTO entries (kind, key, value) VALUES (?, ?, ?)", rows)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                self._disable(f"the build cache could not be written ({exc}); building without it")

    def close(self) -> None:
        self.flush()
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.close()
                except sqlite3.Error:
                    pass
                self._conn = None

    # ------------------------------------------------------------ small values of other kinds
    def get_value(self, kind: str, key: str) -> bytes | None:
        """A value kept with ``put_value`` (e.g. the findings of a check that is slow to repeat)."""
        return self._read(f"value:{kind}", key)

    def put_value(self, kind: str, key: str, payload: bytes) -> None:
        self._write(f"value:{kind}", key, payload)

    # ------------------------------------------------------------ DrawingStore
    def get(self, key: str) -> Drawing | None:
        """Parsed drawings are not kept: their display lists are (see ``get_list``)."""
        return None

    def put(self, key: str, drawing: Drawing) -> None:
        pass

    # ------------------------------------------------------------ RenderCache
    def get_svg(self, key: str) -> RenderedSvg | None:
        found = self._svgs.get(key)
        if found is None:
            data = self._read("svg", key)
            found = None if data is None else svg_loads(data)
            if found is not None:  # kept for this process's builds (small; a build asks twice)
                self._svgs[key] = found
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put_svg(self, key: str, rendered: RenderedSvg) -> None:
        if self.memory:
            self._svgs[key] = rendered
        self._write("svg", key, _svg_dumps(rendered))

    def get_list(self, key: str):
        return self._get_kept("list", self._lists, key, displaylist.loads)

    def put_list(self, key: str, display_list) -> None:
        self._put_kept("list", self._lists, key, display_list, displaylist.dumps(display_list))

    def has_list(self, key: str) -> bool:
        """Whether a display list is kept under ``key`` (without reading it)."""
        if key in self._lists or ("list", key) in self._pending:
            return True
        if not self.path.exists():
            return False
        with self._lock:
            conn = self._connect()
            if conn is None:
                return False
            try:
                return conn.execute("SELECT 1 FROM entries WHERE kind='list' AND key=?", (key,)).fetchone() is not None
            except sqlite3.DatabaseError as exc:
                self._disable(f"the build cache could not be read ({exc}); building without it")
                return False

    def _get_kept(self, kind: str, kept: OrderedDict, key: str, loads):
        """An entry of ``kind`` (display lists, form streams): from this process's most recently used
        ones (``kept``), else read and decoded by ``loads`` (and kept), or None."""
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
        data = self._read(kind, key)
        found = None if data is None else loads(data)
        if found is not None and self.memory:
            self._keep(kept, key, found)
        return found

    def _put_kept(self, kind: str, kept: OrderedDict, key: str, value, data: bytes) -> None:
        if self.memory:
            self._keep(kept, key, value)
        self._write(kind, key, data)

    def _keep(self, kept: OrderedDict, key: str, value) -> None:
        kept[key] = value
        kept.move_to_end(key)
        while len(kept) > self.memory_limit:
            kept.popitem(last=False)

    # ------------------------------------------------------------ form streams
    def get_form(self, key: str):
        """The PDF form stream kept for a design key (``pdf.FormStream``), or None."""
        from .sheets.pdf import FormStream

        return self._get_kept("form", self._forms, key, FormStream.loads)

    def put_form(self, key: str, form) -> None:
        self._put_kept("form", self._forms, key, form, form.dumps())

    # ------------------------------------------------------------ blobs
    # Large values (pictures encoded for PDFs, megabytes each) are files of their own in
    # ``blobs/``, not rows: written once, straight to the file system, without going through
    # the database's log and its copy into the database; each file starts with its length
    # and a CRC-32 of the rest, and one that fails them is not read.
    def _blob_path(self, key: str) -> Path:
        return self.folder / BLOB_DIR / hashlib.blake2b(key.encode(), digest_size=16).hexdigest()

    def has_blob(self, key: str) -> bool:
        """Whether bytes are kept under a key (without reading them)."""
        return not self.disabled and self._blob_path(key).is_file()

    def get_blob(self, key: str) -> bytes | None:
        """Bytes kept under a key (pictures encoded for PDFs), or None."""
        import hmac

        if self.disabled:
            return None
        try:
            data = self._blob_path(key).read_bytes()
        except OSError:
            return None
        if len(data) < BLOB_HEAD.size:
            return None
        length, kept = BLOB_HEAD.unpack_from(data)
        payload = memoryview(data)[BLOB_HEAD.size:]
        folder = self._blob_key()
        if len(payload) != length or folder is None or not hmac.compare_digest(kept, seal(folder, key, payload)):
            return None
        return payload.tobytes()

    def _blob_key(self) -> bytes | None:
        """The key that seals the blobs (``place_key`` of their folder)."""
        found = self._blob_key_found
        if found is None:
            found = self._blob_key_found = place_key(self.folder / BLOB_DIR, "blobs")
        return found

    def put_blob(self, key: str, data: bytes) -> None:
        """Keep ``data`` under a key: a file written whole (under another name, then renamed)."""
        if self.disabled or self.read_only:
            return
        path = self._blob_path(key)
        part = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            folder = self._blob_key()
            if folder is None:
                return
            with open(part, "wb") as fh:
                fh.write(BLOB_HEAD.pack(len(data), seal(folder, key, data)))
                fh.write(data)
            os.replace(part, path)
        except OSError as exc:
            try:
                part.unlink()
            except OSError:
                pass
            self._disable(f"the build cache could not be written ({exc}); building without it")

    # ------------------------------------------------------------ compiled templates
    def bytecode_cache(self):
        """A Jinja2 bytecode cache kept in this database.  Compiled templates are code: an entry
        is read only under a seal made with this database file's own key (``_code_key``), so a
        cache that came with a game folder, written somewhere else, is never run (its entries are
        compiled again)."""
        import hmac

        import jinja2

        store = self

        class _Bytecode(jinja2.BytecodeCache):
            def load_bytecode(self, bucket):
                data = store._read("jinja", bucket.key)
                key = store._code_key() if data is not None else None
                if key is None or len(data) < 32:
                    return
                seal, code = data[:32], data[32:]
                if not hmac.compare_digest(seal, _code_seal(key, bucket.key, code)):
                    return
                try:
                    bucket.bytecode_from_string(code)
                except Exception:  # noqa: BLE001 - a damaged entry is compiled again
                    bucket.reset()

            def dump_bytecode(self, bucket):
                key = store._code_key()
                if key is not None:
                    code = bucket.bytecode_to_string()
                    store._write("jinja", bucket.key, _code_seal(key, bucket.key, code) + code)

        return _Bytecode()

    def _code_key(self) -> bytes | None:
        """The key that seals compiled templates: this database file's place and identity (its
        device and inode, which a copy of it made anywhere else does not have) and the sandbox's
        revision; None while there is no database (compiled templates are kept from the next build on)."""
        found = self._code_key_found
        if found is None:  # (the database is made when the first entries are written)
            from .stages.sandbox import REVISION

            found = self._code_key_found = place_key(self.path, f"sandbox {REVISION}")
        return found


def _code_seal(key: bytes, name: str, code: bytes) -> bytes:
    """The seal of the compiled template ``code`` kept under ``name``, made with ``key`` (32 bytes)."""
    import hmac

    return hmac.new(key, name.encode() + code, "sha256").digest()


def clear(out: Path) -> Path | None:
    """Remove the cache of builds into ``out``; the folder removed, or None when there was none."""
    import shutil

    folder = cache_folder(out)
    if not folder.exists():
        return None
    shutil.rmtree(folder)
    return folder
