"""A request longer than the model's context (issue 26): the seat's history is compacted to half
and the request sent once more; the game goes on, the server's words never reach the model's
conversation, and a resumed seat rebuilds the compacted conversation from the records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers.provider_contract import Provider, ProviderReply, ProviderRequest
from harness.agents.providers.provider_errors import ContextOverflow
from harness.agents.transcript import Transcript, approx_tokens
from harness.engine import SeatView
from harness.views.names import default_names
from tests.model_game import play_model_game

WORDS = "This model's maximum context length is {limit} tokens"


class _SmallContext(Provider):
    """An in-process model whose context holds ``limit`` tokens (as ``approx_tokens`` counts):
    a longer request is refused as the servers do; others get the first option."""

    name = "openai"
    default_answer_mode = "json_object"
    supported_answer_modes = frozenset({"json_object"})

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.requests: list[tuple[ProviderRequest, bool]] = []  # (request, refused)

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        used = approx_tokens(req.system) + sum(approx_tokens(m["content"]) for m in req.messages)
        refused = used > self.limit
        self.requests.append((req, refused))
        if refused:
            raise ContextOverflow(WORDS.format(limit=self.limit), status=400)
        return ProviderReply(
            text=json.dumps({"choice": req.option_ids[0]}), input_tokens=used, output_tokens=3
        )


def _agent(provider: Provider) -> LLMAgent:
    return LLMAgent(
        provider,
        "m",
        Transcript(default_names(4), "en", "conversation"),  # no budget of its own
        fallback=lambda v, o: o[-1],
        price_table=PriceBook({}, use_litellm=False),
    )


def _limit() -> int:
    system = Transcript(default_names(4), "en", "conversation").system()
    return approx_tokens(system) + 2500


def _game(provider: _SmallContext, seed: int = 13) -> list[tuple[SeatView, Sequence[str], Any]]:
    return play_model_game([_agent(provider) for _ in range(4)], seed, 400)


def test_an_overflow_compacts_the_history_and_asks_once_more() -> None:
    provider = _SmallContext(_limit())
    decisions = _game(provider)
    records = [r for _, o, r in decisions if len(o) > 1]
    overflowed = [r for r in records if r["attempts"][0]["error_kind"] == "context_overflow"]
    assert overflowed, "the game never outgrew the context"
    for r in overflowed:
        kinds = [a["error_kind"] for a in r["attempts"]]
        assert kinds in (["context_overflow", None], ["context_overflow", "context_overflow"])
        assert r["context_compacted_to"] is not None and r["compacted"]
        assert r["fallback"] == (None if kinds[-1] is None else "context_overflow")
        assert "maximum context length" in r["attempts"][0]["error_message"]
    assert any(r["fallback"] is None for r in overflowed)
    # Each refused request is followed by one shorter request (the compacted history).
    for i, (req, refused) in enumerate(provider.requests):
        if refused and i + 1 < len(provider.requests):
            retry = provider.requests[i + 1][0]
            assert sum(map(len, (m["content"] for m in retry.messages))) < sum(
                map(len, (m["content"] for m in req.messages))
            )
    # The server's words never enter what the model is sent.
    assert all(
        "maximum context length" not in m["content"]
        for req, _ in provider.requests
        for m in req.messages
    )


def test_a_resumed_seat_rebuilds_the_history_compacted_after_an_overflow() -> None:
    provider = _SmallContext(_limit())
    decisions = _game(provider)
    last = max(
        i
        for i, (_, o, r) in enumerate(decisions)
        if len(o) > 1 and r["context_compacted_to"] is not None
    )
    k = next(i for i in range(last + 1, len(decisions)) if len(decisions[i][1]) > 1)
    view_k = decisions[k][0]
    fresh = [_agent(_SmallContext(10**9)) for _ in range(4)]
    for view, options, record in decisions[:k]:
        fresh[view.viewer].restore(view, options, record)  # raises when a prompt differs
    assert all(not a.provider.requests for a in fresh)  # type: ignore[attr-defined]
    conversation = fresh[view_k.viewer].conversation
    conversation.observe(view_k)
    replayed = conversation.turn(view_k, decisions[k][1])
    sent = [
        r for r, refused in provider.requests if r.messages[-1] == decisions[k][2]["messages"][0]
    ]
    assert replayed == sent[0].messages
