"""Load benchmark of the web table: N concurrent bot tables on one server process, each watched
by one WebSocket spectator.

The server runs in its own process (the real app under uvicorn, writing its records to a
temporary folder); the spectators run in this process.  Every view frame carries the wall-clock
time at which the action it follows was applied (``action_at``), so the time from an action to
the updated view reaching a client is measured on arrival (same machine, same clock).  A
spectator whose game ends starts watching a new one until the time is up.
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

        def pct(q: float) -> float:
            return round(1000 * lat[min(len(lat) - 1, int(q * len(lat)))], 2)

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
            "latency_ms_p50": pct(0.50),
            "latency_ms_p95": pct(0.95),
            "latency_ms_max": round(1000 * lat[-1], 2),
            "latency_ms_mean": round(1000 * statistics.fmean(lat), 2),
            "python": platform.python_version(),
        }


def _serve(port: int, pause: float, out: str, ready: Any) -> None:
    """The server process: the real app, every speed set to ``pause``."""
    import uvicorn

    from harness.web import Registry, WebConfig, create_app

    config = WebConfig(name="bench", output=out)
    registry = Registry(config, pauses={"slow": pause, "normal": pause, "fast": pause})
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(registry=registry),
            host="127.0.0.1",
            port=port,
            log_level="error",
            ws_max_size=1 << 20,
        )  # fmt: skip
    )

    async def main() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        ready.set()
        await task

    asyncio.run(main())


async def _spectator(url: str, seats: int, mode: str, until: float, r: BenchResult) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=1 << 23) as ws:
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_bench(
    tables: int, seconds: float, seats: int = 5, mode: str = "classic", pause: float = 0.3
) -> BenchResult:
    """Run the benchmark; the server process is always stopped before returning."""
    port = _free_port()
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    result = BenchResult(tables, seats, pause)
    with tempfile.TemporaryDirectory(prefix="bangarena-bench-") as out:
        proc = ctx.Process(target=_serve, args=(port, pause, out, ready), daemon=True)
        proc.start()
        try:
            if not ready.wait(60):
                raise RuntimeError("the benchmark server did not start")
            asyncio.run(_run_clients(port, tables, seats, mode, seconds, result))
        finally:
            proc.terminate()
            proc.join(10)
    return result
