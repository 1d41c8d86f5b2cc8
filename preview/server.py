"""The local preview page: Starlette on uvicorn, bound to 127.0.0.1 only.

``/`` is the page (``static/index.html``); ``/api/state`` the last build as
JSON (cards, row values, warnings, data errors); ``/api/svg`` the SVG of
designs by key (immutable: the key is a digest of the text); ``/fonts.css``
and ``/fonts/...`` the font files of every family the cards may use (the
DejaVu families and the games' own), so that the browser draws the cards'
text with the fonts the PDFs embed; ``/pictures/DIGEST`` the picture files
the last build placed, by their digest (no other file is ever served);
``/events`` a server-sent event after every build, which makes the page
fetch the state again.  Builds run in a thread beside the
server (``watch.watch``); the first build runs before the server starts.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from importlib import resources
from pathlib import Path

from generator.art.fonts import FACE_FAMILY, FAMILIES, face_file

from .session import Session, Snapshot

HOST = "127.0.0.1"
KEEPALIVE_S = 15.0
PICTURE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}


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


def make_app(session: Session, hub: Hub):
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    page = resources.files(__package__).joinpath("static/index.html").read_text(encoding="utf-8")
    no_store = {"Cache-Control": "no-store"}

    async def index(request: Request):
        return HTMLResponse(page, headers=no_store)

    async def state(request: Request):
        return JSONResponse(session.snapshot.to_json(), headers=no_store)

    async def svgs(request: Request):
        keys = request.query_params.get("keys", "").split(",")
        known = session.snapshot.svgs
        return JSONResponse({k: known[k] for k in keys if k in known}, headers=no_store)

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

    return Starlette(routes=[
        Route("/", index),
        Route("/api/state", state),
        Route("/api/svg", svgs),
        Route("/fonts.css", fonts),
        Route("/fonts/{name}", font),
        Route("/pictures/{digest}", picture),
        Route("/events", events),
    ])


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

        config = uvicorn.Config(make_app(self.session, self.hub), log_level="warning", access_log=False,
                                timeout_graceful_shutdown=1, lifespan="on")
        self.server = uvicorn.Server(config)
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
