"""The local preview page: Starlette on uvicorn, bound to 127.0.0.1 only.

``/`` is the page (``static/index.html``, with its script ``/preview.js`` and
style sheet ``/preview.css``); ``/api/state`` the last build as
JSON (cards, row values, warnings, data errors); ``/api/svg`` the SVG of
designs by key (immutable: the key is a digest of the text), each cut down to
its drawing (``svgsafe.clean_svg``: no style sheet, script, link or
reference outside it); ``/fonts.css``
and ``/fonts/...`` the font files of every family the cards may use (the
DejaVu families and the games' own), so that the browser draws the cards'
text with the fonts the PDFs embed; ``/pictures/DIGEST`` the picture files
the last build placed, by their digest (no other file is ever served);
``/events`` a server-sent event after every build, which makes the page
fetch the state again.  Builds run in a thread beside the
server (``watch.watch``); the first build runs before the server starts.

Only a request that names this machine in its ``Host`` header is answered
(``127.0.0.1``, ``localhost`` or ``[::1]``, with this server's port): a web page
elsewhere that points a name of its own at 127.0.0.1 (DNS rebinding) gets 421
and nothing else.  Ctrl-C or SIGTERM ends the event streams first, then the
server, and the session's helper process with it: no traceback, no warning.

Every response carries :data:`SECURITY_HEADERS`: a Content-Security-Policy that lets the page run
only its own script, load only its own style sheets, fonts, pictures and data, and be framed by
nobody, so that a drawing that got past both sanitizers still loads and runs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import threading
from importlib import resources
from pathlib import Path

from generator.art.fonts import FACE_FAMILY, FAMILIES, face_file

from .session import Session, Snapshot
from .svgsafe import clean_svg

HOST = "127.0.0.1"
KEEPALIVE_S = 15.0
PICTURE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}
#: The names of this machine a request may give in its Host header.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: The page's policy: its own script and style sheets only (no inline script, no <style> element; the
#: ``style`` attributes a template may write on its shapes stay), pictures, fonts and data from this server
#: only, no plug-ins, forms, <base> or framing.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; style-src-elem 'self'; "
                           "style-src-attr 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; "
                           "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
                           "frame-ancestors 'none'")
#: Sent with every response (a response that sets one of them itself keeps its own).
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def local_host(value: str, port: int | None) -> bool:
    """Whether a ``Host`` header names this machine: one of ``LOCAL_HOSTS``, with no port or ``port``
    (None: any port)."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value.partition("]")
        host += "]"
        given = rest[1:] if rest.startswith(":") else None
        if rest and given is None:
            return False
    else:
        host, sep, given = value.partition(":")
        given = given if sep else None
    if host not in LOCAL_HOSTS:
        return False
    return given is None or port is None or given == str(port)


