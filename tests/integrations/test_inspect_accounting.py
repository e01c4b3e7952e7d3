"""Inspect's provider keeps the league adapters' accounting (issue 37): an answer cut at the token
limit carries finish reason ``length`` (so the decision is ``truncated``, not the model's invalid
answer), cached prompt tokens the server did not report are ``None`` ("not reported"), not 0,
and the prompt count includes the cached tokens Inspect's own ``input_tokens`` leaves out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.model import ModelOutput, ModelUsage  # noqa: E402

from harness.agents.providers.provider_contract import ProviderReply, ProviderRequest  # noqa: E402
from harness.integrations.inspect_provider import InspectProvider  # noqa: E402

REQUEST = ProviderRequest(
    model="m",
    system="rules",
    messages=[{"role": "user", "content": "choose"}],
    answer_mode="text",
    option_ids=("a", "b"),
)


class _Model:
    """An Inspect model answering ``output`` (mockllm would count the prompt with tiktoken,
    which needs a download, whenever its output has no usage)."""

    def __init__(self, output: ModelOutput) -> None:
        self.output = output

    async def generate(self, *_: object, **__: object) -> ModelOutput:
        return self.output


def _reply(stop: Any, usage: ModelUsage | None) -> ProviderReply:
    out = ModelOutput.from_content("mockllm/model", '{"option": "a', stop_reason=stop)
    out.usage = usage
    return asyncio.run(InspectProvider(_Model(out)).complete(REQUEST))


@pytest.mark.parametrize(
    ("stop", "finish"),
    [("max_tokens", "length"), ("stop", "stop"), ("tool_calls", "tool_calls"),
     ("content_filter", "content_filter"), ("unknown", None)],
)  # fmt: skip
def test_the_stop_reason_is_the_finish_reason(stop: str, finish: str | None) -> None:
    reply = _reply(stop, ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13))
    assert reply.finish_reason == finish
    assert reply.finish_reason_raw == (None if stop == "unknown" else stop)


def test_cached_tokens_not_reported_are_none_and_reported_ones_are_counted() -> None:
    unreported = _reply("stop", ModelUsage(input_tokens=100, output_tokens=5, total_tokens=105))
    assert unreported.cached_input_tokens is None
    assert unreported.input_tokens == 100
    reported = _reply(
        "stop",
        ModelUsage(input_tokens=40, input_tokens_cache_read=60, output_tokens=5, total_tokens=105),
    )
    assert reported.cached_input_tokens == 60
    assert reported.input_tokens == 100  # every prompt token, the cached ones included
    assert _reply("stop", None).cached_input_tokens is None


def test_an_answer_cut_at_the_token_limit_falls_back_as_truncated() -> None:
    """Through the league's model seat: the cut answer is ``truncated``, not ``invalid_answer``,
    and its attempts say the cached tokens were not reported."""
    from harness.agents.decision_record import ModelDecisionRecord
    from harness.agents.model_spec import ModelSpec, build_model_seat
    from harness.agents.sample_decision import sample_decision
    from harness.views.names import default_names

    cut = ModelOutput.from_content("mockllm/model", '{"option": "', stop_reason="max_tokens")
    cut.usage = ModelUsage(input_tokens=50, output_tokens=30, total_tokens=80)

    spec = ModelSpec(
        provider="litellm", model="mockllm/model", answer_mode="text", max_corrections=1,
        decision_seconds=30, context_tokens=32768,
    )  # fmt: skip
    sample = sample_decision(1, 4)
    names = default_names(4)
    records: list[ModelDecisionRecord] = []
    provider = InspectProvider(_Model(cut))
    seat = build_model_seat(
        spec, names[sample.view.viewer], names, "en", records.append, provider=provider
    )

    async def go() -> None:
        try:
            seat.new_game("cut", sample.view.viewer, 1)
            await seat.choose(sample.view, sample.options)
        finally:
            await seat.aclose()

    asyncio.run(go())
    (record,) = records
    assert record.fallback == "truncated"
    assert [a.finish_reason for a in record.attempts] == ["length", "length"]
    assert all(a.tokens.cached_input is None for a in record.attempts)
    assert all(a.tokens.input == 50 for a in record.attempts)


def test_errors_name_the_endpoint_and_a_missing_responses_api_says_what_to_use() -> None:
    class _Api:
        base_url = "http://127.0.0.1:9/v1"
        responses_api = True

    class _Failing:
        api = _Api()
        name = "smollm2"

        async def generate(self, *_: object, **__: object) -> ModelOutput:
            raise RuntimeError("Error code: 404 - {'detail': 'Not Found'}")

    from harness.agents.providers.provider_errors import BadRequest

    with pytest.raises(BadRequest) as caught:
        asyncio.run(InspectProvider(_Failing()).complete(REQUEST))
    message = str(caught.value)
    assert "'smollm2' at http://127.0.0.1:9/v1/responses failed" in message
    assert "openai-api/<service>/<model>" in message
    _Api.responses_api = False
    with pytest.raises(BadRequest) as caught:
        asyncio.run(InspectProvider(_Failing()).complete(REQUEST))
    assert "at http://127.0.0.1:9/v1/chat/completions failed" in str(caught.value)
    assert "openai-api" not in str(caught.value)


def test_the_task_prices_the_model_as_its_arguments_say() -> None:
    from harness.integrations.inspect_task import _price, bangarena

    assert _price(None, None) is None
    assert _price(0, 0) == {"input": 0.0, "output": 0.0}
    with pytest.raises(ValueError, match="both price_input and price_output"):
        bangarena(games=1, price_input=1.0)
    with pytest.raises(ValueError, match="at least 0"):
        bangarena(games=1, price_input=-1.0, price_output=1.0)
