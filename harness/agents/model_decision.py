"""One model decision of an :class:`~harness.agents.llm_agent.LLMAgent`: its state while it is
decided (:class:`Decision`: messages, attempts, corrections, retries; :class:`Call`: one provider
call), and its record (:func:`decision_record`), with the helpers that store model text."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .answer_parse import ParsedAnswer
from .conversation import Conversation, final_turn
from .decision_record import (
    Attempt,
    FallbackReason,
    ModelDecisionRecord,
    TokenCounts,
    cap_text,
    sha256_text,
    sum_reported,
)
from .key_redaction import redact
from .pricing import PriceBook
from .providers.provider_contract import (
    AnswerMode,
    AnswerShape,
    Provider,
    ProviderReply,
)
from .providers.provider_errors import (
    ContextOverflow,
    TransientProviderError,
)
from .table_signals import SignalRefused, read_signal

__all__ = ["Call", "Decision", "RecordedAgent", "decision_record", "exchange", "one_line", "stored"]


class RecordedAgent(Protocol):
    """What :func:`decision_record` reads of the agent that decided."""

    provider: Provider
    model: str
    answer_mode: AnswerMode
    prices: PriceBook
    conversation: Conversation
    fallback_policy: str
    signal_names: list[str] | None


@dataclass
class Call:
    """Outcome of one provider call (or cache hit)."""

    reply: ProviderReply | None
    error: TransientProviderError | ContextOverflow | None
    latency_s: float
    cached: bool


@dataclass
class Decision:
    """Mutable state of one ``decide`` call."""

    options: tuple[str, ...]
    messages: list[dict[str, str]]
    shape: AnswerShape = "one"
    context: list[dict[str, str]] = field(default_factory=list)  # earlier turns of the seat
    attempts: list[Attempt] = field(default_factory=list)
    parsed: ParsedAnswer | None = None
    fallback: FallbackReason | None = None
    retries: int = 0
    corrections: int = 0
    compacted_to: int | None = None  # the budget the history was compacted to after an overflow
    counted: int | None = None  # the seat's own count of the request last answered


def decision_record(
    state: Decision,
    chosen: str,
    system_sha: str,
    context: Mapping[str, Any],
    latency_s: float,
    agent: RecordedAgent,
) -> ModelDecisionRecord:
    """The record of one decision of ``agent`` (its provider, model, answer mode, prices,
    conversation, fallback policy and the seat names of its signals)."""
    spent = [a for a in state.attempts if not a.cached]
    totals = TokenCounts(
        input=sum(a.tokens.input for a in spent),
        cached_input=sum_reported(a.tokens.cached_input for a in spent),
        output=sum(a.tokens.output for a in spent),
        reasoning=sum(a.tokens.reasoning for a in spent),
    )
    if totals.input == 0 and totals.output == 0:
        cost: float | None = 0.0
    else:
        cost = agent.prices.cost(
            agent.model,
            input_tokens=totals.input,
            cached_input_tokens=totals.cached_input or 0,
            output_tokens=totals.output,
            provider=agent.provider.name,
        )
    parsed = state.parsed
    record = ModelDecisionRecord(
        game_id=_opt_str(context.get("game_id")),
        decision_index=context.get("decision_index"),
        seat=context.get("seat"),
        role=_opt_str(context.get("role")),
        player=_opt_str(context.get("player")),
        provider=agent.provider.name,
        model=agent.model,
        decision_kind=_opt_str(context.get("decision_kind")),
        answer_mode=agent.answer_mode,
        options=list(state.options),
        view=_view_dict(context.get("view_json")),
        system_prompt_sha256=system_sha,
        messages=state.messages,
        history=agent.conversation.policy,
        context_messages=len(state.context),
        context_sha256=_messages_sha(state.context) if state.context else None,
        compacted=agent.conversation.compacted and len(state.options) > 1,
        context_compacted_to=state.compacted_to,
        attempts=state.attempts,
        parsed_choice=parsed.choice if parsed is not None else None,
        reason=parsed.reason if parsed is not None else None,
        chosen=chosen,
        fallback=state.fallback,
        fallback_policy=agent.fallback_policy if state.fallback is not None else None,
        latency_s=latency_s,
        input_tokens=totals.input,
        cached_input_tokens=totals.cached_input,
        output_tokens=totals.output,
        reasoning_tokens=totals.reasoning,
        cost_usd=cost,
        cached=bool(state.attempts) and all(a.cached for a in state.attempts),
    )
    signal = parsed.signal if parsed is not None and state.fallback is None else None
    if agent.signal_names is not None and signal is not None:
        try:
            record.signal = read_signal(signal, agent.signal_names).model_dump(exclude_none=True)
        except SignalRefused as refused:
            record.signal_refused = f"{refused.code}: {refused}"
    return record


def exchange(messages: Sequence[dict[str, str]], attempts: Sequence[Any]) -> list[dict[str, str]]:
    """What a decision adds to the seat's conversation: its messages, then the final answer."""
    final = final_turn(attempts)
    return [*messages, final] if final is not None else list(messages)


def _messages_sha(messages: Sequence[dict[str, str]]) -> str:
    return sha256_text(json.dumps(list(messages), ensure_ascii=False, sort_keys=True))


def stored(text: str | None) -> str | None:
    """Model output as stored in an attempt: keys redacted first (a key cut in half at the cap
    would escape redaction), then cut to ``STORED_TEXT_CHARS``."""
    return None if text is None else cap_text(redact(text))


def one_line(text: str, limit: int = 500) -> str:
    """``text`` on one line, at most ``limit`` characters, API keys redacted (it is written)."""
    line = " ".join(redact(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _view_dict(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, str):
        loaded = json.loads(value)
        return loaded if isinstance(loaded, dict) else {"value": loaded}
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"context['view_json'] must be a dict or JSON text, not {type(value).__name__}")
