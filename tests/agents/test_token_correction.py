"""A seat's token count is corrected by what the server reports: against a fake server whose
tokenizer counts far more tokens than the seat's estimate (one token per UTF-8 byte), the seat
learns the ratio from the first answer's ``prompt_tokens`` and compacts its conversation before
a request would overflow the context, where the uncorrected count lets requests overflow."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.agents import tokenizers
from harness.agents.transcript import DEFAULT_RESERVE_TOKENS
from harness.views.tokens import TokenCounter
from tests.agents.test_model_games import play, spec_for
from tests.fakes.backends import KEY_ENV, SECRET_KEY, Backend, make_backend
from tests.fakes.openai_server import FakeOpenAIServer

CONTEXT = 24_000


@pytest.fixture
def openai_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[Backend]:
    pytest.importorskip("openai")
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    tokenizers.forget_servers()
    backend = make_backend("openai")
    backend.script.usage_bytes_per_token = 1.0  # the server's tokenizer: a token per byte
    try:
        yield backend
    finally:
        backend.server.stop()
        tokenizers.forget_servers()


def _requests(backend: Backend, context: int = CONTEXT) -> list[tuple[int, bool, int]]:
    """(seat, compacted, reported prompt tokens) of every answered model request, in order."""
    played = play(spec_for(backend, context_tokens=context, decision_seconds=30.0))
    asked = [r for r in played.records if len(r.options) > 1]
    out = [(int(r.seat or 0), r.compacted, r.attempts[0].tokens.input)
           for r in asked if r.attempts and r.attempts[0].tokens.input]  # fmt: skip
    assert len(out) >= 20
    return out


def test_reported_counts_correct_the_budget_and_compact_before_an_overflow(
    openai_backend: Backend,
) -> None:
    requests = _requests(openai_backend)
    first: set[int] = set()
    later = []
    for seat, _compacted, reported in requests:
        if seat in first:
            later.append(reported)
        first.add(seat)
    # after its first answer, every request of a seat fits the context with the reserve
    assert later and max(later) + DEFAULT_RESERVE_TOKENS <= CONTEXT
    assert any(compacted for _, compacted, _ in requests)


def test_without_the_correction_the_same_game_overflows(
    openai_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: the same counts, nothing learned — the estimate lets requests pass the
    context (what the correction prevents)."""
    monkeypatch.setattr(TokenCounter, "learn", lambda self, counted, reported: None)
    requests = _requests(openai_backend)
    assert max(reported for _, _, reported in requests) > CONTEXT


def test_with_the_servers_tokenizer_the_context_is_used_up_to_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server with a tokenize endpoint: the seat counts every request as the server does (the
    fake's usage counts the same way), so no request overflows and conversations restart only
    near the budget — the margin of an estimate would restart them much earlier."""
    pytest.importorskip("openai")
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    tokenizers.forget_servers()
    server = FakeOpenAIServer(tokenize="llama.cpp").start()
    backend = Backend("openai", "openai", "fake-gpt", server, {"base_url": server.base_url})
    try:
        requests = _requests(backend, context=16_000)
    finally:
        server.stop()
        tokenizers.forget_servers()
    assert server.tokenize_calls > 0
    reported = [n for _, _, n in requests]
    budget = 16_000 - DEFAULT_RESERVE_TOKENS
    assert max(reported) <= budget and any(compacted for _, compacted, _ in requests)
    assert max(reported) > 0.85 * budget  # the budget is used, not lost to a margin
