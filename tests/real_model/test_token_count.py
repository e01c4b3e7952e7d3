"""A seat's token count equals the real server's: SmolLM2 behind llama-cpp-python's server, whose
``/extras/tokenize`` endpoint the seat detects and counts with.

The request is one Russian decision of the seat's own making (Russian rules text as the system
prompt, the Russian decision message's options and answer format as the user message), short
enough for CI: the whole Russian system prompt is 10,786 SmolLM2 tokens (docs/models.md,
tests/real_model/test_prompt_sizes.py) and takes minutes to read on two loaded cores.  The counted request
(its texts through the tokenize endpoint plus the chat-template tokens per message) must be
within 1 % of the ``prompt_tokens`` the server reports, and the counter's learned correction is
then close to 1."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents import tokenizers
from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.model_spec import ModelSpec, build_model_seat, counter_for
from harness.agents.rulebot import RuleBot
from harness.agents.transcript import Transcript
from harness.engine import Game, SeatView, build_view
from harness.views.names import default_names
from harness.views.prompts import PromptBuilder

pytestmark = pytest.mark.real_model

SYSTEM_CHARS = 700
USER_CHARS = 700


class _ShortRussian(PromptBuilder):
    """The Russian prompts cut short: the head of the rules, the tail of the decision message."""

    def system_prompt(self, view: SeatView | None = None) -> str:
        text = super().system_prompt(view)
        return text[: text.rfind("\n", 0, SYSTEM_CHARS)]

    def user_message(self, view: SeatView, *args: Any, **kwargs: Any) -> str:
        text = super().user_message(view, *args, **kwargs)
        return text[text.find("\n", len(text) - USER_CHARS) + 1 :]


async def _one_decision(seat: Any, names: Sequence[str]) -> None:
    game = Game.new(4, "classic", 1)
    bots = [RuleBot(n) for n in names]
    seat.new_game("tokens", 0, 1)
    for i, bot in enumerate(bots):
        bot.new_game("tokens", i, 1)
    seen = [0] * 4
    asked = False
    while game.pending is not None and not asked:
        s = game.pending.seat
        view = build_view(game, s, since=seen[s])
        seen[s] = view.event_count
        options = game.pending.option_ids
        if s == 0:
            option = (await seat.choose(view, options)).option
            asked = len(options) > 1
        else:
            option = await bots[s].choose(view, options)
        game.apply(option)


def test_a_russian_decision_is_counted_as_the_server_counts_it(
    llama_server: str, record_property: Any
) -> None:
    tokenizers.forget_servers()
    names = default_names(4)
    spec = ModelSpec(
        provider="openai",
        model="smollm2",
        base_url=llama_server,
        answer_mode="grammar",
        params={"max_tokens": 8, "temperature": 0.0, "seed": 7},
        max_corrections=0,  # one call: the count of one request is what is compared
        decision_seconds=600.0,
        history="since_last",
        context_tokens=8192,
    )
    counter = counter_for(spec)
    assert counter.source == f"server {llama_server.removesuffix('/v1')}/extras/tokenize"
    transcript = Transcript(
        names, "ru", "since_last", 8192, count_tokens=counter, builder=_ShortRussian(names, "ru")
    )
    records: list[ModelDecisionRecord] = []
    seat = build_model_seat(
        spec, names[0], names, "ru", record_sink=records.append, prompt_builder=transcript
    )

    async def go() -> None:
        try:
            await _one_decision(seat, names)
        finally:
            await seat.aclose()

    asyncio.run(go())
    record = next(r for r in records if len(r.options) > 1)
    assert len(record.attempts) == 1
    reported = record.attempts[0].tokens.input
    system = transcript.system()
    counted = transcript.request_tokens(system, record.messages)
    record_property("counted_tokens", counted)
    record_property("reported_tokens", reported)
    print(f"Russian request: counted {counted} tokens, the server reported {reported}")
    assert any("\u0400" <= ch <= "\u04ff" for ch in system + record.messages[0]["content"])
    assert abs(counted - reported) <= 0.01 * reported, (counted, reported)
    assert counter.ratio == pytest.approx(reported / counted)
