"""The FastAPI application: the static page, two small JSON endpoints and the table's WebSocket.

``/`` and ``/static/*`` serve the page (HTML, CSS, JS; no build step, nothing from a CDN).
``/api/meta`` lists the settings a table can have and the configured model players;
``/api/library/<locale>`` gives the library of cards, characters and the rules (``rules_md/``).
``/ws`` carries everything else: each text frame is one message of :mod:`.protocol`, answered on
that connection only; pushes are frames of :mod:`.frames` and room updates.

Every request passes :mod:`.origins` (``Host``, and a WebSocket's ``Origin``) and gets the headers
of :mod:`.headers`; each connection's messages are handled one at a time within the budgets of
:mod:`.limits`, letting the other connections run after each one.  Below the app, the server of
:mod:`.server` bounds sockets, requests, frames and message sizes before they reach it
(:mod:`.transport`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from harness.paths import RULES_MD_DIR
from harness.views.names import LOCALES, mode_name

from . import protocol as p
from .connection import Connection
from .headers import SecurityHeaders
from .limits import RATE_LIMITED, address_key
from .origins import OriginGuard, OriginPolicy
from .room_registry import Registry
from .room_state import RoomError
from .rooms import Room, one_seat
from .web_config import WebConfig

STATIC_DIR = Path(__file__).resolve().parent / "static"
INTERNAL = "internal"  # the ``code`` of the error frame for a message the server failed on
REBUILDING = (p.SetLocale, p.Join, p.Watch)  # messages that send a whole view
ATTEMPTS = (p.Join, p.Watch)  # messages that fail on a wrong code or token (rate-limited)

log = logging.getLogger(__name__)


def create_app(
    config: WebConfig | None = None,
    *,
    registry: Registry | None = None,
    listen_host: str = "127.0.0.1",
) -> FastAPI:
    """The table's app; ``listen_host`` is the address the server listens on (a ``Host`` it
    answers to, besides IP addresses, ``localhost`` and the config's ``allow_hosts``)."""
    reg = registry or Registry(config)
    cfg = reg.config
    policy = OriginPolicy(listen_host, cfg.allow_hosts, cfg.allow_origins)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await reg.start()
        try:
            yield
        finally:
            await reg.aclose()

    app = FastAPI(title="BangArena table", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)  # fmt: skip
    app.state.registry = reg
    app.add_middleware(SecurityHeaders)
    app.add_middleware(OriginGuard, policy=policy)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "locales": list(p.PAGE_LOCALES),
            "seats": [MIN_SEATS, MAX_SEATS],
            "modes": [
                {"id": m, "name": {loc: mode_name(m, loc) for loc in p.PAGE_LOCALES}} for m in MODES
            ],  # fmt: skip
            "decision_seconds": list(p.DECISION_SECONDS),
            "speeds": list(p.SPEEDS),
            "reactions": p.REACTIONS,
            "models": reg.model_choices(),
        }

    @app.get("/api/library/{locale}")
    async def library(locale: str) -> dict[str, Any]:
        if locale not in LOCALES or not (RULES_MD_DIR / f"rules.{locale}.md").exists():
            raise HTTPException(404, f"no library in locale {locale[:8]!r}")
        return _library(locale)

    @app.websocket("/ws")
    async def table_socket(socket: WebSocket) -> None:
        address = address_key(socket.client.host) if socket.client is not None else ""
        if not reg.addresses.connect(address):
            await socket.close(code=1008)  # before accept: HTTP 403
            return
        try:
            await socket.accept()
            await _serve(reg, socket, Connection(socket, address=address, limits=reg.limits))
        finally:
            reg.addresses.disconnect(address)

    return app


async def _serve(reg: Registry, socket: WebSocket, conn: Connection) -> None:
    """Read and handle ``conn``'s messages until it closes."""
    writer = asyncio.create_task(conn.writer())
    try:
        while not conn.closed:
            text = await _receive(socket)
            if text is None:
                break
            receive_one(reg, conn, text)
            await asyncio.sleep(0)  # the other connections run between two messages of this one
    except WebSocketDisconnect:
        pass
    finally:
        if conn.room is not None:
            conn.room.detach(conn)
        conn.close()
        await writer


def receive_one(reg: Registry, conn: Connection, text: str | bytes) -> None:
    """Handle one text frame of ``conn`` within its budgets; every failure is an error frame."""
    if not conn.messages.take():  # dropped; the client hears it at most once a second
        if conn.refusals.take():
            conn.send(p.error_frame(RATE_LIMITED, "too many messages: slow down"))
        return
    kind = "message"
    try:
        m = p.parse_message(text)
        kind = m.type
        if isinstance(m, REBUILDING) and not conn.rebuilds.take():
            raise RoomError(RATE_LIMITED, f"too many '{kind}' messages: slow down")
        if isinstance(m, ATTEMPTS):
            _attempt(reg, conn, m)
        else:
            handle(reg, conn, m)
    except (p.BadMessage, RoomError) as e:
        conn.send(p.error_frame(e.code, str(e)))
    except Exception:  # a server bug: logged; the connection and the table go on
        log.exception("a %r message could not be handled", kind)
        conn.send(p.error_frame(INTERNAL, "the server could not handle that message"))


