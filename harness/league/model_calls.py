"""Per-player counts of model decisions and model calls, read from a run's game files.

* A **model decision** is a decision of a model seat with more than one option; a single option is
  taken without calling the model, so it is counted apart (``single_option``) and never enters a
  rate.
* A **model call** is one attempt of a model decision (first call, retry after an error, or
  corrective re-prompt after an invalid answer), as stored in the decision's model record.

Rates per decision are shares of decisions (at most 100 %): a decision with two invalid answers
counts once in ``invalid_decisions``.  Answers cut by the token limit (``truncated``) and requests
the server refused as longer than the context (``context_overflow``) are counted apart from the
model's invalid answers and from the other failed calls.  Cached input tokens are summed over the
answered calls that reported them (``cached_reported_calls`` of ``answered_calls``); their share
is of those calls' input tokens only, ``None`` when no call reported them.  Rates per call are shares of calls.  Every rate is ``None``
when its denominator is zero, so reports show "–" instead of NaN.

Latencies are over what was answered: call latency over the **answered calls** (an answer came
back, valid or not; not from the response cache), decision latency over the model decisions the
model answered itself (no fallback).  A failed call — a connection or server error, a timeout, a
request refused as too long — often fails at once and would pull the median towards 0 s; failed
calls are counted apart (``failed_calls``), and fallbacks have their own rates.

Pure Python (no pandas): the HTML summary and the pandas statistics both build on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.agents.decision_record import (
    ANSWERED_KINDS,
    CONTEXT_OVERFLOW,
    INVALID_KINDS,
    TRUNCATED,
)
from harness.play.players import SEATED_KINDS
from harness.records import DecisionLine, GameRecord, RunStore
from harness.records.store import DamagedGame

from .stats_basic import percentile, share

__all__ = [
    "DEFAULT_HISTORY",
    "ModelCounts",
    "count_model_calls",
    "history_policies",
    "model_games",
]

DEFAULT_HISTORY = "conversation"


@dataclass
class ModelCounts:
    """What one model player's seats did over a run (see the module docstring)."""

    player: str
    model: str | None = None
    history: str | None = None  # the history policy recorded in the game files' seating
    decisions: int = 0  # model decisions: more than one option
    single_option: int = 0  # taken without a model call
    fallbacks: Counter[str] = field(default_factory=Counter)  # by reason
    # (reason, last error kind) of each fallback: ("error", "connection_error")
    fallback_causes: Counter[tuple[str, str]] = field(default_factory=Counter)
    invalid_decisions: int = 0  # with at least one invalid answer
    truncated_decisions: int = 0  # with at least one answer cut by the token limit
    timeout_decisions: int = 0  # with a timed-out call, or cut off by the decision timer
    lost_records: int = 0  # model decisions without a model record (cut off by the timer)
    calls: int = 0
    invalid_calls: int = 0
    timeout_calls: int = 0
    truncated_calls: int = 0  # answers cut by the token limit before they could be read
    overflow_calls: int = 0  # requests refused as longer than the model's context
    error_calls: int = 0  # other failed calls: server, connection, rate limit, bad response
    call_latencies: list[float] = field(default_factory=list)  # answered calls only
    decision_latencies: list[float] = field(default_factory=list)  # decisions without fallback
    input_tokens: int = 0
    cached_input_tokens: int = 0  # over the calls that reported them
    output_tokens: int = 0
    answered_calls: int = 0  # calls (not from the response cache) that got an answer back
    cached_reported_calls: int = 0  # of those, the calls whose cached tokens were reported
    cached_reported_input: int = 0  # the input tokens of those calls
    games_read: int = 0

    # ------------------------------------------------------------------ rates (None when 0/0)
    @property
    def fallback_total(self) -> int:
        return sum(self.fallbacks.values())

    @property
    def fallback_per_decision(self) -> float | None:
        return share(self.fallback_total, self.decisions)

    @property
    def invalid_per_decision(self) -> float | None:
        return share(self.invalid_decisions, self.decisions)

    @property
    def timeout_per_decision(self) -> float | None:
        return share(self.timeout_decisions, self.decisions)

    @property
    def failed_calls(self) -> int:
        """Calls that got no answer: timeouts, requests refused as too long, other errors."""
        return self.timeout_calls + self.overflow_calls + self.error_calls

    @property
    def fallback_per_call(self) -> float | None:
        return share(self.fallback_total, self.calls)

    @property
    def invalid_per_call(self) -> float | None:
        return share(self.invalid_calls, self.calls)

    @property
    def timeout_per_call(self) -> float | None:
        return share(self.timeout_calls, self.calls)

    @property
    def error_per_call(self) -> float | None:
        return share(self.error_calls, self.calls)

    @property
    def truncated_per_decision(self) -> float | None:
        return share(self.truncated_decisions, self.decisions)

    @property
    def truncated_per_call(self) -> float | None:
        return share(self.truncated_calls, self.calls)

    @property
    def overflow_per_call(self) -> float | None:
        return share(self.overflow_calls, self.calls)

    @property
    def cached_tokens(self) -> int | None:
        """Cached input tokens over the calls that reported them; ``None``: none reported."""
        return self.cached_input_tokens if self.cached_reported_calls else None

    @property
    def calls_per_decision(self) -> float | None:
        return share(self.calls, self.decisions)

    @property
    def cached_input_share(self) -> float | None:
        """Cached share of the input tokens of the calls that reported cached tokens."""
        if not self.cached_reported_calls:
            return None
        return share(self.cached_input_tokens, self.cached_reported_input)

    def call_latency(self, q: float) -> float | None:
        """A percentile of the answered calls' latencies in seconds (``q = 0.5`` median,
        ``0.95`` p95)."""
        return percentile(self.call_latencies, q)

    def decision_latency(self, q: float) -> float | None:
        """A percentile of the latencies of the decisions the model answered itself."""
        return percentile(self.decision_latencies, q)

    @property
    def mean_decision_latency(self) -> float | None:
        """The mean latency of the decisions the model answered itself, in seconds."""
        return share(sum(self.decision_latencies), len(self.decision_latencies))

    def reasons_text(self) -> str:
        """``error 35 (connection_error 35), timeout 2`` — fallbacks by reason and cause."""
        parts = []
        for reason, k in self.fallbacks.most_common():
            causes = [
                f"{cause} {n}"
                for (r, cause), n in self.fallback_causes.most_common()
                if r == reason
            ]
            parts.append(f"{reason} {k}" + (f" ({', '.join(causes)})" if causes else ""))
        return ", ".join(parts)

    # ------------------------------------------------------------------ counting
    def add(self, d: DecisionLine) -> None:
        """Count one decision line of this player's model seat."""
        if len(d.options) < 2:
            self.single_option += 1
            return
        self.decisions += 1
        if not d.fallback and not (d.model or {}).get("fallback"):
            self.decision_latencies.append(d.latency_s)
        m: Mapping[str, Any] = d.model or {}
        attempts = [a for a in m.get("attempts") or [] if isinstance(a, Mapping)]
        kinds = [a.get("error_kind") for a in attempts]
        if d.model is None:
            self.lost_records += 1
        if d.fallback:
            self.fallbacks[d.fallback] += 1
            cause = next((k for k in reversed(kinds) if k), None)
            if cause is None and d.model is None:
                cause = "decision timer" if d.fallback == "timeout" else None
            own = ("invalid_answer", TRUNCATED, CONTEXT_OVERFLOW)
            if cause is not None and d.fallback not in own:
                self.fallback_causes[(d.fallback, cause)] += 1
        invalid = sum(1 for k in kinds if k in INVALID_KINDS)
        truncated = sum(1 for k in kinds if k == TRUNCATED)
        timeouts = sum(1 for k in kinds if k == "timeout")
        self.calls += len(attempts)
        self.invalid_calls += invalid
        self.truncated_calls += truncated
        self.overflow_calls += sum(1 for k in kinds if k == CONTEXT_OVERFLOW)
        self.timeout_calls += timeouts
        self.error_calls += sum(
            1
            for k in kinds
            if k and k not in ANSWERED_KINDS and k not in ("timeout", CONTEXT_OVERFLOW)
        )
        self.invalid_decisions += int(invalid > 0)
        self.truncated_decisions += int(truncated > 0)
        self.timeout_decisions += int(timeouts > 0 or d.fallback == "timeout")
        for a in attempts:
            if a.get("cached"):
                continue
            if a.get("error_kind") is None or a.get("error_kind") in ANSWERED_KINDS:
                self.call_latencies.append(float(a.get("latency_s") or 0.0))
                self.answered_calls += 1
                tokens = a.get("tokens") if isinstance(a.get("tokens"), Mapping) else {}
                cached = tokens.get("cached_input", 0)  # records before: always a number
                if cached is not None:
                    self.cached_reported_calls += 1
                    self.cached_reported_input += int(tokens.get("input") or 0)
                    self.cached_input_tokens += int(cached)
        self.input_tokens += int(m.get("input_tokens") or 0)
        self.output_tokens += int(m.get("output_tokens") or 0)


