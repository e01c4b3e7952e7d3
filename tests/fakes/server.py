"""HTTP plumbing shared by the fake model servers: a real HTTP/1.1 server on 127.0.0.1.

Subclasses implement :meth:`FakeServer.handle_model_call` (the vendor wire format). The server
runs ``ThreadingHTTPServer`` in a background daemon thread on an ephemeral port.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .script import (
    Answer,
    BadBody,
    EchoKey,
    Huge,
    Malformed,
    RecordedRequest,
    Reset,
    Script,
    Stall,
    Status,
    Trickle,
)

__all__ = ["FakeServer", "Response"]

Response = tuple[int, dict[str, str], dict[str, Any]]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence stderr
        return

    def _send(self, status: int, headers: dict[str, str], payload: dict[str, Any]) -> None:
        self._send_bytes(status, headers, json.dumps(payload).encode())

    def _send_bytes(
        self,
        status: int,
        headers: dict[str, str],
        data: bytes,
        content_type: str = "application/json",
        byte_delay: float = 0.0,
    ) -> None:
        """Send ``data``; with ``byte_delay`` the body goes out one byte at a time."""
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            if byte_delay <= 0:
                self.wfile.write(data)
            else:
                for i in range(len(data)):
                    if self.server.fake.stopping.wait(byte_delay):
                        self._reset()
                        return
                    self.wfile.write(data[i : i + 1])
                    self.wfile.flush()
            self.wfile.flush()
        except OSError:  # client gave up (e.g. after a stall)
            self.close_connection = True

    def _reset(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()

    def do_GET(self) -> None:
        fake = self.server.fake
        fake.script.record(RecordedRequest("GET", self.path, dict(self.headers.items()), {}))
        self._send(*fake.handle_get(self.path))

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, {}, {"error": {"message": "body is not JSON"}})
            return
        side = fake.handle_side_post(self.path, body)
        if side is not None:  # e.g. a tokenize endpoint: not a model request, not recorded
            self._send(*side)
            return
        fake.script.record(RecordedRequest("POST", self.path, dict(self.headers.items()), body))
        behaviour = fake.script.next_behaviour(body)
        delay = fake.script.next_delay()  # a slow server
        if delay and fake.stopping.wait(delay):
            self._reset()
            return
        if isinstance(behaviour, Reset):
            self._reset()
            return
        if isinstance(behaviour, Stall) and fake.stopping.wait(behaviour.seconds):
            self._reset()  # the server is stopping
            return
        if isinstance(behaviour, EchoKey):
            behaviour = Status(behaviour.code, message=_echo_message(behaviour.code, self.headers))
        elif isinstance(behaviour, Huge):
            pad = behaviour.padding()
            behaviour = Answer(reason=pad) if behaviour.valid else Malformed(pad)
        if isinstance(behaviour, BadBody):
            status, headers, payload = fake.handle_model_call(self.path, body, Answer())
            self._send_bytes(status, headers, *fake.bad_body(behaviour, payload))
            return
        if isinstance(behaviour, Trickle):
            status, headers, payload = fake.handle_model_call(self.path, body, Answer())
            data = json.dumps(payload).encode()
            self._send_bytes(status, headers, data, byte_delay=behaviour.byte_delay)
            return
        self._send(*fake.handle_model_call(self.path, body, behaviour))


def _request_key(headers: Any) -> str:
    """The API key a request carried (``x-api-key`` or the ``Authorization`` bearer token)."""
    key = headers.get("x-api-key") or ""
    auth = headers.get("Authorization") or ""
    if not key and auth.lower().startswith("bearer "):
        key = auth[len("bearer ") :].strip()
    return key


def _echo_message(code: int, headers: Any) -> str:
    key = _request_key(headers)
    if code in (401, 403):
        return f"Incorrect API key provided: {key}. You can find your API key in your account."
    return f"internal error while serving request (api_key={key}, Authorization: Bearer {key})"


class QuietServer(ThreadingHTTPServer):
    """A threading HTTP server that stays quiet when a client hangs up mid-request (a cancelled
    call or a deadline is normal in these tests; a traceback on stderr would land in another
    test's captured output)."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet."""


class _Server(QuietServer):
    allow_reuse_address = True

    def __init__(self, fake: FakeServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake


class FakeServer:
    """Base fake: start/stop, ``base_url``, the :class:`Script`; use as a context manager."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script if script is not None else Script()
        self.stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._counter = 0
        self._counter_lock = threading.Lock()

    def handle_side_post(self, path: str, body: dict[str, Any]) -> Response | None:
        """A POST that is no model call (answered at once, not recorded); ``None``: a model call.
        Tokenize routes are not served unless a subclass does (a client probing them gets 404)."""
        if path in ("/tokenize", "/extras/tokenize"):
            return 404, {}, {"detail": "Not Found"}
        return None

    # --- lifecycle ---
    def start(self) -> FakeServer:
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The URL to give the SDK as its base URL (subclasses adjust the path)."""
        return self.root_url

    def next_id(self) -> int:
        with self._counter_lock:
            self._counter += 1
            return self._counter

    # --- wire format (subclasses) ---
    def handle_get(self, path: str) -> Response:
        return 404, {}, {"error": {"message": f"no route GET {path}"}}

    def handle_model_call(self, path: str, body: dict[str, Any], behaviour: Any) -> Response:
        raise NotImplementedError

    # The top-level field of a vendor answer that holds the model's output.
    answer_field = "choices"

    def bad_body(self, behaviour: BadBody, payload: dict[str, Any]) -> tuple[bytes, str]:
        """(body, content type) of a :class:`BadBody` built from the valid answer ``payload``."""
        kind = behaviour.kind
        good = json.dumps(payload).encode()
        if kind == "truncated_json":
            return good[: len(good) // 2], "application/json"
        if kind == "html":
            page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
            return page.encode(), "text/html; charset=utf-8"
        if kind == "sse":
            return b"data: " + good + b"\n\ndata: [DONE]\n\n", "text/event-stream"
        if kind == "wrong_content_type":
            return good, "text/plain"
        if kind == "missing_fields":
            trimmed = {k: v for k, v in payload.items() if k != self.answer_field}
            return json.dumps(trimmed).encode(), "application/json"
        if kind == "mistyped_fields":
            return json.dumps({**payload, self.answer_field: "end"}).encode(), "application/json"
        if kind == "empty":
            return b"", "application/json"
        raise ValueError(f"unknown bad body {kind!r}")
