"""A request longer than the model's context under Inspect AI (issue 26): Inspect turns the
provider's HTTP 400 into an output with stop reason ``model_length`` whose text is the server's
error.  The Inspect provider raises it as a ``ContextOverflow`` (the error the LLM agent compacts
the seat's history for and retries once), never returns it as the model's answer."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from harness.agents.providers.base import ProviderRequest  # noqa: E402
from harness.agents.providers.errors import ContextOverflow  # noqa: E402
from harness.integrations.inspect_provider import InspectProvider  # noqa: E402

WORDS = "This model's maximum context length is 8192 tokens. However, your messages resulted in"
_USAGE = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)


def _too_long() -> ModelOutput:
    """What Inspect's OpenAI provider returns for a ``context_length_exceeded`` 400."""
    out = ModelOutput.from_content("mockllm/model", WORDS, stop_reason="model_length")
    out.usage = _USAGE
    return out


def test_a_model_length_output_is_a_context_overflow_not_an_answer() -> None:
    provider = InspectProvider(get_model("mockllm/model", custom_outputs=lambda *_: _too_long()))
    request = ProviderRequest(
        model="m",
        system="rules",
        messages=[{"role": "user", "content": "choose"}],
        answer_mode="text",
        option_ids=("a", "b"),
    )
    with pytest.raises(ContextOverflow, match="maximum context length is 8192"):
        asyncio.run(provider.complete(request))


def test_an_error_that_names_the_context_is_a_context_overflow() -> None:
    def refuse(*_: object) -> ModelOutput:
        raise RuntimeError(f"Error code: 400 - {WORDS}")

    provider = InspectProvider(get_model("mockllm/model", custom_outputs=refuse))
    request = ProviderRequest(
        model="m",
        system="rules",
        messages=[{"role": "user", "content": "choose"}],
        answer_mode="text",
        option_ids=("a", "b"),
    )
    with pytest.raises(ContextOverflow, match="maximum context length"):
        asyncio.run(provider.complete(request))
