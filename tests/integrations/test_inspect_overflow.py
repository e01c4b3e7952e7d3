"""A request longer than the model's context under Inspect AI (issue 26): Inspect turns the
provider's HTTP 400 into an output with stop reason ``model_length`` whose text is the server's
error.  The Inspect provider raises it as a ``ContextOverflow`` (the error the LLM agent compacts
the seat's history for and retries once), never returns it as the model's answer; under the task
the overflow is never scored as the model's invalid answer, its text never enters the model's
conversation, and a decision whose retry overflows again falls back with ``context_overflow``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from harness.agents.providers.provider_contract import ProviderRequest  # noqa: E402
from harness.agents.providers.provider_errors import ContextOverflow  # noqa: E402
from harness.integrations.inspect_provider import InspectProvider  # noqa: E402
from harness.integrations.inspect_task import bangarena  # noqa: E402
from harness.records import RunStore  # noqa: E402

_LISTED = re.compile(r"^\d+\. `([^`]+)`", re.MULTILINE)

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


def _answer(messages: list[Any]) -> ModelOutput:
    options = next(found for m in reversed(messages) if (found := _LISTED.findall(m.text)))
    out = ModelOutput.from_content("mockllm/model", json.dumps({"choice": options[0]}))
    out.usage = _USAGE
    return out


class SmallContext:
    """Refuses a request of more than ``limit`` characters; answers the first option else."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.refused = 0

    def __call__(self, messages: list[Any], *_: Any) -> ModelOutput:
        if sum(len(m.text) for m in messages) > self.limit:
            self.refused += 1
            return _too_long()
        return _answer(messages)


def _run(tmp_path: Path, outputs: Any, **task_args: Any) -> Any:
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = inspect_eval(bangarena(**task_args), model=model, log_dir=str(tmp_path), display="none")
    return read_eval_log(log.location)


def test_an_overflow_compacts_the_history_and_the_retry_is_answered(tmp_path: Path) -> None:
    """The system prompt and a few decisions fit; the conversation grown past the limit is
    refused, compacted and asked once more — never read as the model's words."""
    model = SmallContext(limit=30_000)
    run = tmp_path / "run"
    log = _run(tmp_path, model, seats=4, games=1, seed=5, max_fallbacks=1000, run_dir=str(run))
    [sample] = log.samples
    meta = sample.scores["game_result"].metadata
    assert model.refused > 0
    assert meta["counts"]["invalid_decisions"] == 0  # never read as an invalid answer
    assert set(meta["fallback_reasons"]) <= {"context_overflow"}
    conversation = "\n".join(m.text for m in sample.messages)
    assert "maximum context length" not in conversation  # the error text is not the model's
    [game] = RunStore(run).games()
    _, decisions, _ = RunStore(run).read_game(game.game_id)
    retried = [
        d for d in decisions
        if d.model and [a["error_kind"] for a in d.model["attempts"]] == ["context_overflow", None]
    ]  # fmt: skip
    assert retried and all(d.fallback is None for d in retried)
    assert all(WORDS not in json.dumps(d.model["messages"]) for d in retried)


def test_a_model_whose_every_request_overflows_falls_back_with_context_overflow(
    tmp_path: Path,
) -> None:
    log = _run(tmp_path, SmallContext(limit=0), seats=4, games=1, seed=4, max_fallbacks=5)
    [sample] = log.samples
    meta = sample.scores["game_result"].metadata
    assert set(meta["fallback_reasons"]) == {"context_overflow"}
    assert meta["counts"]["invalid_decisions"] == 0 and meta["counts"]["invalid_calls"] == 0
    assert "maximum context length" not in "\n".join(m.text for m in sample.messages)
    assert sample.scores["game_result"].value["flagged"] == 1
