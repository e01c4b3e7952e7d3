"""``bangarena mcp``: a league run whose ``kind: mcp`` player is driven by an MCP client, served
over stdio or streamable HTTP in the run's own process and event loop.

* The run starts at the client's first tool call, so that no decision waits for a client that has
  not connected yet; its games are played one at a time (the client drives one seat).
* The run ends as any league run does (its records in the run folder); the client then reads
  ``finished``.  Over HTTP the server stays up ``linger_s`` seconds more, then exits; over stdio it
  exits when the client closes the connection.
* A stdio client that disconnects during the run stops it (resumable, like an interrupted run).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from harness.league.runner import LeagueInterrupted, LeagueRunner, LeagueStopped

from .mcp_tools import build_server
from .seat_channel import attach, game_result

__all__ = ["ServeOutcome", "game_result", "serve"]

Transport = Literal["stdio", "http"]
HTTP_PATH = "/mcp"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass
class ServeOutcome:
    started: bool = False  # a client called a tool and the run began
    error: Exception | None = None  # LeagueStopped / LeagueInterrupted of the run
    disconnected: bool = False  # the client left before the run's end


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: a free port); ``OSError`` when it fails
    (``socket.gaierror`` when the host does not resolve)."""
    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def _uvicorn_server(app: Any) -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:  # the run handles SIGINT / SIGTERM
            yield

    return Server(uvicorn.Config(app, log_level="warning", lifespan="on"))


async def serve(
    runner: LeagueRunner,
    player: str,
    transport: Transport = "stdio",
    *,
    sock: socket.socket | None = None,
    linger_s: float = 30.0,
    announce: Callable[[str], None] | None = None,
) -> ServeOutcome:
    """Serve ``player``'s seat of ``runner``'s run until the run is over (see the module
    docstring); ``sock`` is the bound socket of the HTTP transport."""
    channel = attach(runner, player)
    server = build_server(channel)
    outcome = ServeOutcome()
    http: Any = None
    if transport == "stdio":
        transport_task = asyncio.create_task(server.run_stdio_async(), name="mcp stdio")
    else:
        assert sock is not None
        host, port = sock.getsockname()[:2]
        app = server.streamable_http_app(streamable_http_path=HTTP_PATH, host=str(host))
        http = _uvicorn_server(app)
        transport_task = asyncio.create_task(http.serve(sockets=[sock]), name="mcp http")
    if announce is not None:
        where = "stdio" if http is None else f"http://{_url_host(str(host))}:{port}{HTTP_PATH}"
        announce(where)

    async def league() -> None:
        await channel.client_seen.wait()
        outcome.started = True
        try:
            await runner.run()
        except (LeagueStopped, LeagueInterrupted) as e:
            outcome.error = e
        finally:
            channel.finish(
                {
                    "run_dir": str(runner.run_dir),
                    "stopped": str(outcome.error) if outcome.error is not None else None,
                }
            )

    league_task = asyncio.create_task(league(), name="mcp league")
    try:
        await asyncio.wait({transport_task, league_task}, return_when=asyncio.FIRST_COMPLETED)
        if not league_task.done():  # the client went away (stdio) or the server failed
            outcome.disconnected = True
            if outcome.started:
                runner.stop("stopped: the MCP client disconnected")
                await league_task
            else:
                league_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await league_task
        else:
            league_task.result()  # an unexpected error of the run: raised here
            if http is not None:
                await asyncio.wait({transport_task}, timeout=linger_s)
                http.should_exit = True
            elif outcome.error is not None:  # interrupted: no waiting for the client to leave
                transport_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await transport_task
    finally:
        for task in (transport_task, league_task):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
    return outcome


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
