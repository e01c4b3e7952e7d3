"""A real web-table server on 127.0.0.1 (uvicorn as ``bangarena serve`` runs it, in a background
thread) and a small WebSocket client that keeps every frame it receives, for the web tests."""

from __future__ import annotations

import inspect
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from harness.records import RunStore
from harness.web import Registry, WebConfig, create_app
from harness.web.limits import RATE_LIMITED
from harness.web.server import table_server

# websockets >= 14 wants ``legacy=True`` for a connection kept outside a ``with`` block
_LEGACY = {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {}
FAST = {"slow": 0.0, "normal": 0.0, "fast": 0.0}


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def served_origin(ws_url: str) -> str:
    """The origin of the page the server at ``ws_url`` serves (``ws://h:p/ws`` → ``http://h:p``)."""
    scheme, rest = ws_url.split("://", 1)
    return f"{'https' if scheme == 'wss' else 'http'}://{rest.split('/', 1)[0]}"


class LiveServer:
    """``with LiveServer(tmp_path) as srv:`` — ``srv.url``, ``srv.registry``, ``srv.run_dir``."""

    def __init__(
        self,
        out: Path,
        *,
        players: list[dict[str, Any]] | None = None,
        seed: Callable[[], int] | None = None,
        pauses: dict[str, float] | None = None,
        host_grace: float = 30.0,
        settings: dict[str, Any] | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        """``host``: the loopback address to listen on (``"::1"`` for IPv6)."""
        config = WebConfig.model_validate(
            {"name": "web", "output": str(out), "players": players or [], **(settings or {})}
        )
        self.registry = Registry(
            config, pauses=pauses if pauses is not None else FAST, seed=seed, host_grace=host_grace
        )
        self.run_dir = config.run_dir
        self.port = free_port(host)
        where = f"[{host}]" if ":" in host else host
        self.url = f"http://{where}:{self.port}"
        self.ws_url = f"ws://{where}:{self.port}/ws"
        self.server: uvicorn.Server = table_server(
            create_app(registry=self.registry), config, host=host, port=self.port
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = (
            time.monotonic() + 120
        )  # generous: a loaded machine imports the model SDKs slowly
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the test server stopped while starting (see its log above)")
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


class Client:
    """A WebSocket client that records every frame received (``frames``).  A decision a person is
    asked while :meth:`wait` looks for something else is kept and returned by a later
    :meth:`recv`, so no decision is left unanswered."""

    def __init__(self, url: str, *, origin: str | None = "", **connect_kw: Any) -> None:
        """``origin``: the page's origin the handshake names ("": the server's own, as a page
        served by it would; ``None``: no ``Origin`` header); ``connect_kw`` go to websockets'
        ``connect`` (``additional_headers``, ``source_address``...)."""
        if origin == "":
            origin = served_origin(url)
        extra: dict[str, Any] = {"origin": origin} if origin is not None else {}
        self.ws: ClientConnection = connect(
            url,
            open_timeout=5,
            max_size=2**23,
            **extra,
            # the client sends no keepalive pings of its own (it still answers the server's):
            # a loaded machine's server may stall past a ping timeout the tests are not about
            **{"ping_interval": None, **connect_kw},
            **_LEGACY,
        )
        self.frames: list[dict[str, Any]] = []
        self._asks: deque[dict[str, Any]] = deque()

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        if self._asks:
            return self._asks.popleft()
        frame = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        return frame

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
        """Receive until a frame satisfies ``pred``; returns it (skipped asks stay queued)."""
        deadline = time.monotonic() + timeout
        skipped: list[dict[str, Any]] = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no matching frame")
                frame = self.recv(timeout=left)
                if frame["type"] == "view" and frame["ask"]:
                    skipped.append(frame)  # still to be answered, even when it is the match
                if pred(frame):
                    return frame
        finally:
            self._asks.extendleft(reversed(skipped))

    def wait_type(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait(lambda f: f["type"] == kind, timeout)

    def close(self) -> None:
        self.ws.close()


Chooser = Callable[[dict[str, Any]], str]


def first_option(frame: dict[str, Any]) -> str:
    return str(frame["ctx"]["decision"]["options"][0]["id"])


RESEND_AFTER = 1.5  # seconds without an answer's effect before a client sends it again


def drive(
    clients: list[Client],
    choose: Chooser = first_option,
    *,
    timeout: float = 60.0,
    hook: Callable[[Client, dict[str, Any]], None] | None = None,
) -> None:
    """Answer every decision the people among ``clients`` are asked until each client has seen
    the game end.  ``hook(client, frame)`` sees every frame first.

    A client answering at machine speed outruns the message budget (a person does not): a
    dropped answer is sent again when the server says so (``rate_limited``, at most once a
    second) and also when no new decision has reached the client :data:`RESEND_AFTER` seconds
    after it answered, so an answer dropped without a word is not left to the table's timer.
    An answer sent twice is refused the second time as stale, which changes nothing."""
    done: set[int] = set()
    last: dict[int, dict[str, Any]] = {}  # each client's latest answer
    outstanding: dict[int, float] = {}  # client -> when its latest answer was (re)sent
    deadline = time.monotonic() + timeout
    while len(done) < len(clients):
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not end in time")
        for i, c in enumerate(clients):
            if i in done:
                continue
            if i in outstanding and time.monotonic() - outstanding[i] > RESEND_AFTER:
                c.send(**last[i])
                outstanding[i] = time.monotonic()
            try:
                f = c.recv(timeout=0.02)
            except TimeoutError:
                continue
            if hook is not None:
                hook(c, f)
            if f["type"] == "over":
                done.add(i)
            elif f["type"] == "view" and f["ask"]:
                last[i] = {"type": "act", "decision": f["decision"], "option": choose(f)}
                c.send(**last[i])
                outstanding[i] = time.monotonic()
            elif f["type"] == "view" and i in last and f["decision"] != last[i]["decision"]:
                outstanding.pop(i, None)  # the answer was taken: the table moved on
            elif f["type"] == "error" and f.get("code") == RATE_LIMITED and i in last:
                time.sleep(0.25)
                c.send(**last[i])
                outstanding[i] = time.monotonic()


def start_room(url: str, *, seats: int = 4, people: int = 1, **settings: Any) -> list[Client]:
    """A room with ``people`` people (the first is the host) and bots in the other seats,
    started; returns the people's clients (their 'joined' frames received)."""
    host = Client(url)
    host.send(type="create", name="Ann", settings={"seats": seats, **settings})
    code = host.wait_type("joined")["code"]
    out = [host]
    for k in range(1, people):
        c = Client(url)
        c.send(type="join", code=code, name=f"P{k}")
        c.wait_type("joined")
        out.append(c)
    host.send(type="start")
    return out


def no_timeouts(run_dir: Path) -> list[str]:
    """Decisions of a run that fell back on the timer (a person who was never asked)."""
    store = RunStore(run_dir)
    return [
        f"{g.game_id} #{d.index} seat {d.seat} {d.decision_kind}"
        for g in store.games()
        for d in store.read_game(g.game_id)[1]
        if d.fallback == "timeout"
    ]
