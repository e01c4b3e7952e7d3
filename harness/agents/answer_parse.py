"""Reading a model's answer strictly: a JSON object whose ``choice`` is exactly one of the option
ids (text may be wrapped in one ```json fence), or with ``shape="set"`` an ``answer`` listing a
subset of them (:func:`parse_answer`); an answer the token limit cut (:func:`truncated_answer`);
and the corrective re-prompt that names what was wrong (:func:`correction_message`).  The rules of
a valid answer are :class:`~harness.agents.llm_agent.LLMAgent`'s contract."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from .decision_record import (
    TRUNCATED,
    cap_text,
)
from .key_redaction import redact
from .providers.provider_contract import (
    REASON_MAX_CHARS,
    AnswerShape,
)

__all__ = [
    "ParsedAnswer",
    "correction_message",
    "parse_answer",
    "read_answer_object",
    "set_choice",
    "truncated_answer",
]


_FENCE = re.compile(r"\A```(?:json)?[ \t]*\n(.*?)\n?[ \t]*```\Z", re.DOTALL)


@dataclass(frozen=True)
class ParsedAnswer:
    """Result of :func:`parse_answer`: ``error_kind is None`` iff ``choice`` is a listed id."""

    choice: str | None
    reason: str | None = None
    error_kind: Literal["unparseable", "illegal_option", "truncated"] | None = None
    problem: str | None = None
    signal: Any = None  # the answer object's ``signal`` as sent (table talk), unchecked


def truncated_answer(parsed: ParsedAnswer, finish_reason: str | None) -> ParsedAnswer:
    """``parsed`` as a ``truncated`` answer when the token limit cut it (``finish_reason``
    ``length``) and it could not be read; otherwise ``parsed`` unchanged (a cut answer that still
    parses strictly was complete, and an illegal option is the model's own choice)."""
    if finish_reason != "length" or parsed.error_kind != "unparseable":
        return parsed
    problem = f"it was cut off at the token limit before it was complete ({parsed.problem})"
    return ParsedAnswer(None, parsed.reason, error_kind="truncated", problem=problem)


def parse_answer(
    raw: str | None, option_ids: Sequence[str], shape: AnswerShape = "one"
) -> ParsedAnswer:
    """Strictly parse ``raw`` as ``{"choice": <option id>, "reason": <str, optional>}``.

    The stripped text (optionally inside one ```json fence) must be a JSON object whose
    ``choice`` is a string equal to one of ``option_ids``. No fuzzy matching, substring search or
    case folding; an object that repeats a key (``{"choice": "a", "choice": "b"}``) is
    ``unparseable``.  The reason is kept up to ``REASON_MAX_CHARS`` characters.

    ``shape="set"``: the object's ``answer`` must be an array of strings, each one of
    ``option_ids`` and none repeated; ``choice`` is then that subset as a JSON array in the order
    of ``option_ids`` (``[]`` for none).
    """
    obj, problem = read_answer_object(raw)
    if obj is None:
        return ParsedAnswer(None, error_kind="unparseable", problem=problem)
    reason = (
        cap_text(obj["reason"], REASON_MAX_CHARS) if isinstance(obj.get("reason"), str) else None
    )
    if shape == "set":
        parsed = _parse_set(obj.get("answer"), option_ids, reason)
        return replace(parsed, signal=obj.get("signal")) if parsed.error_kind is None else parsed
    choice = obj.get("choice")
    if not isinstance(choice, str):
        return ParsedAnswer(
            None, reason, error_kind="unparseable", problem='it has no string "choice" field'
        )
    if choice not in option_ids:
        return ParsedAnswer(
            choice,
            reason,
            error_kind="illegal_option",
            problem=f"{_quote(choice)} is not one of the listed option ids",
        )
    return ParsedAnswer(choice, reason, signal=obj.get("signal"))


def read_answer_object(raw: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object of an answer: the stripped text, optionally inside one ```json fence, no
    key repeated in any object.  Returns ``(object, None)`` or ``(None, problem)``."""
    text = (raw or "").strip()
    if not text:
        return None, "the answer is empty"
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys)
    except _RepeatedKey as repeated:
        return None, f"it repeats the key {_quote(repeated.key)}"
    except (json.JSONDecodeError, RecursionError):
        return None, "it is not a JSON object"
    if not isinstance(obj, dict):
        return None, "it is not a JSON object"
    return obj, None


def _parse_set(value: Any, option_ids: Sequence[str], reason: str | None) -> ParsedAnswer:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problem = 'it has no "answer" array of option id strings'
        return ParsedAnswer(None, reason, error_kind="unparseable", problem=problem)
    for v in value:
        if v not in option_ids:
            problem = f"{_quote(v)} is not one of the listed option ids"
            return ParsedAnswer(v, reason, error_kind="illegal_option", problem=problem)
    if len(set(value)) != len(value):
        twice = next(v for v in value if value.count(v) > 1)
        problem = f"it lists {_quote(twice)} more than once"
        return ParsedAnswer(None, reason, error_kind="unparseable", problem=problem)
    return ParsedAnswer(set_choice([o for o in option_ids if o in value]), reason)


def set_choice(ids: Sequence[str]) -> str:
    """The chosen value of a set answer: the JSON array of ``ids``."""
    return json.dumps(list(ids), ensure_ascii=False)


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` refusing an object that names a key twice."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _RepeatedKey(key)
        obj[key] = value
    return obj


def _quote(text: str, limit: int = 80) -> str:
    text = redact(text)  # before cutting: a key cut in half would escape redaction
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return json.dumps(short, ensure_ascii=False)


def correction_message(
    parsed: ParsedAnswer, option_ids: Sequence[str], shape: AnswerShape = "one"
) -> str:
    """The short user message that names the problem of an invalid answer."""
    listed = ", ".join(option_ids)
    fmt = '{"answer": ["<option id>", ...]}' if shape == "set" else '{"choice": "<option id>"}'
    if parsed.error_kind == "illegal_option" and parsed.choice is not None:
        return (
            f"Your answer {_quote(parsed.choice)} is not one of the listed option ids. "
            f"Answer with a JSON object {fmt} using one of: {listed}"
        )
    if parsed.error_kind == TRUNCATED:
        return (
            "Your answer was cut off at the token limit before it was complete. "
            f"Answer with only a JSON object {fmt} using one of: {listed} "
            "— keep the reason to one short sentence, or leave it out."
        )
    return (
        f"Your answer could not be read: {parsed.problem}. "
        f"Answer with only a JSON object {fmt} using one of: {listed}"
    )
