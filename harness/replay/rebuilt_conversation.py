"""A model seat's conversation rebuilt from its decision records.

With the ``conversation`` history policy a record stores only what its decision added (the new
user message, corrective re-prompts); the earlier messages of the request were the seat's
previous decisions in the same game.  :func:`conversation_context` puts them back together and
checks them against the record's ``context_sha256``, so ``inspect`` and the HTML report show the
exact prompt the model got.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.agents.conversation import final_turn
from harness.agents.decision_record import sha256_text
from harness.records import DecisionLine


@dataclass(frozen=True)
class Context:
    """The messages before a decision's own, and whether they match the recorded hash."""

    messages: list[dict[str, str]]
    verified: bool


def _sha(messages: Sequence[dict[str, str]]) -> str:
    return sha256_text(json.dumps(list(messages), ensure_ascii=False, sort_keys=True))


def _added(model: dict[str, Any]) -> list[dict[str, str]]:
    """What a decision added to the conversation: its messages up to the last answer."""
    messages = list(model.get("messages") or [])
    final = final_turn(model.get("attempts") or [])
    if final is not None:
        messages.append(final)
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=-1)
    return messages[: last + 1]


def conversation_context(decisions: Sequence[DecisionLine], target: DecisionLine) -> Context:
    """The earlier messages of ``target``'s request (empty for other history policies)."""
    model = target.model or {}
    wanted = int(model.get("context_messages") or 0)
    if model.get("history") != "conversation" or wanted == 0:
        return Context([], True)
    history: list[dict[str, str]] = []
    for d in decisions:
        if d.index >= target.index:
            break
        m = d.model or {}
        if d.seat != target.seat or not m.get("messages"):
            continue
        if int(m.get("context_messages") or 0) == 0:
            history = []
        history = [*history, *_added(m)]
    ok = len(history) == wanted and _sha(history) == model.get("context_sha256")
    return Context(history, ok)


__all__ = ["Context", "conversation_context"]
