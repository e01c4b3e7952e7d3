"""The saved record of one model decision (versioned pydantic model, one JSON line each).

The system prompt is not stored in the record: ``system_prompt_sha256`` names it and the text is
stored once elsewhere (see ``LLMAgent(system_prompt_sink=...)``). ``messages`` are the
user/assistant turns actually sent, including corrective re-prompts (which quote at most
:data:`QUOTE_CHARS` characters of an invalid answer).

A model's answer is stored once per attempt (``tool_arguments``, else ``raw_text``), cut to
:data:`STORED_TEXT_CHARS` characters; ``answer_chars`` and ``answer_sha256`` describe the whole
answer as received, so a cut answer is recognisable (``answer_chars`` larger than what is stored)
and comparable.  Reasoning text is cut the same way.

Every answered attempt keeps the call's ``finish_reason`` in one vocabulary for every vendor
(:data:`FinishReason`) and the vendor's own word in ``finish_reason_raw``.  An answer cut by the
token limit (``length``) that does not parse is ``truncated``, kept apart from the model's invalid
answers.  Cached input tokens the provider did not report are ``None`` ("not reported"), never 0;
records written before that distinction hold 0 and read as reported zeros.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

__all__ = [
    "ANSWERED_KINDS",
    "CONTEXT_OVERFLOW",
    "FinishReason",
    "INVALID_KINDS",
    "TRUNCATED",
    "Attempt",
    "AttemptErrorKind",
    "FallbackReason",
    "ModelDecisionRecord",
    "QUOTE_CHARS",
    "STORED_TEXT_CHARS",
    "TokenCounts",
    "cap_text",
    "quote_text",
    "sha256_text",
    "sum_reported",
]

# Attempt error kinds of an answer the model gave that was not valid (before any fallback).
INVALID_KINDS: tuple[str, ...] = ("unparseable", "illegal_option")
# An answer cut by the token limit before it could be read: the model's words, but not invalid.
TRUNCATED = "truncated"
# Error kinds of a call the model answered (its words came back) that was not a valid answer.
ANSWERED_KINDS: tuple[str, ...] = (*INVALID_KINDS, TRUNCATED)
# The request did not fit the model's context (the server refused it; no words came back).
CONTEXT_OVERFLOW = "context_overflow"

# Why a call's answer ended, the same words for every vendor (the vendor's own in
# ``finish_reason_raw``): ``stop`` (the answer was complete), ``length`` (the token limit cut
# it), ``tool_calls`` (a tool call), ``content_filter`` (refused or filtered), ``other``.
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "other"]

AttemptErrorKind = Literal[
    "unparseable",
    "illegal_option",
    "truncated",
    "context_overflow",
    "timeout",
    "rate_limit",
    "server_error",
    "connection_error",
    "bad_response",
    # external agents (harness.agents.external_seat): the agent raised; its answer was too large
    "agent_error",
    "oversized",
]
FallbackReason = Literal["timeout", "error", "invalid_answer", "truncated", "context_overflow"]


STORED_TEXT_CHARS = 16 * 1024  # a stored answer or reasoning text is cut after this many chars
QUOTE_CHARS = 200  # a corrective re-prompt quotes at most this much of an invalid answer
ELLIPSIS = "…"


def sha256_text(text: str) -> str:
    """Hex SHA-256 of the UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cap_text(text: str | None, limit: int = STORED_TEXT_CHARS) -> str | None:
    """``text`` when it has at most ``limit`` characters, else its first ``limit`` characters
    followed by ``…``."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + ELLIPSIS


def quote_text(text: str | None, limit: int = QUOTE_CHARS) -> str:
    """At most ``limit`` characters of ``text`` for a message back to the model (``…`` marks a
    cut); ``(no answer)`` when there is none."""
    if not text:
        return "(no answer)"
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def sum_reported(values: Any) -> int | None:
    """The sum of the values that are not ``None``; ``None`` when none is (nothing reported)."""
    known = [int(v) for v in values if v is not None]
    return sum(known) if known else None


class TokenCounts(BaseModel):
    """Tokens of one call; ``input`` includes ``cached_input``, ``output`` includes ``reasoning``.
    ``cached_input`` is ``None`` when the provider did not report cached tokens."""

    model_config = ConfigDict(extra="forbid")

    input: int = 0
    cached_input: int | None = None
    output: int = 0
    reasoning: int = 0


class Attempt(BaseModel):
    """One model call (or cache hit) and what came of it.

    ``error_kind`` is ``None`` for a valid answer; ``unparseable`` / ``illegal_option`` for an
    invalid answer; ``truncated`` for an answer the token limit cut before it could be read
    (``finish_reason`` ``length``); ``context_overflow`` when the server refused the request as
    longer than the model's context; otherwise the transient error that made the call fail
    (``bad_response``: a success status whose body was not the vendor's answer).
    ``finish_reason`` / ``finish_reason_raw`` (normalised / the vendor's word) are set when an
    answer came back and the vendor said why it ended.  ``raw_text``, ``tool_arguments``
    and ``reasoning`` are cut after :data:`STORED_TEXT_CHARS` characters; ``answer_chars`` and
    ``answer_sha256`` are the length and hash of the whole answer (``tool_arguments``, else
    ``raw_text``) when one came back.
    """

    model_config = ConfigDict(extra="forbid")

    raw_text: str | None = None
    tool_arguments: str | None = None
    reasoning: str | None = None
    answer_chars: int | None = None
    answer_sha256: str | None = None
    error_kind: AttemptErrorKind | None = None
    error_message: str | None = None
    finish_reason: FinishReason | None = None
    finish_reason_raw: str | None = None
    latency_s: float = 0.0
    tokens: TokenCounts = Field(default_factory=TokenCounts)
    cached: bool = False
    # the seat's own count of the request (a conversation with a context budget), from which it
    # learnt the server's ``tokens.input``; a resumed seat learns it again
    counted_input_tokens: int | None = None


class ModelDecisionRecord(BaseModel):
    """Everything about one decision taken by an :class:`~harness.agents.llm_agent.LLMAgent`.

    Invariants: ``chosen`` is one of ``options`` (a set answer, ``LLMAgent.decide(...,
    answer_shape="set")``: the JSON array of the chosen ids); ``fallback is None`` iff ``chosen`` came from
    the model (then ``parsed_choice == chosen``) or was the only option (then ``attempts == []``);
    token totals are the sums over ``attempts`` (``cached_input_tokens`` over the attempts that
    reported it, ``None`` when none did).  ``context_compacted_to`` is the token budget the
    seat's history was compacted to after the server refused the request as too long for the
    model's context (the request was then sent again once).
    """

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    game_id: str | None = None
    decision_index: int | None = None
    seat: int | str | None = None
    role: str | None = None
    player: str | None = None
    provider: str
    model: str
    decision_kind: str | None = None
    answer_mode: str
    options: list[str]
    view: dict[str, Any] | None = None
    system_prompt_sha256: str
    messages: list[dict[str, str]] = Field(default_factory=list)
    # The seat's history policy; with ``conversation`` the request was the seat's earlier
    # messages (``context_messages`` of them, sha256 of their JSON in ``context_sha256``) followed
    # by ``messages``; ``context_messages == 0`` starts a new (or compacted) conversation.
    history: str | None = None
    context_messages: int = 0
    context_sha256: str | None = None
    compacted: bool = False
    context_compacted_to: int | None = None
    attempts: list[Attempt] = Field(default_factory=list)
    parsed_choice: str | None = None
    reason: str | None = None
    chosen: str
    fallback: FallbackReason | None = None
    fallback_policy: str | None = None
    latency_s: float = 0.0
    input_tokens: int = 0
    cached_input_tokens: int | None = None  # None: no call reported its cached tokens
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = None
    cached: bool = False
    # table talk (a league with ``signals: true``): the signal the answer added, and why it was
    # refused (then it never reached the table); the choice stands either way
    signal: dict[str, Any] | None = None
    signal_refused: str | None = None

    @model_serializer(mode="wrap")
    def _without_silence(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A decision without table talk is written as before table talk existed."""
        data: dict[str, Any] = handler(self)
        for key in ("signal", "signal_refused"):
            if data.get(key) is None:
                data.pop(key, None)
        return data
