"""Per-provider concurrency and rate limits shared by every game of a run, and the one place every
model call of a run passes through (so that each call is counted in the spend ledger and none is
sent once the run is stopping)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

# on_call(reply or None, error or None, cancelled, latency_s) after every call
CallHook = Callable[[Any, BaseException | None, bool, float], None]


class RateLimiter:
    """At most ``concurrency`` calls at once and ``requests_per_minute`` calls per minute."""

    def __init__(self, concurrency: int, requests_per_minute: float | None) -> None:
        self._sem = asyncio.Semaphore(concurrency)
        self._interval = 60.0 / requests_per_minute if requests_per_minute else 0.0
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> None:
        await self._sem.acquire()
        if not self._interval:
            return
        try:
            async with self._lock:
                now = time.monotonic()
                wait = self._next - now
                self._next = max(now, self._next) + self._interval
            if wait > 0:
                await asyncio.sleep(wait)
        except BaseException:  # cancelled while waiting for its turn: give the slot back
            self._sem.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._sem.release()


class LimitedProvider:
    """A provider whose calls pass through a shared :class:`RateLimiter`.

    ``stopping()`` is asked just before each call is sent: when it is true the call is not sent
    and the asking task is cancelled.  ``on_call`` hears of every call sent, when it ends.
    """

    def __init__(
        self,
        provider: Any,
        limiter: RateLimiter,
        *,
        on_call: CallHook | None = None,
        stopping: Callable[[], bool] | None = None,
    ) -> None:
        self._provider = provider
        self._limiter = limiter
        self._on_call = on_call
        self._stopping = stopping
        self.name = provider.name
        self.default_answer_mode = provider.default_answer_mode
        self.supported_answer_modes = provider.supported_answer_modes

    async def complete(self, request: Any) -> Any:
        async with self._limiter:
            if self._stopping is not None and self._stopping():
                raise asyncio.CancelledError("the run is stopping")
            t0 = time.monotonic()
            try:
                reply = await self._provider.complete(request)
            except asyncio.CancelledError:
                self._report(None, None, True, t0)
                raise
            except Exception as e:
                self._report(None, e, False, t0)
                raise
            self._report(reply, None, False, t0)
            return reply

    def _report(self, reply: Any, error: BaseException | None, cancelled: bool, t0: float) -> None:
        if self._on_call is not None:
            self._on_call(reply, error, cancelled, time.monotonic() - t0)

    async def aclose(self) -> None:
        await self._provider.aclose()
