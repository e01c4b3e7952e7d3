"""HTTP agent servers for the tests (127.0.0.1, port 0): the reference server of
``examples/remote_agent_server.py`` and a misbehaving one whose path picks the misbehaviour."""

from __future__ import annotations

import importlib.util
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.fakes.server import QuietServer

ROOT = Path(__file__).resolve().parents[2]
HUGE_BYTES = 10 * 1024 * 1024


def load_example(relative: str) -> ModuleType:
    """A file of ``examples/`` loaded as a module (the folder is not a package)."""
    path = ROOT / "examples" / relative
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def serving(server: ThreadingHTTPServer) -> Iterator[str]:
    """Serve in a thread; yields the root URL; shuts the server down after."""
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def reference_server() -> Iterator[str]:
    with serving(load_example("remote_agent_server.py").make_server(0)) as url:
        yield url


def every_of(mode: str) -> int:
    """Every how many decisions ``mode`` misbehaves (the slow modes less often)."""
    return 8 if mode in ("hang", "trickle") else 3


class Misbehaving(BaseHTTPRequestHandler):
    """``POST /<mode>``: every :func:`every_of`-th decision (1st, 4th, ...) misbehaves as
    ``mode``; the others answer the first option.  Modes: garbage, huge, huge_chunked, hang,
    trickle, status500, wrong_fields, unknown, drop (closes the connection unanswered, once per
    decision)."""

    seen: list[dict[str, Any]]  # (set per server) the headers and types received
    hang_s = 5.0

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, body: bytes, length: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        msg = json.loads(self.rfile.read(size))
        server: Any = self.server
        server.seen.append({"type": msg.get("type"), "auth": self.headers.get("Authorization")})
        if msg.get("type") != "decision":
            return self._send(200, b"{}")
        mode = self.path.strip("/")
        first = json.dumps({"option": msg["options"][0]["id"]}).encode()
        if msg["decision_index"] % every_of(mode) != 1:
            return self._send(200, first)
        if mode == "drop":
            key = (msg["game_id"], msg["seat"], msg["decision_index"])
            if key not in server.dropped:
                server.dropped.add(key)
                self.close_connection = True
                self.connection.close()  # no response at all: a transport error
                return
            return self._send(200, first)
        if mode == "garbage":
            return self._send(200, b"<html>not json</html>")
        if mode == "huge":
            return self._send(200, b"x" * HUGE_BYTES)
        if mode == "huge_chunked":  # no Content-Length: the client must stop reading itself
            self.send_response(200)
            self.end_headers()
            try:
                for _ in range(HUGE_BYTES // 65536):
                    self.wfile.write(b"y" * 65536)
            except OSError:
                pass
            return None
        if mode == "hang":
            time.sleep(self.hang_s)
            return self._send(200, first)
        if mode == "trickle":  # a valid answer, one byte at a time, slower than any deadline
            self.send_response(200)
            self.send_header("Content-Length", str(len(first)))
            self.end_headers()
            try:
                for i in range(len(first)):
                    self.wfile.write(first[i : i + 1])
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            return None
        if mode == "status500":
            return self._send(500, b'{"error": "boom"}')
        if mode == "wrong_fields":
            return self._send(200, json.dumps({"choice": msg["options"][0]["id"]}).encode())
        if mode == "unknown":
            return self._send(200, b'{"option": "no-such-option"}')
        return self._send(404, b"{}")


@contextmanager
def misbehaving_server() -> Iterator[tuple[str, ThreadingHTTPServer]]:
    server = QuietServer(("127.0.0.1", 0), Misbehaving)
    server.seen = []  # type: ignore[attr-defined]
    server.dropped = set()  # type: ignore[attr-defined]
    with serving(server) as url:
        yield url, server
