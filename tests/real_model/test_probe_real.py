"""A belief probe answered by a real model: SmolLM2-135M behind llama.cpp's OpenAI-compatible
server, through the ``openai`` provider in ``grammar`` mode (the probe's own GBNF grammar,
:func:`harness.agents.probe_parse.probe_grammar`), with the production probe message
(docs/probes.md).  Kept short: one probe of the first seat to decide, a compact system prompt.

The model is tiny: a valid answer and an invalid one are both fine, as long as the record tells
the truth — the probe was sent and answered, and an invalid answer carries its reason."""

from __future__ import annotations

import asyncio

import pytest

from harness.agents.model_spec import ModelSpec, build_provider
from harness.agents.probe_parse import SUM_TOLERANCE
from harness.agents.probe_settings import ProbeSettings
from harness.agents.prober import Prober
from harness.engine import Game, build_view
from harness.records.probes import ProbeRecord
from harness.views.names import default_names

pytestmark = pytest.mark.real_model

SYSTEM = (
    "You are playing BangArena, a hidden-role Western card game. Answer only with the JSON "
    "object you are asked for."
)


@pytest.mark.parametrize("seed", [1])
def test_smollm2_answers_belief_probes(llama_server: str, seed: int) -> None:
    spec = ModelSpec(
        provider="openai",
        model="smollm2",
        base_url=llama_server,
        answer_mode="grammar",
        params={"temperature": 0.0, "seed": 7},
        price={"input": 0.0, "output": 0.0},
    )
    provider = build_provider(spec)
    game = Game.new(4, "classic", seed)
    names = default_names(4)
    records: list[ProbeRecord] = []
    prober = Prober(
        ProbeSettings(every=1, max_tokens=96),
        provider,
        spec.model,
        names=names,
        locale="en",
        system=lambda: SYSTEM,
        sink=records.append,
        answer_mode="grammar",
        params=spec.params,
        seconds=240.0,
        label=spec.label,
    )

    async def go() -> None:
        try:
            assert game.pending is not None
            seat = game.pending.seat
            prober.new_game("real", seat, names[seat])
            view = build_view(game, seat)
            due = prober.note(view, game.pending.option_ids)
            assert due == ["every"]
            await prober.probe(view, due, 1)
        finally:
            await provider.aclose()

    asyncio.run(go())
    assert len(records) == 1
    for r in records:
        assert 1 <= len(r.attempts) <= 2
        answered = [a for a in r.attempts if a.raw_text is not None]
        assert answered, f"no answer came back: {[a.error_message for a in r.attempts]}"
        assert all(a.output_tokens > 0 and a.input_tokens > 0 for a in answered)
        assert r.roles == ["raider", "loner"] and len(r.targets) == 3
        if r.valid:
            assert r.beliefs is not None and r.invalid_reason is None
            for row in r.beliefs.values():
                assert set(row) == set(r.roles)
                assert sum(row.values()) == pytest.approx(1.0, abs=1e-9)
                assert all(p >= 0 for p in row.values())
        else:
            assert r.beliefs is None and r.invalid_reason
            assert len(r.attempts) == 2  # one corrective re-prompt was sent
    print(
        "probe answers:",
        [(r.valid, r.invalid_reason, r.attempts[-1].raw_text) for r in records],
        f"(tolerance {SUM_TOLERANCE})",
    )
