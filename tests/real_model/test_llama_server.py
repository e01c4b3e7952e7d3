"""End to end with a real model: SmolLM2-135M behind llama.cpp's OpenAI-compatible server.

The model is tiny, so the test accepts either a valid answer or an honest ``invalid_answer``
fallback, and checks that the record tells the truth either way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents.answer_parse import parse_answer, truncated_answer
from harness.agents.decision_record import ANSWERED_KINDS, ModelDecisionRecord
from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers import answer_grammar, get_provider

pytestmark = pytest.mark.real_model

OPTIONS = ("take", "flask", "dodge:ricochet")
MODEL = "smollm2"
DEADLINE_S = 60.0


class CardPrompts:
    """A short prompt in the shape the real prompt builder produces."""

    def system_prompt(self, view: Any) -> str:
        return (
            "You are a player in the card game BangArena. On every decision, reply with only a "
            'JSON object {"choice": "<option id>", "reason": "<a few words>"} where the choice '
            "is exactly one of the listed option ids."
        )

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str:
        listed = "\n".join(f"- `{o}`" for o in options)
        return f"A Shot hits you and you have 1 health left.\nOptions:\n{listed}"


def take_the_hit(view: Any, options: Sequence[str]) -> str:
    return "take"


def _assert_consistent(choice: str, record: ModelDecisionRecord) -> None:
    assert choice in OPTIONS and record.chosen == choice
    assert record.attempts, "a multi-option decision must call the model"
    assert record.input_tokens > 0 and record.output_tokens > 0
    assert record.input_tokens == sum(a.tokens.input for a in record.attempts)
    assert record.output_tokens == sum(a.tokens.output for a in record.attempts)
    for attempt in record.attempts:  # every attempt's verdict matches a re-parse of its answer
        answer = attempt.tool_arguments if attempt.tool_arguments is not None else attempt.raw_text
        verdict = truncated_answer(parse_answer(answer, OPTIONS), attempt.finish_reason)
        assert verdict.error_kind == attempt.error_kind
    if record.fallback is None:
        assert record.attempts[-1].error_kind is None
        assert record.parsed_choice == choice
    else:
        assert record.fallback in ("invalid_answer", "truncated"), record.attempts
        assert all(a.error_kind in ANSWERED_KINDS for a in record.attempts)
        assert choice == "take" and record.fallback_policy == "take_the_hit"


@pytest.mark.parametrize(
    ("provider_name", "answer_mode"),
    [("openai", "json_object"), ("openai", "grammar"), ("litellm", "json_object")],
)
def test_small_model_picks_a_listed_option(
    llama_server: str, provider_name: str, answer_mode: str, record_property: Any
) -> None:
    pytest.importorskip(provider_name, reason=f"the {provider_name} SDK is not installed")

    async def go() -> tuple[str, ModelDecisionRecord]:
        if provider_name == "openai":
            provider, model = get_provider("openai", base_url=llama_server), MODEL
        else:
            provider, model = get_provider("litellm", api_base=llama_server), f"openai/{MODEL}"
        agent = LLMAgent(
            provider,
            model,
            CardPrompts(),
            fallback=take_the_hit,
            answer_mode=answer_mode,  # type: ignore[arg-type]
            params={"temperature": 0.0, "max_tokens": 96, "seed": 7},
            price_table=PriceBook({model: {"input": 0.0, "output": 0.0}}, use_litellm=False),
        )
        try:
            return await agent.decide(
                {}, OPTIONS, time.monotonic() + DEADLINE_S, {"game_id": "real"}
            )
        finally:
            await agent.aclose()

    choice, record = asyncio.run(go())
    record_property("latency_s", round(record.latency_s, 3))
    record_property("tokens", f"{record.input_tokens}/{record.output_tokens}")
    record_property("fallback", str(record.fallback))
    _assert_consistent(choice, record)
    assert record.cost_usd == 0.0


def test_answer_grammar_compiles_in_llama_cpp() -> None:
    llama_cpp = pytest.importorskip(
        "llama_cpp", reason="llama-cpp-python is not installed: run `bash .ci/install_llama.sh`"
    )
    grammar = llama_cpp.LlamaGrammar.from_string(answer_grammar(OPTIONS), verbose=False)
    assert grammar is not None
