"""Progress of a long command, shown the same way by every command.

On a terminal: a rich progress bar with the count, elapsed time and ETA.  Anywhere else (a log
file, a pipe, CI): one plain line every ``interval`` seconds (10 by default) and a last line when
the work ends, so a log shows that a long run is alive and how far it got::

    balance: 6,200/12,000 tables (51.7 %) · 31 s · ETA 29 s

Progress goes to stderr; stdout stays for the command's results and its final JSON line.
Usage::

    with Progress("balance", total=len(jobs), unit="tables") as bar:
        for outcome in work():
            bar.advance(1, note=f"fallbacks {k}")

Work whose units can each take longer than the interval (a league game with a slow model) runs
:meth:`Progress.heartbeat` beside it, so that a line still comes every ``interval`` seconds.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

__all__ = ["PLAIN_INTERVAL_S", "Progress", "duration"]

PLAIN_INTERVAL_S = 10.0


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """A progress display for ``total`` units of work (``None``: unknown total, no ETA).

    ``terminal`` forces the bar (True) or the plain lines (False); by default the bar is used
    when ``stream`` is a terminal.  ``enabled=False`` shows nothing at all.
    """

    def __init__(
        self,
        what: str,
        total: int | None,
        *,
        unit: str = "games",
        done: int = 0,
        stream: TextIO | None = None,
        interval: float = PLAIN_INTERVAL_S,
        enabled: bool = True,
        terminal: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.total = total
        self.unit = unit
        self.done = done
        self.start_done = done
        self.note = ""
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.enabled = enabled
        self.clock = clock
        if terminal is None:
            isatty = getattr(self.stream, "isatty", None)
            terminal = bool(isatty and isatty())
        self.terminal = terminal
        self._bar: Any = None
        self._task: Any = None
        self._t0 = 0.0
        self._last_line = 0.0
        self._closed = False

    # ----------------------------------------------------------------- lifecycle
    def __enter__(self) -> Progress:
        self._t0 = self._last_line = self.clock()
        if self.enabled and self.terminal:
            self._start_bar()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close(finished=exc_type is None)

    def close(self, finished: bool = True) -> None:
        """Stop the display; the plain form ends with one summary line."""
        if self._closed:
            return
        self._closed = True
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.stop()
        else:
            self._line(final=True, stopped=not finished)

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        self._bar = Bar(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(self.unit),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[note]}"),
            console=Console(file=self.stream),
            transient=False,
        )
        self._bar.start()
        self._task = self._bar.add_task(
            self.what, total=self.total, completed=self.done, note=self.note
        )

    # ----------------------------------------------------------------- updates
    def advance(self, n: int = 1, note: str | None = None) -> None:
        self.update(self.done + n, note)

    def update(self, done: int, note: str | None = None, total: int | None = None) -> None:
        """Set the count (and the note shown after it, and the total when it becomes known)."""
        self.done = done
        if note is not None:
            self.note = note
        if total is not None:
            self.total = total
        if not self.enabled or self._closed:
            return
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=self.total, note=self.note)
            return
        if self.clock() - self._last_line >= self.interval:
            self._line()

    def refresh(self, note: str | None = None) -> None:
        """Show the display again without new progress (a long unit of work is still alive): a
        plain line once ``interval`` seconds have passed since the last one."""
        self.update(self.done, note)

    async def heartbeat(self, note: Callable[[], str] | None = None) -> None:
        """Refresh every ``interval`` seconds until cancelled (run it as a task beside the work),
        so that a unit of work longer than the interval still shows the run is alive."""
        import asyncio

        while not self._closed:
            if self.terminal:
                wait = min(self.interval, 1.0)
            else:  # until the next line is due (a decision may have printed one meanwhile)
                wait = self._last_line + self.interval - self.clock()
            await asyncio.sleep(max(0.05, wait))
            self.refresh(note() if note is not None else None)

    # ----------------------------------------------------------------- plain lines
    def eta(self) -> float | None:
        """Seconds left at the rate so far (None before any progress or without a total)."""
        elapsed = self.clock() - self._t0
        made = self.done - self.start_done
        if self.total is None or made <= 0 or elapsed <= 0:
            return None
        return max(0.0, (self.total - self.done) * elapsed / made)

    def text(self, final: bool = False, stopped: bool = False) -> str:
        """The plain progress line."""
        elapsed = self.clock() - self._t0
        count = f"{self.done:,}" if self.total is None else f"{self.done:,}/{self.total:,}"
        parts = [f"{self.what}: {count} {self.unit}"]
        if self.total:
            parts[0] += f" ({100 * self.done / self.total:.1f} %)"
        if final:
            parts.append(("stopped after " if stopped else "done in ") + duration(elapsed))
        else:
            parts.append(duration(elapsed))
            left = self.eta()
            if left is not None:
                parts.append(f"ETA {duration(left)}")
        if self.note:
            parts.append(self.note)
        return " · ".join(parts)

    def _line(self, final: bool = False, stopped: bool = False) -> None:
        self._last_line = self.clock()
        try:
            self.stream.write(self.text(final, stopped) + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed log must not stop the work
            pass
