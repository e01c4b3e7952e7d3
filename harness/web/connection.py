"""One browser connection: who it is at which table, its budgets (:mod:`.limits`), and an outgoing
queue drained by its own task.

The table never waits for a browser: frames are serialized once and queued; a connection whose
queue passes :data:`MAX_QUEUED` frames is too slow to follow the game and is closed (reloading
the page restores the seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any, Protocol

from .limits import TokenBucket, WebLimits

if TYPE_CHECKING:
    from .rooms import Room

MAX_QUEUED = 512


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


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
        self.room: Room | None = None
        self.seat: int | None = None  # None: a spectator (or not at a table yet)
        self.seen = 0  # engine events already sent in this connection's feed
        self.closed = False
        # the person seat this connection took (room, token): one seat per connection
        self.held: tuple[Room, str] | None = None
        self.messages = TokenBucket(lim.messages_burst, lim.messages_per_s)
        self.rebuilds = TokenBucket(lim.rebuilds_burst, lim.rebuilds_per_s)
        self.failures = TokenBucket(lim.failures_burst_connection, lim.failures_per_s)
        self.refusals = TokenBucket(1, 1.0)  # 'rate_limited' frames for dropped messages
        self.rebuild_pending = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

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
