"""``bangarena bench serve`` — load benchmark of the web table: N concurrent bot tables on one
server process, each watched by one WebSocket spectator.

The server runs in its own process (the real app under uvicorn, writing its records to a
temporary folder); the spectators run in this process.  Every view frame carries the wall-clock
time at which the action it follows was applied (``action_at``), so the time from an action to
the updated view reaching a client is measured on arrival (same machine, same clock).  A
spectator whose game ends starts watching a new one until the time is up.

The attack mode (:func:`run_attack`) measures what one hostile client costs everyone else: N
spectators of one bots-only game send bursts of ``locale`` messages (each asks for a whole new
view) once a second, while an unrelated connection (in a process of its own, so the attackers'
client work does not slow it) sends a ``ping`` every :data:`PING_EVERY_S` and times the ``pong``.  The server keeps its per-connection limits (:mod:`harness.web.limits`); only the
per-address caps are lifted, as every client of a benchmark comes from 127.0.0.1 (and the load's
server-wide cap on bot matches).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import platform
import socket
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from .core import BenchError, print_result


@dataclass
class BenchResult:
    tables: int
    seats: int
    pause_s: float
    seconds: float = 0.0
    decisions: int = 0
    frames: int = 0
    games: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        lat = sorted(self.latencies) or [0.0]
        return {
            "tables": self.tables,
            "seats": self.seats,
            "pause_s": self.pause_s,
            "seconds": round(self.seconds, 2),
            "decisions": self.decisions,
            "decisions_per_s": round(self.decisions / self.seconds, 1) if self.seconds else 0.0,
            "frames": self.frames,
            "games_finished": self.games,
            "errors": self.errors,
            "latency_ms_p50": _pct(lat, 0.50),
            "latency_ms_p95": _pct(lat, 0.95),
            "latency_ms_max": round(1000 * lat[-1], 2),
            "latency_ms_mean": round(1000 * statistics.fmean(lat), 2),
            "python": platform.python_version(),
        }


def _pct(values: list[float], q: float) -> float:
    v = sorted(values) or [0.0]
    return round(1000 * v[min(len(v) - 1, int(q * len(v)))], 2)


@dataclass
class AttackResult:
    attackers: int
    messages: int
    seats: int
    seconds: float = 0.0
    sent: int = 0
    frames: int = 0
    refused: int = 0
    pings: list[float] = field(default_factory=list)
    lost_pings: int = 0
    dropped: int = 0  # attackers the server closed

    def figures(self) -> dict[str, Any]:
        return {
            "attackers": self.attackers,
            "messages_per_burst": self.messages,
            "seats": self.seats,
            "seconds": round(self.seconds, 2),
            "attack_messages": self.sent,
            "attack_frames": self.frames,
            "rate_limited": self.refused,
            "attackers_dropped": self.dropped,
            "pings": len(self.pings),
            "pings_unanswered": self.lost_pings,
            "ping_ms_p50": _pct(self.pings, 0.50),
            "ping_ms_p99": _pct(self.pings, 0.99),
            "ping_ms_max": round(1000 * max(self.pings, default=0.0), 2),
            "python": platform.python_version(),
        }


def _serve(port: int, pause: float, out: str, ready: Any, attack: bool = False) -> None:
    """The server process: the real app under the server of ``bangarena serve``, every speed set
    to ``pause``; without ``attack`` no per-client limit gets in the load's way."""
    from harness.web import Registry, WebConfig, create_app
    from harness.web.limits import WebLimits
    from harness.web.server import table_server

    # every client of the benchmark comes from 127.0.0.1: no per-address room, connection or
    # socket cap; the load's tables are bot matches: no server-wide cap on them
    unbounded = 1 << 30
    lifted: dict[str, Any] = {"rooms_per_address": unbounded, "connections_per_address": unbounded,
                              "seats_per_address": unbounded, "sockets_per_address": unbounded,
                              "bot_matches": unbounded}  # fmt: skip
    if not attack:  # spectators start a new game as soon as one ends, with pause 0 many a second
        lifted |= {"rooms_per_connection": unbounded, "rebuilds_burst": unbounded}
    limits = WebLimits(**lifted)
    config = WebConfig(name="bench", output=out, limits=limits)
    registry = Registry(config, pauses={"slow": pause, "normal": pause, "fast": pause})
    server = table_server(create_app(registry=registry), config, host="127.0.0.1", port=port,
                          log_level="error")  # fmt: skip

    async def main() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        ready.set()
        await task

    asyncio.run(main())


