"""The record of one belief probe (``docs/probes.md``): a versioned pydantic model, written to
``<run>/probes.jsonl`` by :mod:`harness.records.probes`.

The record keeps the question (players by seat and name, roles), the answer as parsed
(renormalised to sum to 1) or the reason it is invalid, each call, and the two baselines computed
from the same view at the same moment: the counting observer and the rule bot's suspicion.  The
truth is not in the record: the report joins the game's seat roles (``games.jsonl``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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
