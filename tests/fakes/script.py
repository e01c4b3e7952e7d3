"""Scripted behaviours shared by the fake OpenAI and Anthropic servers.

A :class:`Script` is a queue: each incoming model request takes the next behaviour; when the queue
is empty the default behaviour answers the first option id found in the request (the ``choice``
enum of a tool / response schema, the GBNF ``choice`` rule, or else the first backticked id or
``- `` list item of the last user message), so whole games can be played against a fake server.

Every request body is recorded (``script.requests``) so tests can inspect what the SDK really sent.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "BAD_BODY_KINDS",
    "Answer",
    "BadBody",
    "Behaviour",
    "ContextOverflow",
    "EchoKey",
    "Huge",
    "Illegal",
    "Malformed",
    "RecordedRequest",
    "Reset",
    "Script",
    "Stall",
    "Status",
    "Trickle",
    "Truncated",
    "options_in_request",
]


@dataclass(frozen=True)
class Answer:
    """Answer correctly in the requested format; ``choice=None`` means the first listed option."""

    choice: str | None = None
    reason: str | None = None
    reasoning: str | None = None  # emitted as reasoning_content / a thinking block
    signal: dict[str, Any] | None = None  # a table signal added to the answer object


@dataclass(frozen=True)
class Malformed:
    """Answer with plain text that is not the JSON answer object (and no tool call)."""

    text: str = "I will play the first card, I think."


@dataclass(frozen=True)
class Illegal:
    """Answer well-formed JSON whose choice is ``option_id`` (not a listed option)."""

    option_id: str


@dataclass(frozen=True)
class Stall:
    """Wait ``seconds`` before answering like the default (the client usually gave up by then)."""

    seconds: float


@dataclass(frozen=True)
class Status:
    """Answer an HTTP error ``code`` with the vendor's error body (and ``Retry-After``)."""

    code: int
    retry_after: float | None = None
    message: str | None = None


@dataclass(frozen=True)
class Reset:
    """Close the connection abruptly (TCP RST) without sending any response."""


BadBodyKind = Literal[
    "truncated_json",  # the vendor's JSON cut in the middle
    "html",  # a proxy's HTML error page with status 200
    "sse",  # an event stream although no stream was asked for
    "wrong_content_type",  # the vendor's JSON labelled text/plain
    "missing_fields",  # the vendor's JSON without its answer field
    "mistyped_fields",  # the answer field is a string
    "empty",  # no body at all
]
BAD_BODY_KINDS: tuple[BadBodyKind, ...] = (
    "truncated_json",
    "html",
    "sse",
    "wrong_content_type",
    "missing_fields",
    "mistyped_fields",
    "empty",
)


@dataclass(frozen=True)
class BadBody:
    """Answer HTTP 200 with a body that is not the vendor's answer (see :data:`BAD_BODY_KINDS`)."""

    kind: BadBodyKind


@dataclass(frozen=True)
class EchoKey:
    """Answer the HTTP error ``code`` with the vendor's error body quoting the request's API key
    (its ``Authorization`` bearer token or ``x-api-key``), as careless servers do."""

    code: int = 401


