"""Whole games under each history policy through every provider path (openai, anthropic,
litellm→openai, litellm→anthropic) against the fake servers: what the server received is the
seat's transcript, the records name the policy, and conversations only grow."""

from __future__ import annotations

import json

import pytest

from tests.agents.test_model_games import play, spec_for
from tests.fakes.backends import Backend

POLICIES = ("conversation", "log", "since_last")


def _texts(body: dict) -> list[tuple[str, str]]:
    """(role, text) of the non-system messages of a recorded request body (either API)."""
    out = []
    for m in body.get("messages", []):
        if m.get("role") == "system":
            continue
        content = m["content"]
        if isinstance(content, list):
            content = "".join(b.get("text", "") for b in content if isinstance(b, dict))
        out.append((m["role"], content))
    return out


@pytest.mark.parametrize("policy", POLICIES)
def test_whole_game_under_each_history_policy(backend: Backend, policy: str) -> None:
    played = play(spec_for(backend, history=policy))
    assert played.result is not None and played.result.winning_side is not None
    asked = [r for r in played.records if len(r.options) > 1]
    assert len(asked) >= 10
    assert all(r.history == policy and r.fallback is None for r in asked)
    requests = [_texts(r.body) for r in backend.script.model_requests]
    assert len(requests) == len(asked)
    last_request: dict[int, list[tuple[str, str]]] = {}
    last_choice: dict[int, str] = {}
    compacted = 0
    for record, sent in zip(asked, requests, strict=True):
        seat = int(record.seat or 0)
        assert sent[-1] == ("user", record.messages[0]["content"])
        assert record.context_messages == len(sent) - 1
        if policy == "conversation":
            prev = last_request.get(seat)
            if record.compacted:  # the context budget restarted the conversation
                assert len(sent) == 1 and "**Public record of the game so far**" in sent[0][1]
                compacted += 1
            elif prev is not None:  # the previous request, the seat's answer, the new message
                assert sent[: len(prev)] == prev and sent[len(prev)][0] == "assistant"
                assert json.loads(sent[len(prev)][1])["choice"] == last_choice[seat]
                assert len(sent) == len(prev) + 2
            else:
                assert sent[0][1].startswith("# Your game")
            last_request[seat], last_choice[seat] = sent, record.chosen
        else:
            assert len(sent) == 1 and sent[0][1].startswith("# Your game")
    assert policy != "conversation" or len(last_request) >= 2
    # The fake's model is unknown to LiteLLM's map: the default 8,192-token budget applies and a
    # whole game does not fit in it.
    assert (compacted > 0) == (policy == "conversation")
    if policy == "log":
        assert any("**The game so far:**" in s[-1][1] for s in requests)
