"""Finish reasons, answers cut by the token limit, requests longer than the context and cached
tokens not reported (issue 26), through every provider path against the fake servers."""

from __future__ import annotations

import pytest

from harness.agents.providers.provider_contract import finish_reason
from harness.agents.providers.provider_errors import (
    BadRequest,
    ContextOverflow,
    ServerError,
    error_from_status,
)
from tests.fakes.backends import OPTIONS, Backend

# What each path reports when the answer ends normally: (normalised, vendor's word).
NORMAL_END = {
    "openai": ("stop", "stop"),
    "anthropic": ("tool_calls", "tool_use"),
    "litellm-openai": ("stop", "stop"),
    "litellm-anthropic": ("stop", None),  # LiteLLM turns Anthropic's stop reasons into OpenAI's
}


def test_every_call_records_its_finish_reason(backend: Backend) -> None:
    backend.script.answer("take")
    choice, record, _ = backend.decide()
    assert choice == "take" and record.fallback is None
    attempt = record.attempts[0]
    normal, raw = NORMAL_END[backend.label]
    if backend.label == "litellm-anthropic":
        assert attempt.finish_reason in ("stop", "tool_calls")
    else:
        assert (attempt.finish_reason, attempt.finish_reason_raw) == (normal, raw)


def test_a_cut_answer_is_truncated_not_invalid_and_the_re_prompt_asks_for_less(
    backend: Backend,
) -> None:
    backend.script.truncated("take").answer("take")
    choice, record, _ = backend.decide()
    assert choice == "take" and record.fallback is None
    cut, good = record.attempts
    assert cut.error_kind == "truncated" and cut.finish_reason == "length"
    assert cut.finish_reason_raw in ("length", "max_tokens")
    assert "cut off at the token limit" in (cut.error_message or "")
    assert good.error_kind is None
    assert "cut off at the token limit" in record.messages[-1]["content"]
    assert "short" in record.messages[-1]["content"]


def test_the_last_attempt_cut_falls_back_with_reason_truncated(backend: Backend) -> None:
    backend.script.malformed().truncated("take")
    choice, record, _ = backend.decide()
    assert record.fallback == "truncated" and choice == OPTIONS[-1]
    assert [a.error_kind for a in record.attempts] == ["unparseable", "truncated"]


def test_an_invalid_answer_after_a_cut_one_falls_back_as_invalid(backend: Backend) -> None:
    backend.script.truncated().illegal("nope")
    _, record, _ = backend.decide()
    assert record.fallback == "invalid_answer"


def test_a_cut_answer_that_still_parses_is_valid(backend: Backend) -> None:
    backend.script.truncated("take", keep=None)
    choice, record, _ = backend.decide()
    assert choice == "take" and record.fallback is None
    assert record.attempts[0].finish_reason == "length"
    assert record.attempts[0].error_kind is None


@pytest.mark.parametrize("style", ["openai", "llama.cpp"])
def test_a_context_overflow_is_its_own_kind_and_falls_back(backend: Backend, style: str) -> None:
    """A history that cannot get shorter (one self-contained message) falls back at once."""
    backend.script.context_overflow(style)  # type: ignore[arg-type]
    choice, record, _ = backend.decide()
    assert record.fallback == "context_overflow" and choice == OPTIONS[-1]
    (attempt,) = record.attempts
    assert attempt.error_kind == "context_overflow"
    assert len(backend.script.model_requests) == 1
    # the server's words are recorded in the attempt, never sent to the model
    words = attempt.error_message or ""
    assert "context" in words or "too long" in words
    assert all("too long" not in m["content"] for m in record.messages)
    assert all("context size" not in m["content"] for m in record.messages)


def test_cached_tokens_not_reported_are_none(backend: Backend) -> None:
    if backend.label == "litellm-anthropic":
        pytest.skip("LiteLLM's Anthropic translation reports cache reads as 0 when none were sent")
    backend.script.report_cached = False
    _, record, _ = backend.decide()
    assert record.attempts[0].tokens.cached_input is None
    assert record.cached_input_tokens is None and record.input_tokens > 0


def test_cached_tokens_reported_are_kept_zero_too(backend: Backend) -> None:
    backend.script.cached_tokens = 5
    _, record, _ = backend.decide()
    assert record.cached_input_tokens == 5 and record.attempts[0].tokens.cached_input == 5
    backend.script.cached_tokens = 0
    _, record, _ = backend.decide()
    assert record.cached_input_tokens == 0


def test_cached_totals_count_the_calls_that_reported() -> None:
    from harness.agents.decision_record import sum_reported

    assert sum_reported([None, None]) is None
    assert sum_reported([None, 0]) == 0
    assert sum_reported([3, None, 4]) == 7


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "This model's maximum context length is 8192 tokens. However, you requested 9000"),
        (400, "request (8576 tokens) exceeds the available context size (8192 tokens)"),
        (500, "the request exceeds the available context size, try increasing it"),
        (400, "prompt is too long: 210000 tokens > 200000 maximum"),
        (400, "input length exceeds n_ctx"),
        (413, "context_length_exceeded"),
    ],
)
def test_servers_words_for_a_context_overflow_are_classified(status: int, message: str) -> None:
    error = error_from_status(status, message)
    assert isinstance(error, ContextOverflow) and not error.fatal
    assert error.kind == "context_overflow"


def test_other_bad_requests_stay_fatal() -> None:
    assert isinstance(error_from_status(400, "temperature must be <= 2"), BadRequest)
    assert isinstance(error_from_status(500, "boom"), ServerError)


def test_litellm_context_window_error_is_an_overflow() -> None:
    litellm = pytest.importorskip("litellm")
    from harness.agents.providers.openai_provider import map_openai_error

    exc = litellm.ContextWindowExceededError(
        message="too long", model="openai/fake", llm_provider="openai"
    )
    assert isinstance(map_openai_error(exc), ContextOverflow)


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("stop", "stop"),
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("length", "length"),
        ("max_tokens", "length"),
        ("tool_calls", "tool_calls"),
        ("tool_use", "tool_calls"),
        ("content_filter", "content_filter"),
        ("refusal", "content_filter"),
        ("pause_turn", "other"),
        (None, None),
    ],
)
def test_finish_reasons_share_one_vocabulary(raw: str | None, normal: str | None) -> None:
    assert finish_reason(raw) == normal
