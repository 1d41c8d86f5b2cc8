"""The preview server answers only requests that name this machine (a page elsewhere that
points a name of its own at 127.0.0.1 reads nothing), and Ctrl-C or SIGTERM ends
``pnp preview`` cleanly whatever pages are open: exit 0, its last line, nothing on stderr,
no process left behind."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from preview.server import PreviewServer, local_host
from preview.session import Session

from helpers import REPO, new_game

SLUG = "lantern"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    new_game(root, SLUG)
    return root


@pytest.fixture(scope="module")
def served(data):
    session = Session(data, [SLUG], data / "output")
    session.build()
    server = PreviewServer(session, port=0, watch_files=False)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and request(port, "/api/state", f"127.0.0.1:{port}")[0] != 200:
        time.sleep(0.1)
    yield port
    server.stop()
    thread.join(timeout=10)
    session.close()


def request(port: int, path: str, host: str | None) -> tuple[int, bytes]:
    """A raw HTTP/1.1 GET with exactly this Host header (None: none): (status, body)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            head = f"GET {path} HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host is not None else "")
            s.sendall((head + "Connection: close\r\n\r\n").encode())
            reply = b""
            while chunk := s.recv(65536):
                reply += chunk
    except OSError:
        return 0, b""
    status = int(reply.split(b" ", 2)[1])
    return status, reply.partition(b"\r\n\r\n")[2]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}",
                                  "localhost.evil.example", "127.0.0.1:1", "[::2]:{port}", "[::1]x"])
@pytest.mark.parametrize("path", ["/", "/api/state", "/api/svg?keys=x", "/events", "/fonts.css"])
def test_a_request_that_does_not_name_this_machine_gets_nothing(served, host, path):
    status, body = request(served, path, host.format(port=served))
    assert status == 421
    assert body == b"misdirected request: this page answers only to 127.0.0.1 and localhost\n"


def test_a_request_without_a_host_gets_nothing(served):
    status, body = request(served, "/api/state", None)
    assert status == 400 and SLUG.encode() not in body


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}",
                                  "127.0.0.1", "localhost"])
def test_a_request_that_names_this_machine_gets_the_state(served, host):
    status, body = request(served, "/api/state", host.format(port=served))
    assert status == 200
    assert f'"slug":"{SLUG}"'.encode() in body


def test_which_hosts_name_this_machine():
    assert local_host("127.0.0.1:8765", 8765) and local_host("[::1]", 8765) and local_host("localhost", None)
    assert not local_host("[::1]:80", 8765) and not local_host("localhost:", 8765) and not local_host("", 8765)


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_pnp_preview_stops_cleanly_with_hundreds_of_pages_open(data, tmp_path, how):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "preview", "--data", str(data), "--out",
                             str(tmp_path / "out"), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path)
    streams = []
    try:
        lines = []
        while not (found := re.search(r"preview at http://127\.0\.0\.1:(\d+)/", lines[-1] if lines else "")):
            line = proc.stdout.readline()
            assert line, (lines, proc.stderr.read())
            lines.append(line)
        port = int(found[1])
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            streams.append(s)
        for s in streams:  # every stream is open and has had its first event
            seen = b""
            while b"event: build" not in seen:
                chunk = s.recv(4096)
                assert chunk, seen
                seen += chunk
        assert request(port, "/api/state", f"localhost:{port}")[0] == 200
        helpers = children(proc.pid)
        start = time.monotonic()
        proc.send_signal(how)
        out, err = proc.communicate(timeout=30)
        seconds = time.monotonic() - start
    finally:
        for s in streams:
            s.close()
        if proc.poll() is None:
            proc.kill()
    assert err == ""
    assert proc.returncode == 0
    assert out.splitlines()[-1] == "stopped watching."
    assert seconds < 5
    deadline = time.monotonic() + 5
    while any(alive(p) for p in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in helpers if alive(p)]


@pytest.mark.slow
def test_pnp_watch_stops_cleanly_on_sigterm(data, tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "watch", "--data", str(data), "--out",
                             str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp_path)
    try:
        while not (line := proc.stdout.readline()).startswith("watching "):
            assert line, proc.stderr.read()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, err, out.splitlines()) == (0, "", ["stopped watching."])
