"""Provider contract: one request in, one reply out.

A provider adapter turns a :class:`ProviderRequest` into exactly one vendor API call and the answer
back into a :class:`ProviderReply`. It never retries, never parses the choice and never falls back:
that lives once in :class:`~harness.agents.llm_agent.LLMAgent`. SDK errors are translated into
:mod:`harness.agents.providers.provider_errors`.

The answer format is the same for every mode: a JSON object ``{"choice": <option id>, "reason":
<optional short string>}``; a request whose ``answer_shape`` is ``"set"`` asks instead for
``{"answer": [<option id>, ...], "reason": ...}`` (any subset of the options, each at most once).
:func:`answer_schema` and :func:`answer_grammar` build the constraint that each answer mode sends.
"""

from __future__ import annotations

import abc
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, get_args

from ..decision_record import FinishReason
from ..key_redaction import register_key_env
from .provider_errors import AuthenticationFailed

__all__ = [
    "ANSWER_MODES",
    "TOOL_DESCRIPTION",
    "TOOL_NAME",
    "AnswerMode",
    "AnswerShape",
    "Provider",
    "ProviderReply",
    "ProviderRequest",
    "answer_grammar",
    "answer_schema",
    "finish_reason",
    "gbnf_literal",
    "request_grammar",
    "request_schema",
    "resolve_api_key",
    "tool_description",
]

AnswerMode = Literal["json_schema", "tool", "json_object", "grammar", "text"]
ANSWER_MODES: tuple[AnswerMode, ...] = get_args(AnswerMode)
# "one": {"choice": <option id>}; "set": {"answer": [<option id>, ...]} (a subset of the options)
AnswerShape = Literal["one", "set"]

TOOL_NAME = "choose"
TOOL_DESCRIPTION = "Submit your decision: the id of exactly one of the listed options."
SET_TOOL_DESCRIPTION = (
    "Submit your answer: the ids of every listed option that applies (maybe none)."
)
REASON_MAX_CHARS = 300


@dataclass(frozen=True)
class ProviderRequest:
    """One model call.

    ``system`` is the static system prompt (sent in the vendor's cacheable position);
    ``messages`` are the changing user/assistant turns (``{"role": ..., "content": str}``);
    ``params`` (temperature, max_tokens, ...) are passed through to the vendor call unchanged;
    ``timeout`` is in seconds; ``answer_shape`` is the answer object asked for (see the module
    docstring).
    """

    model: str
    system: str
    messages: list[dict[str, str]]
    answer_mode: AnswerMode
    option_ids: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    timeout: float = 60.0
    answer_shape: AnswerShape = "one"
    signals: bool = False  # the answer may carry one table signal (``signal_schema``)
    # another answer object than the choice (a belief probe): its JSON schema and GBNF grammar
    schema: dict[str, Any] | None = None
    grammar: str | None = None


@dataclass
class ProviderReply:
    """What came back: the answer text and/or forced tool-call arguments, plus accounting.

    ``input_tokens`` counts all prompt tokens *including* the ``cached_input_tokens`` read from
    a prompt cache; ``output_tokens`` includes ``reasoning_tokens``. Token counts are 0 when the
    API does not report them, except ``cached_input_tokens``: ``None`` when the API does not say
    (not reported is not "nothing cached"). ``finish_reason`` is why the answer ended in the
    shared vocabulary (:func:`finish_reason`), ``finish_reason_raw`` the vendor's own word.
    ``raw`` is the response body only (never headers, never keys).
    """

    text: str | None = None
    tool_arguments: str | None = None
    reasoning: str | None = None
    input_tokens: int = 0
    cached_input_tokens: int | None = None
    output_tokens: int = 0
    reasoning_tokens: int = 0
    model: str = ""
    raw: dict[str, Any] = field(default_factory=dict)
    finish_reason: FinishReason | None = None
    finish_reason_raw: str | None = None


