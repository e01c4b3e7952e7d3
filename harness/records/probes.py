"""Belief probe records on disk: ``<run>/probes.jsonl``, one
:class:`~harness.agents.probe_record.ProbeRecord` per probe (see ``docs/probes.md``).

Lines are appended and flushed one by one as probes end.  A probe is identified by
(``game_id``, ``seat``, ``decision_index``); a resumed game may ask the probe of the decision it
was interrupted at again, and readers keep the last line of each key (:func:`read_probes`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from harness.agents.probe_record import (
    PROBE_SCHEMA_VERSION,
    ProbeAttempt,
    ProbeBeliefs,
    ProbeRecord,
    ProbeTrigger,
)

from .record_redaction import redact_text
from .store import read_records

__all__ = [
    "PROBES_FILE",
    "PROBE_SCHEMA_VERSION",
    "ProbeAttempt",
    "ProbeBeliefs",
    "ProbeRecord",
    "ProbeSink",
    "ProbeTrigger",
    "read_probes",
]

PROBES_FILE = "probes.jsonl"


class ProbeSink:
    """Appends probe records to ``<run>/probes.jsonl``, one flushed line each."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def __call__(self, record: ProbeRecord) -> None:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(redact_text(record.model_dump_json()) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_probes(run_dir: str | Path) -> list[ProbeRecord]:
    """The run's probe records, the last line of each (game, seat, decision) kept, in file
    order of those last lines."""
    lines = read_records(Path(run_dir) / PROBES_FILE, ProbeRecord, "a probe record")
    last: dict[tuple[str, int, int], ProbeRecord] = {}
    for r in lines:
        key = (r.game_id, r.seat, r.decision_index)
        last.pop(key, None)
        last[key] = r
    return list(last.values())
