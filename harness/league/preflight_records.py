"""What a preflight gives: the one-line stop (:class:`PreflightError`, defined with the checks
that ask no model in :mod:`harness.play.model_checks`), each model's sample
(:class:`ProbeResult`, with its :class:`RequestSize`), the report of a run that may start
(:class:`PreflightReport`), and the ledger lines of the calls it made (:func:`spend_lines`,
:func:`record_spend`: the preflight's calls are real spend, kept in the run's ``spend.jsonl``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.agents.decision_record import ANSWERED_KINDS, ModelDecisionRecord
from harness.agents.model_spec import ModelSpec
from harness.play.ledger import SPEND_FILE, SpendLine, append_spend, now_utc
from harness.play.model_checks import PreflightError

from .runner import CONFIG_FILE

__all__ = [
    "ColdRead",
    "PreflightError",
    "PreflightReport",
    "ProbeResult",
    "RequestSize",
    "last_error",
    "record_spend",
    "request_size",
    "spend_lines",
    "timer",
]


@dataclass(frozen=True)
class RequestSize:
    """The sample request's size and the longest request the seat may send, in tokens counted
    with the seat's own counter (``reported``: the server's count of the sample, 0 if none)."""

    sample_tokens: int
    longest_tokens: int
    policy: str
    reported: int = 0

    @property
    def scale(self) -> float:
        """How many times longer than the sample the longest request is."""
        return self.longest_tokens / self.sample_tokens if self.sample_tokens else 1.0


@dataclass(frozen=True)
class ColdRead:
    """A short request no prefix cache can hold (a random first line): ``tokens`` prompt tokens
    as the server counted them, read in ``latency_s`` — the server's cold reading rate."""

    tokens: int
    latency_s: float

    @property
    def rate(self) -> float:
        """Prompt tokens read per second, cold (the call's overhead included: a lower bound)."""
        return self.tokens / self.latency_s if self.latency_s > 0 else math.inf


@dataclass(frozen=True)
class ProbeResult:
    """What the sample decision of one model player's (spec, locale) pair gave; ``asked`` is
    false for a player whose pair an earlier player's sample answered."""

    player: str
    spec: ModelSpec
    record: ModelDecisionRecord
    locale: str = "en"
    players: tuple[str, ...] = ()  # every player of the pair (asked results)
    asked: bool = True
    size: RequestSize | None = None
    cold: ColdRead | None = None  # the server's cold reading rate, when it was measured

    @property
    def call_latency_s(self) -> float:
        """The last call's latency (the one that answered), else the decision's."""
        if self.record.attempts:
            return self.record.attempts[-1].latency_s
        return self.record.latency_s

    @property
    def warm_share(self) -> float | None:
        """The share of the answering call's prompt tokens the server reported as read from its
        prefix cache (``None`` when it reported none, or no call answered)."""
        if not self.record.attempts:
            return None
        tokens = self.record.attempts[-1].tokens
        if tokens.cached_input is None or tokens.input <= 0:
            return None
        return tokens.cached_input / tokens.input


@dataclass
class PreflightReport:
    """The lines to show once every model passed (one per model, then warnings)."""

    results: list[ProbeResult] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    spend: list[SpendLine] = field(default_factory=list)  # one ledger line per call made


def spend_lines(player: str, spec: ModelSpec, record: ModelDecisionRecord) -> list[SpendLine]:
    """One preflight ledger line per call of ``record`` (cache hits cost nothing)."""
    out = []
    prices = spec.price_book()
    for a in record.attempts:
        if a.cached:
            continue
        failed = a.error_kind is not None and a.error_kind not in ANSWERED_KINDS
        line = SpendLine(
            at=now_utc(),
            player=player,
            provider=spec.provider,
            model=spec.model,
            outcome="failed" if failed else "answered",
            error_kind=a.error_kind if failed else None,
            latency_s=round(a.latency_s, 6),
            input_tokens=a.tokens.input,
            cached_input_tokens=a.tokens.cached_input,
            output_tokens=a.tokens.output,
            reasoning_tokens=a.tokens.reasoning,
            purpose="preflight",
            finish_reason=a.finish_reason,
        )
        line.price(prices)
        out.append(line)
    return out


def request_size(seat: Any, record: ModelDecisionRecord) -> RequestSize | None:
    """The sample's request size and the longest request ``seat`` may send (see the module
    docstring), or ``None`` when the seat's conversation does not count tokens."""
    conv = getattr(getattr(seat, "llm", None), "conversation", None)
    count = getattr(conv, "tokens", None)
    if conv is None or count is None or not record.messages:
        return None
    sample = int(count(conv.system())) + int(count(record.messages[0]["content"]))
    policy = str(getattr(conv, "policy", None) or "conversation")
    budget = getattr(conv, "context_tokens", None)
    room = budget - int(getattr(conv, "reserve_tokens", 0)) if budget else None
    if policy == "conversation":
        longest = room if room is not None else sample
    elif policy == "log":
        longest = sample + int(getattr(conv, "log_feed_tokens", 0))
        longest = min(longest, room) if room is not None else longest
    else:
        longest = sample
    first = record.attempts[0].tokens.input if record.attempts else 0
    return RequestSize(sample, max(sample, longest), policy, int(first or 0))


def last_error(record: ModelDecisionRecord) -> str:
    for a in reversed(record.attempts):
        if a.error_kind:
            return f"{a.error_kind}: {a.error_message}" if a.error_message else a.error_kind
    return "no call was made"


def timer(spec: ModelSpec) -> str:
    return f"{spec.decision_seconds:g} s"


def record_spend(run_dir: Path, spend: Sequence[SpendLine]) -> None:
    """Append the preflight's ``spend`` to the ledger of the run folder ``run_dir`` (when it has
    one: a run being resumed whose preflight failed)."""
    if not spend or not (run_dir / CONFIG_FILE).exists():
        return
    append_spend(run_dir / SPEND_FILE, spend)
