"""A running digest of a game's event log, stored on streamed decision lines.

``events_digest`` of a decision is the sha256 chain over the canonical JSON of every engine event
before it: ``h_0 = sha256(b"")`` and each event extends the hash.  A resumed game replays the
recorded choices through the engine and compares the digest at every decision, so any event that
differs from the recorded game is caught at the first decision after it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

__all__ = ["EventDigest"]


class EventDigest:
    """Feed it the growing event list; :meth:`advance` hashes only the events not yet seen."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.count = 0

    def advance(self, events: Sequence[dict[str, Any]]) -> str:
        """Hash ``events[self.count:]`` and return the digest of the whole log so far."""
        for event in events[self.count :]:
            line = json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            self._hash.update(line.encode("utf-8"))
            self._hash.update(b"\n")
        self.count = len(events)
        return self._hash.hexdigest()
