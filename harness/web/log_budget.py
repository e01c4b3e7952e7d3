"""The server's log under a flood: a line a client can cause is written at most once per
:data:`EVERY_S` (:class:`LogBudget`, a logging filter on the server's loggers).

Each message (its template, before its arguments are filled in) has its own budget; the next line
let through says how many like it were held back.  Tracebacks of client-caused errors are never
written: the transport logs such an error as one short line (:mod:`.transport`).
"""

from __future__ import annotations

import logging
import time

EVERY_S = 10.0
MAX_MESSAGES = 256  # templates remembered; past it the oldest are forgotten
SERVER_LOGGERS = ("uvicorn.error", "harness.web.transport")


class LogBudget(logging.Filter):
    def __init__(self, every_s: float = EVERY_S) -> None:
        super().__init__()
        self.every_s = every_s
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        last, held = self._seen.get(key, (float("-inf"), 0))
        if now - last < self.every_s:
            self._seen[key] = (last, held + 1)
            return False
        if held:
            record.msg = f"{record.msg} ({held} more like it in the last {now - last:.0f} s)"
        self._seen.pop(key, None)
        self._seen[key] = (now, 0)
        while len(self._seen) > MAX_MESSAGES:
            del self._seen[next(iter(self._seen))]
        return True


def install(every_s: float = EVERY_S) -> None:
    """Put a :class:`LogBudget` on each of :data:`SERVER_LOGGERS` (once)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, LogBudget) for f in logger.filters):
            logger.addFilter(LogBudget(every_s))
