"""Belief probe records: ``<run>/probes.jsonl``, one :class:`ProbeRecord` per probe.

A probe asks a model seat, in a side request outside its game conversation, for the role
probabilities of every living player whose role it cannot see (see ``docs/probes.md``).  The
record keeps the question (players by seat and name, roles), the answer as parsed (renormalised
to sum to 1) or the reason it is invalid, each call, and the two baselines computed from the same
view at the same moment: the counting observer and the rule bot's suspicion.  The truth is not in
the record: the report joins the game's seat roles (``games.jsonl``).

Lines are appended and flushed one by one as probes end.  A probe is identified by
(``game_id``, ``seat``, ``decision_index``); a resumed game may ask the probe of the decision it
was interrupted at again, and readers keep the last line of each key (:func:`read_probes`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, ConfigDict, Field

from .redact import redact_text
from .store import read_records

PROBES_FILE = "probes.jsonl"
PROBE_SCHEMA_VERSION = 1

ProbeTrigger = Literal["every", "elimination", "round_start"]
ProbeBeliefs = dict[str, dict[str, float]]  # seat (as text) -> role -> probability


class ProbeAttempt(BaseModel):
    """One call of a probe: the answer text (capped) or the error, and its accounting."""

    model_config = ConfigDict(extra="forbid")

    raw_text: str | None = None
    error_kind: str | None = None  # invalid | truncated | a provider error kind
    error_message: str | None = None
    finish_reason: str | None = None
    latency_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0


class ProbeRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = PROBE_SCHEMA_VERSION
    game_id: str
    seat: int
    player: str
    model: str | None = None  # provider/model
    role: str  # the probing seat's own role
    decision_index: int  # the seat's decision the probe was asked before
    triggers: list[ProbeTrigger] = Field(min_length=1)
    round: int
    event_count: int
    targets: list[int]  # seats asked about
    names: list[str]  # their names as the model saw them
    roles: list[str]  # roles asked about
    prompt_sha256: str
    prompt_chars: int
    valid: bool
    invalid_reason: str | None = None
    beliefs: ProbeBeliefs | None = None  # the answer, renormalised; None when invalid
    counting: ProbeBeliefs  # the counting observer (harness.engine.role_counting)
    rulebot: ProbeBeliefs  # the rule bot's suspicion as role probabilities
    attempts: list[ProbeAttempt] = Field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    latency_s: float = 0.0


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
