"""Table talk with a real model: llama.cpp's server accepts the answer grammar with the optional
``signal`` (docs/signals.md), and SmolLM2-135M's grammar-constrained answer is read strictly — a
listed choice, and a signal that is either absent, accepted into the record or refused with its
reason, never a fallback caused by the signal."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers import get_provider

pytestmark = pytest.mark.real_model

OPTIONS = ("take", "flask", "dodge:ricochet")
NAMES = ["Ada", "Bill", "Cole", "Dora"]


class TalkPrompts:
    def system_prompt(self, view: Any) -> str:
        return (
            "You play the card game BangArena. Reply with only a JSON object "
            '{"choice": "<option id>", "signal": {"kind": "claim", "role": "deputy"}} where the '
            "choice is one of the listed option ids and the signal claims a role."
        )

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str:
        listed = "\n".join(f"- `{o}`" for o in options)
        return f"Players: {', '.join(NAMES)}. A Shot hits you.\nOptions:\n{listed}"


def test_the_signal_grammar_constrains_a_real_model(
    llama_server: str, record_property: Any
) -> None:
    pytest.importorskip("openai", reason="the openai SDK is not installed")

    async def go() -> Any:
        agent = LLMAgent(
            get_provider("openai", base_url=llama_server),
            "smollm2",
            TalkPrompts(),
            fallback=lambda v, o: o[0],
            answer_mode="grammar",
            params={"temperature": 0.0, "max_tokens": 96, "seed": 7},
            price_table=PriceBook({"smollm2": {"input": 0.0, "output": 0.0}}, use_litellm=False),
            signal_names=NAMES,
            max_corrections=0,
        )
        try:
            return await agent.decide({}, OPTIONS, time.monotonic() + 90.0, {"game_id": "real"})
        finally:
            await agent.aclose()

    choice, record = asyncio.run(go())
    attempt = record.attempts[-1]
    record_property("answer", attempt.raw_text)
    assert attempt.finish_reason != "length", "the answer fit its token limit"
    answer = json.loads(attempt.raw_text)  # the grammar allows only the answer object
    assert record.fallback is None and choice == answer["choice"] in OPTIONS
    if "signal" not in answer:
        assert record.signal is None and record.signal_refused is None
    else:
        assert answer["signal"]["kind"] in ("claim", "mark", "react")
        assert (record.signal is None) != (record.signal_refused is None)
