"""A whole 4-seat game with every seat a :class:`ModelSeat` on a real model: SmolLM2-135M behind
llama.cpp's OpenAI-compatible server, through the ``openai`` provider in ``grammar`` mode.

Prompt size decides the running time on a small CPU.  The standard prompts (rules document in the
system prompt, full table and feed in the decision prompt) are about 4,600 tokens, and llama.cpp
evaluates prompts at ~250 tokens/s on 2 cores: 5-30 s per decision, 20-40 minutes per game.  This
test therefore gives the seats a compact prompt builder (role, health, hand, labelled options;
~100-250 tokens) so a game takes 2-3 minutes; everything else is the production path
(:func:`build_model_seat`, :class:`LLMAgent`, the seat deadline, the table).  ``bangarena ask``
shows one decision with the standard prompts.

The model is tiny: valid answers and honest fallbacks are both fine, as long as every record tells
the truth.  ``max_tokens`` is 128 because the grammar lets the model write a reason of up to 300
characters and SmolLM2 often does; with 64 a third of the answers are cut off (``unparseable``).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents import Decided
from harness.agents.answer_parse import parse_answer, truncated_answer
from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.agents.table import TableResult, play_game
from harness.engine import Game, SeatView, parse_action, simplest_for_view
from harness.views.names import card_label, default_names, role_name
from harness.views.option_labels import decision_header, option_label

pytestmark = pytest.mark.real_model

SEATS = 4
SEED = 1
DECISION_S = 20.0
MAX_DECISIONS = 3000
TRANSIENT = {"timeout", "rate_limit", "server_error", "connection_error", "context_overflow"}
INVALID = {"unparseable", "illegal_option", "truncated"}  # the model's words, not valid


class CompactPrompts:
    """A short English prompt: who you are, your health and hand, the labelled options."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def system_prompt(self, view: SeatView) -> str:
        return (
            f"You are {self.names[view.viewer]}, the {role_name(view.role)}, in the card game "
            'BangArena. Pick one option. Reply with only JSON: {"choice": "<option id>"}'
        )

    def decision_prompt(self, view: SeatView, options: Sequence[str]) -> str:
        assert view.pending is not None
        me = view.seats[view.viewer]
        kind = view.pending.kind
        hand = ", ".join(card_label(face) for face in view.hand) or "none"
        lines = [
            f"Health {me.hp}/{me.max_hp}. Hand: {hand}.",
            decision_header(kind, view.pending.context, view, self.names),
            "Options:",
        ]
        lines += [
            f"- `{o}`: {option_label(parse_action(o), kind, view, self.names)}" for o in options
        ]
        return "\n".join(lines)


def _check_record(view: SeatView, decided: Decided) -> None:
    """Every claim of the record agrees with the others and with what the table applied."""
    record: ModelDecisionRecord = decided.record
    assert view.pending is not None and view.pending.options is not None
    options = view.pending.options
    assert record.options == list(options) and record.chosen == decided.option
    assert record.chosen in options and record.fallback == decided.fallback
    assert record.latency_s < DECISION_S
    if len(options) == 1:
        assert record.attempts == [] and record.fallback is None
        return
    assert record.attempts, "a multi-option decision must call the model"
    answered = [a for a in record.attempts if a.error_kind not in TRANSIENT]
    for attempt in answered:  # the model was called and answered: it used tokens
        assert attempt.tokens.input > 0 and attempt.tokens.output > 0
        answer = attempt.tool_arguments if attempt.tool_arguments is not None else attempt.raw_text
        verdict = truncated_answer(parse_answer(answer, options), attempt.finish_reason)
        assert verdict.error_kind == attempt.error_kind
    assert record.input_tokens == sum(a.tokens.input for a in record.attempts)
    assert record.output_tokens == sum(a.tokens.output for a in record.attempts)
    assert record.cost_usd == 0.0
    kinds = [a.error_kind for a in record.attempts]
    if record.fallback is None:
        assert kinds[-1] is None and record.parsed_choice == record.chosen
        assert all(k is not None for k in kinds[:-1])
    else:
        assert record.chosen == simplest_for_view(view, options)
        assert record.fallback_policy == "simplest"
        if record.fallback in ("invalid_answer", "truncated"):
            assert kinds[-1] in INVALID and len([k for k in kinds if k in INVALID]) == 2
        elif record.fallback == "context_overflow":
            assert kinds[-1] == "context_overflow"
        elif record.fallback == "timeout":
            assert kinds[-1] == "timeout" or record.latency_s >= DECISION_S * 0.9
        else:
            assert record.fallback == "error" and kinds[-1] in TRANSIENT


def test_real_model_plays_a_whole_game(
    llama_server: str, capsys: Any, record_property: Any
) -> None:
    pytest.importorskip("openai", reason="the openai SDK is not installed")
    names = default_names(SEATS)
    spec = ModelSpec(
        provider="openai",
        model="smollm2",
        base_url=llama_server,
        answer_mode="grammar",
        params={"max_tokens": 128, "temperature": 0.0, "seed": 7},
        price={"input": 0.0, "output": 0.0},
        decision_seconds=DECISION_S,
    )
    decisions: list[tuple[SeatView, Decided]] = []

    async def go() -> TableResult:
        seats = [
            build_model_seat(spec, names[i], names, "en", prompt_builder=CompactPrompts(names))
            for i in range(SEATS)
        ]
        try:
            return await play_game(
                Game.new(SEATS, "classic", SEED),
                seats,
                game_id="real-game",
                on_decision=lambda g, v, d: decisions.append((v, d)),
                max_decisions=MAX_DECISIONS,
            )
        finally:
            for seat in seats:
                await seat.aclose()

    started = time.monotonic()
    result = asyncio.run(go())
    elapsed = time.monotonic() - started

    assert result.game.pending is None and result.winning_side is not None
    for view, decided in decisions:
        _check_record(view, decided)
    called = [d.record for _, d in decisions if d.record.attempts]
    assert called, "no decision reached the model"
    fallbacks = Counter(r.fallback for r in called if r.fallback is not None)
    assert sum(fallbacks.values()) < len(called) / 2, fallbacks  # mostly the model's own choices
    median = statistics.median(r.latency_s for r in called)
    summary = (
        f"real-model game: {len(decisions)} decisions, {len(called)} model decisions, "
        f"{sum(fallbacks.values())} fallbacks {dict(fallbacks)}, median latency {median:.2f} s, "
        f"{elapsed:.0f} s, winner {result.winning_side}"
    )
    for key, value in (
        ("decisions", len(decisions)),
        ("model_decisions", len(called)),
        ("fallbacks", sum(fallbacks.values())),
        ("median_latency_s", round(median, 3)),
    ):
        record_property(key, value)
    with capsys.disabled():
        print(f"\n{summary}")
