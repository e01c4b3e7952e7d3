"""Context budgets count prompt tokens exactly as LiteLLM's ``token_counter`` does, with the
tokenizer looked up once per seat instead of on every count."""

from __future__ import annotations

import pytest

from harness.agents import tokenizers
from harness.agents.tokenizers import prompt_token_counter
from harness.views import tokens

TEXTS = [
    "",
    "Bang! at seat 3 (Willy the Kid), 2 cards in hand.",
    "\u00e9\u00e8 \u2665 \u2663 " * 500,
    "<|endoftext|> is ordinary text here",
    "x" * 40_000,  # long enough for LiteLLM to extrapolate from samples
]


@pytest.mark.parametrize("model", ["gpt-4o", "instant", "claude-3-5-haiku-20241022"])
def test_counts_equal_litellm_token_counter(model: str) -> None:
    litellm = tokens.litellm_module()
    count = prompt_token_counter(model)
    assert [count(t) for t in TEXTS] == [litellm.token_counter(model=model, text=t) for t in TEXTS]
    assert count(TEXTS[1]) > 5


def test_tokenizer_is_looked_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    looked_up: list[str] = []
    real = tokenizers._litellm_count_function

    def spy(litellm: object, model: str) -> object:
        looked_up.append(model)
        return real(litellm, model)

    monkeypatch.setattr(tokenizers, "_litellm_count_function", spy)
    count = prompt_token_counter("gpt-4o")
    assert looked_up == []  # nothing is looked up before the first count
    counts = [count(t) for t in TEXTS[:3]]
    assert looked_up == ["gpt-4o"] and counts[1] > 5


def test_disabled_counter_counts_zero_as_litellm_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens.litellm_module(), "disable_token_counter", True)
    assert prompt_token_counter("gpt-4o")(TEXTS[1]) == 0
