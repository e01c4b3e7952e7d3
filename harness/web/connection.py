"""One browser connection: who it is at which table, its budgets (:mod:`.limits`), and an outgoing
queue drained by its own task.

Only the connection changes its fields: a room moves it in and out with :meth:`Connection.enter`,
:meth:`~Connection.vacate` and the like.  It knows its room as a :class:`Place` — the few things
its holders ask of it — so this module imports no room.

The table never waits for a browser: frames are serialized once and queued; a connection whose
queue passes :data:`MAX_QUEUED` frames is too slow to follow the game and is closed (reloading
the page restores the seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Protocol

from .limits import TokenBucket, WebLimits

MAX_QUEUED = 512


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


class Place(Protocol):
    """The room a connection is in (a :class:`~harness.web.rooms.Room`), as seen from it."""

    def detach(self, conn: Connection) -> None: ...

    def send_all(self, conn: Connection) -> None: ...

    def holds(self, token: str) -> bool: ...

    def release(self, token: str) -> None: ...


class Connection:
    def __init__(
        self,
        socket: Socket,
        locale: str = "en",
        *,
        address: str = "",
        limits: WebLimits | None = None,
    ) -> None:
        lim = limits or WebLimits()
        self.socket = socket
        self.locale = locale
        self.address = address  # the client's IP ("" when unknown)
        self.room: Place | None = None
        self.seat: int | None = None  # None: a spectator (or not at a table yet)
        self.seen = 0  # engine events already sent in this connection's feed
        self.closed = False
        # the person seat this connection took (room, token): one seat per connection
        self.held: tuple[Place, str] | None = None
        self.messages = TokenBucket(lim.messages_burst, lim.messages_per_s)
        self.rebuilds = TokenBucket(lim.rebuilds_burst, lim.rebuilds_per_s)
        self.failures = TokenBucket(lim.failures_burst_connection, lim.failures_per_s)
        self.refusals = TokenBucket(1, 1.0)  # 'rate_limited' frames for dropped messages
        self.rebuild_pending = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

    # ------------------------------------------------ where it is (set by a room)
    def enter(self, room: Place, seat: int | None) -> None:
        """Now in ``room``, at ``seat`` (``None``: watching), its feed from the first event."""
        self.room, self.seat, self.seen = room, seat, 0

    def vacate(self) -> None:
        """In no room any more (it left, was removed, or the room closed)."""
        self.room, self.seat = None, None

    def to_spectator(self) -> None:
        """Its seat went to a bot: it watches the same room, holding no seat."""
        self.seat, self.seen, self.held = None, 0, None

    def hold(self, room: Place, token: str) -> None:
        """It took the person's seat of ``token`` in ``room`` (one seat per connection)."""
        self.held = (room, token)

    def let_go(self) -> None:
        """It gave up the seat it held."""
        self.held = None

    def saw(self, events: int) -> None:
        """Its feed has the game's first ``events`` events."""
        self.seen = events

    def rewind(self) -> None:
        """Its next view starts the feed from the first event (a new game, or a whole view)."""
        self.seen = 0

    def set_locale(self, locale: str) -> None:
        self.locale = locale

    def ask_rebuild(self) -> bool:
        """Mark a whole-view rebuild pending; ``False`` when one was pending already."""
        if self.rebuild_pending:
            return False
        self.rebuild_pending = True
        return True

    def rebuild_started(self) -> None:
        self.rebuild_pending = False

    # ----------------------------------------------------------------- frames
    def send(self, frame: dict[str, Any]) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUED:
            self.close()
            return
        self._queue.put_nowait(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def writer(self) -> None:
        """Send queued frames until closed; then close the socket."""
        try:
            while (text := await self._queue.get()) is not None:
                await self.socket.send_text(text)
        except Exception:  # the peer went away mid-send; the reader sees the close
            self.closed = True
        finally:
            with contextlib.suppress(Exception):
                await self.socket.close()
