"""The seat's own deadline: how long before the table's timer a model seat must give its answer.

A model seat stops asking the model a margin before the table's decision timer, so that it can
return its decision record (or its recorded fallback) before the timer cuts it off.  What must fit
in that margin is the end of the call (its cancellation), building the record and getting the
seat's task scheduled again — all of which wait for the event loop.  Under load (dozens of
concurrent games in one loop) the loop runs callbacks late, so a fixed share of the timer is not
enough.  :func:`seat_margin` therefore takes the largest of

* ``MARGIN_MIN_S`` and ``MARGIN_FRACTION`` of the timer (an idle loop), and
* ``LAG_FACTOR`` times the largest event-loop lag seen in the last ``LAG_WINDOW_S`` seconds (or
  the current one, when the loop is in a long stretch of work right now) plus ``LAG_BASE_S`` (a
  loaded loop),

capped at ``MARGIN_MAX_FRACTION`` of the timer so that the model always gets most of it.

The lag is measured by :class:`LoopLag`, one small task per event loop that sleeps
``LAG_INTERVAL_S`` and records how late it wakes up; it starts on first use (or explicitly with
:func:`watch_loop`, e.g. when a league run starts) and ends with its loop.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import deque

__all__ = ["LoopLag", "loop_lag", "seat_margin", "watch_loop"]

MARGIN_MIN_S = 0.05
MARGIN_FRACTION = 0.05
MARGIN_MAX_FRACTION = 0.5
LAG_FACTOR = 3.0
LAG_BASE_S = 0.1
LAG_INTERVAL_S = 0.05
LAG_WINDOW_S = 5.0


class LoopLag:
    """How late the event loop runs a timer, over a sliding window."""

    def __init__(self, window_s: float = LAG_WINDOW_S, interval_s: float = LAG_INTERVAL_S) -> None:
        self.window_s = window_s
        self.interval_s = interval_s
        self._samples: deque[tuple[float, float]] = deque()  # (time, lag), lag decreasing
        self._task: asyncio.Task[None] | None = None
        self._due: float | None = None  # when the watcher should wake next

    def note(self, now: float, lag: float) -> None:
        """Record a lag measured at ``now`` (keeps only what can still be the window's max)."""
        while self._samples and self._samples[-1][1] <= lag:
            self._samples.pop()
        self._samples.append((now, lag))
        while self._samples and self._samples[0][0] < now - self.window_s:
            self._samples.popleft()

    def recent_max(self, now: float | None = None) -> float:
        """The largest lag of the window (0 before any sample)."""
        now = time.monotonic() if now is None else now
        while self._samples and self._samples[0][0] < now - self.window_s:
            self._samples.popleft()
        return self._samples[0][1] if self._samples else 0.0

    def stalled_for(self, now: float | None = None) -> float:
        """How late the watcher is right now (the loop is in a long stretch of work)."""
        now = time.monotonic() if now is None else now
        return max(0.0, now - self._due) if self._due is not None else 0.0

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch(), name="loop lag")

    async def _watch(self) -> None:
        while True:
            self._due = time.monotonic() + self.interval_s
            await asyncio.sleep(self.interval_s)
            now = time.monotonic()
            self.note(now, max(0.0, now - self._due))


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopLag] = (
    weakref.WeakKeyDictionary()
)


def loop_lag() -> LoopLag | None:
    """The lag monitor of the running loop, started on first use (``None`` outside a loop)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    lag = _by_loop.get(loop)
    if lag is None:
        lag = _by_loop[loop] = LoopLag()
    lag.start()
    return lag


def watch_loop() -> None:
    """Start measuring the running loop's lag now (before the first deadline is needed)."""
    loop_lag()


def seat_margin(timer_s: float, lag_s: float | None = None) -> float:
    """Seconds a seat with a ``timer_s`` decision timer keeps in hand (see the module docstring).
    ``lag_s`` defaults to the running loop's recent maximum lag."""
    if lag_s is None:
        monitor = loop_lag()
        lag_s = max(monitor.recent_max(), monitor.stalled_for()) if monitor is not None else 0.0
    margin = max(MARGIN_MIN_S, MARGIN_FRACTION * timer_s)
    if lag_s > 0:
        margin = max(margin, LAG_BASE_S + LAG_FACTOR * lag_s)
    return min(margin, MARGIN_MAX_FRACTION * timer_s)