async def _spectator(url: str, seats: int, mode: str, until: float, r: BenchResult) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=1 << 23, origin=_origin(url)) as ws:
        while time.monotonic() < until:
            await ws.send(json.dumps({"type": "watch", "settings": {"seats": seats, "mode": mode}}))
            last = 0
            while True:
                left = until - time.monotonic()
                if left <= 0:
                    return
                try:
                    text = await asyncio.wait_for(ws.recv(), left)
                except TimeoutError:
                    return
                now = time.time()
                f = json.loads(text)
                if f["type"] == "view":
                    r.frames += 1
                    if f["action_at"] > 0:
                        r.latencies.append(now - f["action_at"])
                    if last:
                        r.decisions += max(0, f["decision"] - last)
                    last = f["decision"]
                elif f["type"] == "over":
                    r.games += 1
                    break
                elif f["type"] == "error":
                    r.errors += 1


async def _run_clients(
    port: int, tables: int, seats: int, mode: str, seconds: float, r: BenchResult
) -> None:
    url = f"ws://127.0.0.1:{port}/ws"
    t0 = time.monotonic()
    until = t0 + seconds
    await asyncio.gather(*(_spectator(url, seats, mode, until, r) for _ in range(tables)))
    r.seconds = time.monotonic() - t0


def _origin(ws_url: str) -> Any:
    """The served page's origin for a WebSocket URL of this server (``ws://h:p/ws`` → ``http://h:p``)."""
    from websockets.typing import Origin

    return Origin("http://" + ws_url.removeprefix("ws://").split("/", 1)[0])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _attacker(ws: Any, messages: int, until: float, r: AttackResult) -> None:
    """Send ``messages`` ``locale`` messages a second until ``until`` (or until the server
    closes the connection), reading every answer."""
    from websockets.exceptions import ConnectionClosed

    locales = ("ru", "en", "ja", "ar", "zh")

    async def read() -> None:
        while True:
            f = json.loads(await ws.recv())
            r.frames += 1
            if f["type"] == "error" and f["code"] == "rate_limited":
                r.refused += 1

    reader = asyncio.create_task(read())
    try:
        while time.monotonic() < until and not reader.done():
            t0 = time.monotonic()
            for k in range(messages):
                await ws.send(json.dumps({"type": "locale", "locale": locales[k % len(locales)]}))
                r.sent += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))
    except ConnectionClosed:
        pass
    finally:
        if reader.done():  # the server closed the connection
            r.dropped += 1
        reader.cancel()


PING_EVERY_S = 0.1  # within the per-connection message budget


async def _probe(url: str, seconds: float, out: Any) -> tuple[list[float], int]:
    from websockets.asyncio.client import connect

    pings: list[float] = []
    lost = 0
    async with connect(url, origin=_origin(url), ping_interval=None) as ws:
        out.put("ready")
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            t0 = time.monotonic()
            await ws.send('{"type":"ping"}')
            try:
                while json.loads(await asyncio.wait_for(ws.recv(), 10.0))["type"] != "pong":
                    pass
            except TimeoutError:  # counted, not timed: the figures say how many
                lost += 1
                continue
            pings.append(time.monotonic() - t0)
            await asyncio.sleep(max(0.0, PING_EVERY_S - (time.monotonic() - t0)))
        ws.transport.abort()  # no close handshake with a server that may be far behind
    return pings, lost


def _prober(url: str, seconds: float, out: Any) -> None:
    """The pinging connection's process: puts ``(pings, lost)`` on ``out``."""
    out.put(asyncio.run(_probe(url, seconds, out)))


async def _run_attack(port: int, seconds: float, r: AttackResult) -> None:
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{port}/ws"
    host = await connect(url, origin=_origin(url), max_size=1 << 23, ping_interval=None)
    await host.send(json.dumps({"type": "watch", "settings": {"seats": r.seats}}))
    while (f := json.loads(await host.recv()))["type"] != "joined":
        pass
    code = f["code"]
    socks = [host]
    for _ in range(r.attackers - 1):
        ws = await connect(url, origin=_origin(url), max_size=1 << 23, ping_interval=None)
        await ws.send(json.dumps({"type": "watch", "code": code}))
        while json.loads(await ws.recv())["type"] != "joined":
            pass
        socks.append(ws)
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    prober = ctx.Process(target=_prober, args=(url, seconds, out), daemon=True)
    prober.start()
    await asyncio.to_thread(out.get, True, 60)  # connected: the attack starts now
    t0 = time.monotonic()
    until = t0 + seconds
    try:
        await asyncio.gather(*(_attacker(ws, r.messages, until, r) for ws in socks))
        r.seconds = time.monotonic() - t0
        r.pings, r.lost_pings = await asyncio.to_thread(out.get, True, seconds + 60)
    finally:
        prober.join(10)
        for ws in socks:
            ws.transport.abort()