@dataclass(frozen=True)
class Huge:
    """Answer ``chars`` characters: the valid JSON answer with a padded ``reason`` (``valid``), or
    the padding alone (not an answer)."""

    chars: int = 200_000
    valid: bool = False

    def padding(self) -> str:
        unit = "a very long answer "
        return (unit * (self.chars // len(unit) + 1))[: self.chars]


@dataclass(frozen=True)
class Trickle:
    """Answer like the default, but send the body one byte every ``byte_delay`` seconds."""

    byte_delay: float = 0.05


@dataclass(frozen=True)
class Truncated:
    """Answer as the token limit cuts it: finish reason ``length`` (Anthropic: stop reason
    ``max_tokens``).  The answer object for ``choice`` (``None``: the first option) with a
    ``reason`` of ``reason_chars`` characters, cut after ``keep`` characters of its JSON text
    (``None``: whole, so it still parses)."""

    choice: str | None = None
    reason_chars: int = 400
    keep: int | None = 40

    def text(self, payload: dict[str, Any]) -> str:
        full = json.dumps({**payload, "reason": "because " * (self.reason_chars // 8 + 1)})
        return full if self.keep is None else full[: self.keep]


OverflowStyle = Literal["openai", "llama.cpp"]


@dataclass(frozen=True)
class ContextOverflow:
    """Refuse the request as longer than the model's context: HTTP 400 with the vendor's words
    (OpenAI ``context_length_exceeded``, llama.cpp's ``exceed_context_size_error``, Anthropic's
    "prompt is too long")."""

    style: OverflowStyle = "openai"
    prompt_tokens: int = 9000
    context_tokens: int = 8192


Behaviour = (
    Answer
    | Malformed
    | Illegal
    | Stall
    | Status
    | Reset
    | BadBody
    | EchoKey
    | Huge
    | Trickle
    | Truncated
    | ContextOverflow
)


@dataclass
class RecordedRequest:
    """One HTTP request the fake server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def _choice_enum(schema: Any) -> list[str] | None:
    if not isinstance(schema, Mapping):
        return None
    enum = schema.get("properties", {}).get("choice", {}).get("enum")
    return [str(x) for x in enum] if isinstance(enum, list) else None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", "")) for b in content if isinstance(b, Mapping) and "text" in b
        )
    return ""


_GRAMMAR_CHOICE = re.compile(r"^choice ::= (.*)$", re.MULTILINE)
_GRAMMAR_LITERAL = re.compile(r'"\\"((?:[^"\\]|\\.)*?)\\""')


def options_in_request(body: Mapping[str, Any]) -> list[str]:
    """Option ids the request offers, in order, or ``[]`` when none can be found."""
    for tool in body.get("tools") or []:
        schema = tool.get("input_schema") or tool.get("function", {}).get("parameters")
        if (found := _choice_enum(schema)) is not None:
            return found
    fmt = body.get("response_format") or {}
    for schema in (fmt.get("schema"), fmt.get("json_schema", {}).get("schema")):
        if (found := _choice_enum(schema)) is not None:
            return found
    output_format = (body.get("output_config") or {}).get("format") or body.get("output_format")
    if isinstance(output_format, Mapping) and (found := _choice_enum(output_format.get("schema"))):
        return found
    grammar = body.get("grammar")
    if isinstance(grammar, str) and (m := _GRAMMAR_CHOICE.search(grammar)):
        return [lit.replace("\\\\", "\\") for lit in _GRAMMAR_LITERAL.findall(m.group(1))]
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    text = _text_of(users[-1].get("content")) if users else ""
    ticked = re.findall(r"`([^`\s]+)`", text)
    if ticked:
        return ticked
    return [
        line[2:].split()[0]
        for line in text.splitlines()
        if line.startswith("- ") and line[2:].split()
    ]


@dataclass
class Script:
    """Queue of behaviours plus the record of received requests (thread-safe).

    ``cached_tokens`` is reported as cached prompt tokens in every answer's usage, unless
    ``report_cached`` is false: then the usage has no cached field at all (not reported).
    ``context_tokens`` is a context window: a request whose prompt (as :func:`estimate_tokens`
    counts it) is longer is refused with :class:`ContextOverflow` in ``overflow_style``, without
    taking a behaviour from the queue.
    ``default`` replaces the default behaviour (called with the request body).
    """

    cached_tokens: int = 0
    report_cached: bool = True
    context_tokens: int | None = None
    overflow_style: OverflowStyle = "openai"
    default: Callable[[Mapping[str, Any]], Behaviour] | None = None
    requests: list[RecordedRequest] = field(default_factory=list)
    # huge usage: every answer reports this many prompt tokens (spending caps trip in a few calls)
    usage_tokens: int | None = None
    # a tokenizer unlike the client's: prompt tokens reported as UTF-8 bytes / this figure
    # (rounded up) per message, plus the template's tokens (see openai_server.message_tokens)
    usage_bytes_per_token: float | None = None
    # slow server: every model request waits delay_s plus up to delay_spread_s (a seeded draw)
    delay_s: float = 0.0
    delay_spread_s: float = 0.0
    _queue: deque[Behaviour] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _rng: random.Random = field(default_factory=lambda: random.Random(0))

    def next_delay(self) -> float:
        """Seconds the next model request waits before it is handled (slow server)."""
        with self._lock:
            spread = self._rng.uniform(0.0, self.delay_spread_s) if self.delay_spread_s else 0.0
        return self.delay_s + spread

    # --- scripting (each returns self so calls chain) ---
    def push(self, behaviour: Behaviour) -> Script:
        with self._lock:
            self._queue.append(behaviour)
        return self

    def answer(
        self,
        choice_id: str | None = None,
        reason: str | None = None,
        *,
        reasoning: str | None = None,
    ) -> Script:
        return self.push(Answer(choice_id, reason, reasoning))

    def malformed(self, text: str = Malformed.text) -> Script:
        return self.push(Malformed(text))

    def illegal(self, option_id: str) -> Script:
        return self.push(Illegal(option_id))

    def stall(self, seconds: float) -> Script:
        return self.push(Stall(seconds))

    def status(
        self, code: int, retry_after: float | None = None, message: str | None = None
    ) -> Script:
        return self.push(Status(code, retry_after, message))

    def unknown_model(self) -> Script:
        return self.push(Status(404, message="model not found"))

    def reset(self) -> Script:
        return self.push(Reset())

    def bad_body(self, kind: BadBodyKind) -> Script:
        return self.push(BadBody(kind))

    def echo_key(self, code: int = 401) -> Script:
        return self.push(EchoKey(code))

    def huge(self, chars: int = 200_000, *, valid: bool = False) -> Script:
        return self.push(Huge(chars, valid))

    def trickle(self, byte_delay: float = 0.05) -> Script:
        return self.push(Trickle(byte_delay))

    def truncated(
        self, choice_id: str | None = None, *, reason_chars: int = 400, keep: int | None = 40
    ) -> Script:
        return self.push(Truncated(choice_id, reason_chars, keep))

    def context_overflow(self, style: OverflowStyle = "openai") -> Script:
        return self.push(ContextOverflow(style))

    def repeat(self, behaviours: Sequence[Behaviour]) -> Script:
        """Make the default behaviour ``behaviours`` in turn, over and over (once the queue is
        empty)."""
        items = itertools.cycle(behaviours)
        turn = threading.Lock()

        def default(body: Mapping[str, Any]) -> Behaviour:
            with turn:
                return next(items)

        self.default = default
        return self

    # --- used by the servers ---
    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def next_behaviour(self, body: Mapping[str, Any]) -> Behaviour:
        if self.context_tokens is not None:
            used = estimate_tokens(prompt_text(body))
            if used > self.context_tokens:
                return ContextOverflow(self.overflow_style, used, self.context_tokens)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.default(body) if self.default is not None else Answer()

    @property
    def pending(self) -> int:
        """Behaviours not consumed yet."""
        with self._lock:
            return len(self._queue)

    @property
    def model_requests(self) -> list[RecordedRequest]:
        """Recorded POST requests (model calls)."""
        with self._lock:
            return [r for r in self.requests if r.method == "POST"]


def answer_payload(
    behaviour: Answer | Illegal | Truncated, body: Mapping[str, Any]
) -> dict[str, Any]:
    """The JSON answer object a behaviour sends for ``body``."""
    if isinstance(behaviour, Illegal):
        return {"choice": behaviour.option_id}
    if isinstance(behaviour, Truncated):
        behaviour = Answer(behaviour.choice)
    choice = behaviour.choice
    if choice is None:
        options = options_in_request(body)
        choice = options[0] if options else "end"
    payload: dict[str, Any] = {"choice": choice}
    if behaviour.reason is not None:
        payload["reason"] = behaviour.reason
    if isinstance(behaviour, Answer) and behaviour.signal is not None:
        payload["signal"] = behaviour.signal
    return payload


def forced_tool_name(body: Mapping[str, Any]) -> str | None:
    """Name of the tool the request forces (or offers first), ``None`` when no tools were sent."""
    tools = body.get("tools") or []
    if not tools:
        return None
    choice = body.get("tool_choice")
    if isinstance(choice, Mapping):
        name = choice.get("name") or (choice.get("function") or {}).get("name")
        if isinstance(name, str):
            return name
    first = tools[0]
    return str(first.get("name") or first.get("function", {}).get("name"))


def estimate_tokens(text: str) -> int:
    """Rough token count (4 characters a token, at least 1)."""
    return max(1, len(text) // 4)


def prompt_text(body: Mapping[str, Any]) -> str:
    """All prompt text of a request (system + messages), for token estimates."""
    parts = [_text_of(body.get("system"))]
    parts += [_text_of(m.get("content")) for m in body.get("messages") or []]
    return json.dumps(parts)