# The vendors' words for why an answer ended (OpenAI / LiteLLM ``finish_reason``, Anthropic
# ``stop_reason``, llama.cpp, vLLM), in the shared vocabulary.
_FINISH_WORDS: dict[str, FinishReason] = {
    "stop": "stop",
    "end_turn": "stop",
    "stop_sequence": "stop",
    "eos": "stop",
    "length": "length",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "model_length": "length",  # Inspect AI
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "tool_use": "tool_calls",
    "content_filter": "content_filter",
    "refusal": "content_filter",
}


def finish_reason(raw: Any) -> FinishReason | None:
    """A vendor's finish / stop reason in the shared vocabulary: ``stop``, ``length``,
    ``tool_calls``, ``content_filter``, else ``other``; ``None`` when the vendor said nothing."""
    if raw is None or raw == "":
        return None
    return _FINISH_WORDS.get(str(raw).strip().lower(), "other")


class Provider(abc.ABC):
    """A thin adapter over one vendor API.

    Subclasses set ``name``, ``default_answer_mode`` and ``supported_answer_modes``; import their
    SDK lazily (in ``__init__``), disable the SDK's own retries, read API keys from environment
    variables only, and raise only :class:`~harness.agents.providers.provider_errors.ProviderError`
    subclasses for API failures.
    """

    name: ClassVar[str]
    default_answer_mode: AnswerMode  # class default; an instance may override it from settings
    supported_answer_modes: ClassVar[frozenset[AnswerMode]]

    @abc.abstractmethod
    async def complete(self, req: ProviderRequest) -> ProviderReply:
        """Make one call; return the reply or raise a ``ProviderError``."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release network resources (idempotent)."""


def tool_description(shape: AnswerShape = "one") -> str:
    """The description of the forced answer tool for an answer of ``shape``."""
    return SET_TOOL_DESCRIPTION if shape == "set" else TOOL_DESCRIPTION


def signal_schema() -> dict[str, Any]:
    """JSON schema of the optional ``signal`` of an answer (table talk, RULES.md §10): ``null``
    or ``{"kind": claim|mark|react, "role", "target" (a player's name), "reaction"}``; the
    fields a kind does not use are ``null``."""
    from ..table_signals import CLAIM_ROLES, REACTIONS, SIGNAL_KINDS

    def one_of(words: Sequence[str]) -> dict[str, Any]:
        return {"type": ["string", "null"], "enum": [*words, None]}

    fields = {
        "kind": {"type": "string", "enum": list(SIGNAL_KINDS)},
        "role": one_of(CLAIM_ROLES),
        "target": {"type": ["string", "null"]},
        "reaction": one_of(REACTIONS),
    }
    signal = {
        "type": "object",
        "properties": fields,
        "required": list(fields),
        "additionalProperties": False,
    }
    return {"anyOf": [signal, {"type": "null"}]}


def answer_schema(
    option_ids: Sequence[str], shape: AnswerShape = "one", signals: bool = False
) -> dict[str, Any]:
    """JSON schema of the answer object; ``choice`` is an enum of ``option_ids`` (``shape``
    ``"set"``: ``answer`` is an array of them).

    Both properties are listed as required (OpenAI strict mode demands it) but ``reason`` may be
    ``null``, so the reason stays optional in substance.  With ``signals`` the object also has a
    ``signal`` (:func:`signal_schema`), required in the same way and ``null`` for none.
    """
    if not option_ids:
        raise ValueError("answer_schema needs at least one option id")
    item = {"type": "string", "enum": list(option_ids)}
    key, value = (
        ("answer", {"type": "array", "items": item}) if shape == "set" else ("choice", item)
    )
    properties: dict[str, Any] = {key: value, "reason": {"type": ["string", "null"]}}
    if signals:
        properties["signal"] = signal_schema()
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def request_schema(req: ProviderRequest) -> dict[str, Any]:
    """The JSON schema of the answer ``req`` asks for (its own, else the choice object's)."""
    if req.schema is not None:
        return req.schema
    return answer_schema(req.option_ids, req.answer_shape, req.signals)