class LocalOnly:
    """ASGI middleware: a request whose Host header does not name this machine gets 421 Misdirected
    Request and no data (a page on another site cannot read the cards through a name of its own)."""

    def __init__(self, app, port: int | None):
        self.app = app
        self.port = port

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            hosts = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"]
            if len(hosts) != 1 or not local_host(hosts[0], self.port):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b"misdirected request: this page answers only to 127.0.0.1 and localhost\n"
                await send({"type": "http.response.start", "status": 421,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (421s, 404s and errors included)."""

    def __init__(self, app):
        self.app = app
        self.headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def font_css() -> str:
    """@font-face rules for every face of every family known in this process."""
    rules = []
    for family, faces in FAMILIES.items():
        for style, name in enumerate(faces):  # a style the family lacks names the face it uses instead
            rules.append(f'@font-face {{ font-family: "{family}"; src: url(/fonts/{name}); '
                         f'font-weight: {"bold" if style & 1 else "normal"}; '
                         f'font-style: {"italic" if style & 2 else "normal"}; }}')
    return "\n".join(rules) + "\n"


def _font_name(name: str) -> str | None:
    """A served font's face name (``DejaVuSans.ttf`` is the old name of ``DejaVuSans``), or None."""
    if name.endswith(".ttf") and name[:-4] in FACE_FAMILY:
        return name[:-4]
    return name if name in FACE_FAMILY else None


class Hub:
    """Tells every open page about each new build (from the build thread to the event loop)."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue] = set()
        self.closed = False

    def publish(self, snap: Snapshot) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        for q in list(self.queues):
            loop.call_soon_threadsafe(q.put_nowait, snap.version)

    def close(self) -> None:
        self.closed = True
        loop = self.loop
        if loop is not None and not loop.is_closed():
            for q in list(self.queues):
                loop.call_soon_threadsafe(q.put_nowait, None)


def make_app(session: Session, hub: Hub, port: int | None = None):
    """The page's application; it answers only requests whose Host names this machine (and ``port``)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    static = resources.files(__package__).joinpath("static")
    page = static.joinpath("index.html").read_text(encoding="utf-8")
    script = static.joinpath("preview.js").read_text(encoding="utf-8")
    sheet = static.joinpath("preview.css").read_text(encoding="utf-8")
    no_store = {"Cache-Control": "no-store"}

    async def index(request: Request):
        return HTMLResponse(page, headers=no_store)

    async def page_script(request: Request):
        return Response(script, media_type="text/javascript", headers=no_store)

    async def page_sheet(request: Request):
        return Response(sheet, media_type="text/css", headers=no_store)

    async def state(request: Request):
        return JSONResponse(session.snapshot.to_json(), headers=no_store)

    cleaned = {"svgs": None, "by_key": {}}  # the designs of the last snapshot asked for, cut down (svgsafe)

    async def svgs(request: Request):
        keys = request.query_params.get("keys", "").split(",")
        known = session.snapshot.svgs
        if cleaned["svgs"] is not known:  # a new build: keep what it still has (a key is a digest of the text)
            cleaned["by_key"] = {k: v for k, v in cleaned["by_key"].items() if k in known}
            cleaned["svgs"] = known
        by_key = cleaned["by_key"]
        for k in keys:
            if k in known and k not in by_key:
                by_key[k] = clean_svg(known[k])  # its drawing only, whatever its template wrote
        return JSONResponse({k: by_key[k] for k in keys if k in by_key}, headers=no_store)

    async def font(request: Request):
        name = _font_name(request.path_params["name"])
        if name is None:
            return Response("not found", status_code=404)
        path = face_file(name)
        kind = "font/otf" if path.suffix.lower() == ".otf" else "font/ttf"
        return Response(path.read_bytes(), media_type=kind, headers={"Cache-Control": "max-age=86400"})

    async def fonts(request: Request):
        return Response(font_css(), media_type="text/css", headers=no_store)

    async def picture(request: Request):
        found = session.snapshot.pictures.get(request.path_params["digest"])
        if found is None:
            return Response("not found", status_code=404)
        path, kind = found
        try:
            data = path.read_bytes()
        except OSError:
            return Response("not found", status_code=404)
        headers = {"Cache-Control": "max-age=31536000, immutable", "X-Content-Type-Options": "nosniff"}
        if kind == "svg":  # shown as an image only; nothing in it may run or load
            headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
        return Response(data, media_type=PICTURE_TYPES[kind], headers=headers)

    async def events(request: Request):
        queue: asyncio.Queue = asyncio.Queue()
        hub.loop = asyncio.get_running_loop()
        hub.queues.add(queue)

        async def stream():
            try:
                yield f"event: build\ndata: {json.dumps({'version': session.snapshot.version})}\n\n"
                while not hub.closed:
                    try:
                        version = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if version is None:
                        break
                    yield f"event: build\ndata: {json.dumps({'version': version})}\n\n"
            finally:
                hub.queues.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return SecurityHeaders(LocalOnly(Starlette(routes=[
        Route("/", index),
        Route("/preview.js", page_script),
        Route("/preview.css", page_sheet),
        Route("/api/state", state),
        Route("/api/svg", svgs),
        Route("/fonts.css", fonts),
        Route("/fonts/{name}", font),
        Route("/pictures/{digest}", picture),
        Route("/events", events),
    ]), port))


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: a free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}/"


def _server_class():
    """uvicorn's server, ending the page's event streams as soon as a stop is asked for (so that it stops
    at once, without cancelling them), and leaving Ctrl-C and SIGTERM handled once it has stopped (rather
    than raising them again, which would end the process before its helper process and without a word)."""
    import uvicorn

    class Server(uvicorn.Server):
        def __init__(self, config, on_exit):
            super().__init__(config)
            self.on_exit = on_exit

        @contextlib.contextmanager
        def capture_signals(self):
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            original = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in original.items():
                    signal.signal(sig, handler)

        def handle_exit(self, sig, frame) -> None:
            self.on_exit()
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            self.should_exit = True

    return Server


class PreviewServer:
    """The page and the watch loop of one session, until ``stop()`` or Ctrl-C."""

    def __init__(self, session: Session, port: int = 0, on_build=None, watch_files: bool = True):
        self.session = session
        self.hub = Hub()
        self.sock = bind(port)
        self.url = url_of(self.sock)
        self.on_build = on_build or (lambda snap: None)
        self.watch_files = watch_files
        self.stop_event = threading.Event()
        self.server = None
        session.listeners.append(self.hub.publish)

    def serve(self) -> None:
        """Serve in this thread (uvicorn handles Ctrl-C); builds run in a thread beside it."""
        import uvicorn

        from .watch import watch

        port = self.sock.getsockname()[1]
        config = uvicorn.Config(make_app(self.session, self.hub, port), log_level="warning", access_log=False,
                                timeout_graceful_shutdown=1, lifespan="on")
        self.server = _server_class()(config, self.hub.close)
        watcher = None
        if self.watch_files:
            watcher = threading.Thread(target=watch, args=(self.session, self.on_build, self.stop_event),
                                       name="pnp-watch", daemon=True)
            watcher.start()
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.stop_event.set()
            self.hub.close()
            if watcher is not None:
                watcher.join(timeout=3)
            self.sock.close()

    def stop(self) -> None:
        self.stop_event.set()
        self.hub.close()
        if self.server is not None:
            self.server.should_exit = True


def serve_session(session: Session, port: int, announce=print, on_build=None) -> None:
    server = PreviewServer(session, port, on_build)
    announce(server.url)
    server.serve()


__all__ = ["Hub", "PreviewServer", "bind", "make_app", "serve_session", "url_of", "Path"]
