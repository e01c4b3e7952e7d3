"""How the LLM agent gets the messages of each request: a :class:`Conversation` per seat and game.

:class:`harness.agents.transcript.Transcript` is the real one (history policies).  A plain prompt
builder with ``system_prompt(view)`` and ``decision_prompt(view, options)`` (one self-contained
user message per decision, no history) is wrapped by :class:`SingleMessage`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .decision_record import ANSWERED_KINDS, quote_text

Message = dict[str, str]
# Attempt error kinds of a call that got an answer (valid, or invalid or cut but said).
ANSWER_KINDS = (None, *ANSWERED_KINDS)


class PromptBuilder(Protocol):
    """Builds the system prompt and one self-contained user prompt per decision."""

    def system_prompt(self, view: Any) -> str: ...

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str: ...


@runtime_checkable
class Conversation(Protocol):
    """The messages of one seat's requests in one game.

    ``observe(view)`` is called for every decision of the seat (with one option too);
    ``turn(view, options)`` returns the messages after the system prompt for a request, the last
    one being the new user message; ``commit(exchange, fallback)`` closes it with what the
    decision added (that user message, then answers and corrective re-prompts in order);
    ``skipped()`` drops a turn that was never sent.  ``compacted`` says whether the last turn
    restarted the conversation to fit the context budget.

    Optional: ``compact_to(view, budget=None) -> (messages, budget) | None`` redoes the pending
    turn compacted to fit ``budget`` tokens (default: half the pending request), for a request
    the server refused as longer than the model's context; ``None`` when it cannot get shorter.
    A conversation without it falls back at once on a context overflow.
    Optional: ``blocking`` (true when building a turn may wait on the network, e.g. a server's
    tokenize endpoint: the agent then builds it in a worker thread) and
    ``reported(system, messages, prompt_tokens)`` (the server's count of a request the
    conversation built, which corrects its later budgets).
    """

    @property
    def policy(self) -> str | None: ...

    @property
    def compacted(self) -> bool: ...

    def observe(self, view: Any) -> None: ...

    def system(self, view: Any = None) -> str: ...

    def turn(self, view: Any, options: Sequence[str]) -> list[Message]: ...

    def commit(self, exchange: Sequence[Message], fallback: str | None = None) -> None: ...

    def skipped(self) -> None: ...


class SingleMessage:
    """A :class:`PromptBuilder` as a :class:`Conversation` without history."""

    policy: str | None = None
    compacted = False

    def __init__(self, builder: PromptBuilder) -> None:
        self.builder = builder

    def observe(self, view: Any) -> None:
        pass

    def system(self, view: Any = None) -> str:
        return self.builder.system_prompt(view)

    def turn(self, view: Any, options: Sequence[str]) -> list[Message]:
        return [{"role": "user", "content": self.builder.decision_prompt(view, options)}]

    def commit(self, exchange: Sequence[Message], fallback: str | None = None) -> None:
        pass

    def skipped(self) -> None:
        pass


def as_conversation(builder: Conversation | PromptBuilder) -> Conversation:
    if isinstance(builder, Conversation):
        return builder
    return SingleMessage(builder)


def answer_text(attempt: Any) -> str | None:
    """The answer an attempt got (forced tool arguments, else the reply text), ``None`` when
    the call failed.  Works on :class:`~harness.agents.decision_record.Attempt` and its dict."""

    def get(key: str) -> Any:
        if isinstance(attempt, Mapping):
            return attempt.get(key)
        return getattr(attempt, key, None)

    if get("error_kind") not in ANSWER_KINDS:
        return None
    tool = get("tool_arguments")
    return str(tool) if tool is not None else str(get("raw_text") or "")


def final_turn(attempts: Sequence[Any]) -> Message | None:
    """The assistant message a decision's last attempt adds to the seat's conversation: a valid
    answer as given, an invalid one quoted short (as corrective re-prompts quote it), nothing
    when the last call failed."""
    if not attempts:
        return None
    last = attempts[-1]
    text = answer_text(last)
    if text is None:
        return None
    kind = last.get("error_kind") if isinstance(last, Mapping) else last.error_kind
    return {
        "role": "assistant",
        "content": (text or "(no answer)") if kind is None else quote_text(text),
    }


__all__ = [
    "Conversation",
    "Message",
    "PromptBuilder",
    "SingleMessage",
    "answer_text",
    "final_turn",
    "as_conversation",
]