def request_grammar(req: ProviderRequest) -> str:
    """The GBNF grammar of the answer ``req`` asks for (its own, else the choice object's)."""
    if req.grammar is not None:
        return req.grammar
    return answer_grammar(req.option_ids, req.answer_shape, req.signals)


def gbnf_literal(text: str) -> str:
    """A GBNF string literal matching ``text`` exactly."""
    return _gbnf_literal(text)


def _gbnf_literal(text: str) -> str:
    """A GBNF string literal matching ``text`` exactly."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    escaped = escaped.replace("\r", "\\r").replace("\t", "\\t")
    return f'"{escaped}"'


def answer_grammar(
    option_ids: Sequence[str], shape: AnswerShape = "one", signals: bool = False
) -> str:
    """GBNF grammar (llama.cpp) accepting exactly the answer object for ``option_ids``.

    ``{"choice": "<id>"}`` (``shape`` ``"set"``: ``{"answer": ["<id>", ...]}`` with at most as many
    ids as there are options) optionally followed by ``, "reason": "<at most 300 chars>"``; with
    ``signals`` then optionally by ``, "signal": {"kind": ..., ...}`` (:func:`signal_schema`'s
    object, its unused fields left out).
    """
    if not option_ids:
        raise ValueError("answer_grammar needs at least one option id")
    choices = " | ".join(_gbnf_literal(json.dumps(o)) for o in option_ids)
    if shape == "set":
        more = f' ( ws "," ws choice ){{0,{len(option_ids) - 1}}}' if len(option_ids) > 1 else ""
        value = f'"\\"answer\\"" ws ":" ws "[" ws ( choice{more} )? ws "]"'
    else:
        value = '"\\"choice\\"" ws ":" ws choice'
    signal = ' ( ws "," ws "\\"signal\\"" ws ":" ws signal )?' if signals else ""
    return "\n".join(
        [
            f'root ::= "{{" ws {value} ( ws "," ws "\\"reason\\"" ws ":" ws reason )?{signal} ws "}}"',
            f"choice ::= {choices}",
            f'reason ::= "\\"" char{{0,{REASON_MAX_CHARS}}} "\\""',
            'char ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
            "ws ::= [ \\t\\n]{0,4}",
            *(_signal_rules() if signals else []),
        ]
    )


def _signal_rules() -> list[str]:
    """The GBNF rules of the optional ``signal`` object (:func:`answer_grammar`)."""
    from ..table_signals import CLAIM_ROLES, REACTIONS, SIGNAL_KINDS

    def words(items: Sequence[str]) -> str:
        return " | ".join(_gbnf_literal(json.dumps(w)) for w in items)

    def field(name: str, rule: str) -> str:
        return f'( ws "," ws "\\"{name}\\"" ws ":" ws {rule} )?'

    fields = " ".join(
        field(n, r) for n, r in (("role", "role"), ("target", "name"), ("reaction", "reaction"))
    )
    return [
        f'signal ::= "{{" ws "\\"kind\\"" ws ":" ws kind {fields} ws "}}"',
        f"kind ::= {words(SIGNAL_KINDS)}",
        f"role ::= {words(CLAIM_ROLES)}",
        f"reaction ::= {words(REACTIONS)}",
        'name ::= "\\"" char{1,64} "\\""',
    ]


def resolve_api_key(env_name: str, *, required: bool, provider: str) -> str | None:
    """Read an API key from the environment variable ``env_name`` (the only place keys live).

    Returns ``None`` when unset and not ``required``; raises ``AuthenticationFailed`` when unset
    and ``required``.  The variable's value is redacted from everything written from now on.
    """
    register_key_env(env_name)
    value = os.environ.get(env_name, "").strip()
    if value:
        return value
    if required:
        raise AuthenticationFailed(
            f"{provider}: no API key: set the environment variable {env_name}"
        )
    return None