def model_games(games: Iterable[GameRecord]) -> list[GameRecord]:
    """The games with at least one model seat."""
    return [g for g in games if any(o.kind in SEATED_KINDS for o in g.seat_outcomes)]


def count_model_calls(run_dir: str | Path, games: Iterable[GameRecord]) -> dict[str, ModelCounts]:
    """Counts per model player over ``games`` (finished games of the run, void ones included),
    read from ``run_dir/games/<id>.jsonl``.  A game whose file is missing or torn is skipped
    (its seat outcomes in ``games.jsonl`` still count everywhere else)."""
    store = RunStore(Path(run_dir))
    out: dict[str, ModelCounts] = {}
    for g in model_games(games):
        for o in g.seat_outcomes:
            if o.kind in SEATED_KINDS and o.player not in out:
                out[o.player] = ModelCounts(o.player, o.model)
        try:
            start, decisions, _ = store.read_game(g.game_id)
        except DamagedGame as e:  # reported; its seat outcomes still count elsewhere
            e.skipped()
            continue
        model_seats = {s.seat: s.player for s in start.seating if s.kind in SEATED_KINDS}
        for s in start.seating:
            history = getattr(s, "history", None)
            if s.kind == "model" and history and s.player in out:
                out[s.player].history = str(history)
        seen: set[str] = set()
        for d in decisions:
            player = model_seats.get(d.seat)
            if player is None:
                continue
            counts = out.setdefault(player, ModelCounts(player))
            counts.add(d)
            seen.add(player)
        for player in seen:
            out[player].games_read += 1
    return out


def history_policies(
    config: Mapping[str, Any] | None, counts: Mapping[str, ModelCounts] | None = None
) -> dict[str, str]:
    """Each model player's history policy: as recorded in its games' seating, else from the
    run's ``config.json`` (``players[].model.history``), else ``conversation``."""
    out: dict[str, str] = {}
    for p in (config or {}).get("players") or []:
        if not isinstance(p, Mapping) or p.get("kind") != "model":
            continue
        model = p.get("model") if isinstance(p.get("model"), Mapping) else {}
        out[str(p.get("name"))] = str(model.get("history") or DEFAULT_HISTORY)
    for player, c in (counts or {}).items():
        if c.history:
            out[player] = c.history
    return out