def _attempt(reg: Registry, conn: Connection, m: p.Join | p.Watch) -> None:
    """A ``join`` or ``watch``: refused at once while the connection's or its address's failed
    attempts are over budget; a failure spends from both."""
    by_address = reg.addresses.failures(conn.address)
    if not (conn.failures.ready() and by_address.ready()):
        raise RoomError(RATE_LIMITED, "too many failed attempts to join or watch: wait a little")
    try:
        handle(reg, conn, m)
    except RoomError:
        conn.failures.spend()
        by_address.spend()
        raise


async def _receive(socket: WebSocket) -> str | bytes | None:
    msg = await socket.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    return text if text is not None else (msg.get("bytes") or b"")


@lru_cache(maxsize=len(LOCALES))
def _library(locale: str) -> dict[str, Any]:
    data = json.loads((RULES_MD_DIR / "rules.json").read_text(encoding="utf-8"))
    return {
        "rules": (RULES_MD_DIR / f"rules.{locale}.md").read_text(encoding="utf-8"),
        "cards": [
            {
                "id": c["id"],
                "name": c["name"][locale],
                "effect": c["effect"][locale],
                "copies": c["copies"],
                "kind": c["kind"],
                "suits_ranks": c["suits_ranks"],
            }
            for c in data["cards"]
        ],  # fmt: skip
        "characters": [
            {
                "id": c["id"],
                "name": c["name"][locale],
                "hp": c["hp"],
                "ability": c["ability"][locale],
            }
            for c in data["characters"]
        ],  # fmt: skip
    }


def _room(conn: Connection) -> Room:
    if conn.room is None:
        raise RoomError("no_room", "create, join or watch a table first")
    return cast(Room, conn.room)  # a connection is only ever in a Room


def _joined(conn: Connection, room: Room, token: str | None) -> None:
    conn.send({"type": "joined", "code": room.code, "seat": conn.seat, "token": token,
               "link": f"/?room={room.code}"})  # fmt: skip
    room.send_all(conn)


def handle(reg: Registry, conn: Connection, m: Any) -> None:
    """Do what one valid message asks, or raise :class:`RoomError`."""
    if isinstance(m, p.Ping):
        conn.send({"type": "pong"})
    elif isinstance(m, p.SetLocale):
        conn.set_locale(m.locale)
        if conn.room is not None:
            reg.rebuilds.request(conn)
    elif isinstance(m, p.Create):
        one_seat(conn)
        conn.set_locale(m.locale)
        room, token = reg.create_seated(m.settings, conn, m.name, play=m.play)
        _joined(conn, room, token)
        if m.play:
            room.start()
    elif isinstance(m, p.Join):
        conn.set_locale(m.locale)
        room = reg.get(m.code)
        if m.token is not None:
            room.rejoin(conn, m.token)
            token: str | None = m.token
        elif m.name is not None:
            token = room.join(conn, m.name)
        else:
            raise RoomError("bad_message", "join needs a name or a seat token")
        _joined(conn, room, token)
        room.broadcast_room()
    elif isinstance(m, p.Watch):
        conn.set_locale(m.locale)
        if m.code is not None:
            room = reg.get(m.code)
            room.watch(conn)
        else:
            reg.check_bot_match()
            room = reg.create(m.settings, conn)
            room.watch(conn)
            _joined(conn, room, None)
            room.start()
            return
        _joined(conn, room, None)
    elif isinstance(m, p.Act):
        _room(conn).act(conn, m.decision, m.option)
    elif isinstance(m, p.Signal):
        _room(conn).signal(conn, m)
    elif isinstance(m, p.Leave):
        room, held = _room(conn), conn.held
        room.leave(conn)
        if held is not None and held[0] is not room:  # the seat it left from another room
            held[0].release(held[1])
        conn.send({"type": "left", "reason": "left"})
    elif isinstance(m, p.HOST_MESSAGES):
        room = _room(conn)
        room.require_host(conn)
        _host(room, m)
        room.broadcast_room()
    else:  # pragma: no cover - every message type is handled above
        raise RoomError("unknown_type", "unhandled message")


def _host(room: Room, m: Any) -> None:
    if isinstance(m, p.FillBots):
        room.fill_bots()
    elif isinstance(m, p.SeatBot):
        room.seat_bot(m.seat, m.player)
    elif isinstance(m, p.Replace):
        room.replace(m.seat, m.player)
    elif isinstance(m, p.Remove):
        room.remove(m.seat)
    elif isinstance(m, p.Autopilot):
        room.autopilot(m.seat, m.on)
    elif isinstance(m, p.SetSpeed):
        room.set_speed(m.speed)
    elif isinstance(m, p.Start):
        room.start()