def _with_server(pause: float, attack: bool, clients: Any) -> None:
    """Start the server process, run ``clients(port)`` (a coroutine function), stop the server."""
    port = _free_port()
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    with tempfile.TemporaryDirectory(prefix="bangarena-bench-") as out:
        proc = ctx.Process(target=_serve, args=(port, pause, out, ready, attack), daemon=True)
        proc.start()
        try:
            if not ready.wait(60):
                raise RuntimeError("the benchmark server did not start")
            asyncio.run(clients(port))
        finally:
            proc.terminate()
            proc.join(10)


def run_attack(
    attackers: int = 8, messages: int = 150, seconds: float = 10.0, seats: int = 8,
    pause: float = 0.3,
) -> AttackResult:  # fmt: skip
    """Run the attack benchmark; the server process is always stopped before returning."""
    result = AttackResult(attackers, messages, seats)

    async def clients(port: int) -> None:
        await _run_attack(port, seconds, result)

    _with_server(pause, True, clients)
    return result


def run_bench(
    tables: int, seconds: float, seats: int = 5, mode: str = "classic", pause: float = 0.3
) -> BenchResult:
    """Run the benchmark; the server process is always stopped before returning."""
    result = BenchResult(tables, seats, pause)

    async def clients(port: int) -> None:
        await _run_clients(port, tables, seats, mode, seconds, result)

    _with_server(pause, False, clients)
    return result


def _check(seconds: float, pause: float) -> None:
    if not seconds > 0:
        raise BenchError("--seconds must be positive")
    if pause < 0:
        raise BenchError("--pause cannot be negative")


def run(tables: int, seconds: float, seats: int, mode: str, pause: float) -> int:
    """Measure the tables, print the figures and the JSON line."""
    _check(seconds, pause)
    r = run_bench(tables, seconds, seats, mode, pause).figures()
    print(f"web table benchmark: {r['tables']} tables × {r['seats']} seats, one spectator each, "
          f"{r['pause_s']:g} s before each bot move, {r['seconds']:.1f} s")  # fmt: skip
    print(
        f"  decisions/s              {r['decisions_per_s']:>10,.1f}  ({r['decisions']:,} decisions)"
    )
    print(f"  view frames received     {r['frames']:>10,}")
    print(f"  games finished           {r['games_finished']:>10,}")
    print(f"  action → view  p50       {r['latency_ms_p50']:>10,.1f} ms")
    print(f"  action → view  p95       {r['latency_ms_p95']:>10,.1f} ms")
    print(f"  action → view  max       {r['latency_ms_max']:>10,.1f} ms")
    if r["errors"]:
        print(f"  error frames             {r['errors']:>10,}")
    return print_result({"benchmark": "serve", **r})


def attack(attackers: int, messages: int, seconds: float, seats: int, pause: float) -> int:
    """Measure the unrelated connection's pings under the flood; print them and the JSON line."""
    _check(seconds, pause)
    r = run_attack(attackers, messages, seconds, seats, pause).figures()
    print(f"web table under attack: {r['attackers']} spectators × {r['messages_per_burst']} "
          f"'locale' messages a second on a {r['seats']}-seat game, {r['seconds']:.1f} s; "
          "an unrelated connection pings every 100 ms")  # fmt: skip
    print(f"  attack messages sent     {r['attack_messages']:>10,}")
    print(f"  answered rate_limited    {r['rate_limited']:>10,}")
    print(f"  pings answered           {r['pings']:>10,}  ({r['pings_unanswered']} unanswered)")
    print(f"  ping p50                 {r['ping_ms_p50']:>10,.1f} ms")
    print(f"  ping p99                 {r['ping_ms_p99']:>10,.1f} ms")
    print(f"  ping max                 {r['ping_ms_max']:>10,.1f} ms")
    return print_result({"benchmark": "serve_attack", **r})
