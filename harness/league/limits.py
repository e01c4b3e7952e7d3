"""Per-provider concurrency and rate limits shared by every game of a run."""

from __future__ import annotations

import asyncio
import time
from typing import Any


class RateLimiter:
    """At most ``concurrency`` calls at once and ``requests_per_minute`` calls per minute."""

    def __init__(self, concurrency: int, requests_per_minute: float | None) -> None:
        self._sem = asyncio.Semaphore(concurrency)
        self._interval = 60.0 / requests_per_minute if requests_per_minute else 0.0
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> None:
        await self._sem.acquire()
        if self._interval:
            async with self._lock:
                now = time.monotonic()
                wait = self._next - now
                self._next = max(now, self._next) + self._interval
            if wait > 0:
                await asyncio.sleep(wait)

    async def __aexit__(self, *exc: object) -> None:
        self._sem.release()


class LimitedProvider:
    """A provider whose calls pass through a shared :class:`RateLimiter`."""

    def __init__(self, provider: Any, limiter: RateLimiter) -> None:
        self._provider = provider
        self._limiter = limiter
        self.name = provider.name
        self.default_answer_mode = provider.default_answer_mode
        self.supported_answer_modes = provider.supported_answer_modes

    async def complete(self, request: Any) -> Any:
        async with self._limiter:
            return await self._provider.complete(request)

    async def aclose(self) -> None:
        await self._provider.aclose()
