"""Whole-view rebuilds on request (a ``locale`` message), coalesced and spread out.

A connection that asks again while its rebuild is pending gets one rebuild; the rebuilds run one
at a time in a task of their own, :data:`~harness.web.limits.COALESCE_S` after the first request,
with the event loop free (network included) between two of them — so a flood of requests from
many connections never holds the loop for more than one view.
"""

from __future__ import annotations

import asyncio
from collections import deque

from .connection import Connection
from .limits import COALESCE_S


class Rebuilds:
    def __init__(self) -> None:
        self._pending: deque[Connection] = deque()
        self._task: asyncio.Task[None] | None = None

    def request(self, conn: Connection) -> None:
        """Send ``conn`` its room, view and result again soon (once, however often asked)."""
        if not conn.ask_rebuild():
            return
        self._pending.append(conn)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        await asyncio.sleep(COALESCE_S)
        while self._pending:
            conn = self._pending.popleft()
            conn.rebuild_started()
            if conn.room is not None and not conn.closed:
                conn.room.send_all(conn)
            await asyncio.sleep(0)  # the loop polls the network before the next rebuild

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
