"""The cached prefix is reused by a real server: SmolLM2-135M behind llama.cpp's server, one model
seat with the production prompts under each history policy, three rule bots.

llama.cpp keeps the tokens of its last prompt and evaluates only what follows the longest common
prefix ("Llama.generate: N prefix-match hit, remaining M prompt tokens to eval" in its log).  With
the ``conversation`` policy every request of the seat extends the previous one, so after the first
call only the new tail is evaluated; with ``log`` and ``since_last`` the shared rules prefix (the
system prompt, identical for every seat and game) is reused.  The figures are printed for the
README.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.agents.rulebot import RuleBot
from harness.engine import Game, build_view
from harness.views.names import default_names

pytestmark = pytest.mark.real_model

PREFIX_HIT = re.compile(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")


async def _play(base_url: str, policy: str, calls: int) -> list[ModelDecisionRecord]:
    """Seat 0 is the model (asked ``calls`` times), the others rule bots; the game stops then."""
    names = default_names(4)
    spec = ModelSpec(
        provider="openai",
        model="smollm2",
        base_url=base_url,
        answer_mode="grammar",
        params={"max_tokens": 48, "temperature": 0.0, "seed": 7},
        decision_seconds=600.0,
        history=policy,
        context_tokens=8192,
    )
    records: list[ModelDecisionRecord] = []
    seat = build_model_seat(spec, "smollm2", names, "en", record_sink=records.append)
    bots = [RuleBot(f"bot{i}") for i in range(4)]
    game = Game.new(4, "classic", 1)
    seat.new_game("cache", 0, 1)
    for i, bot in enumerate(bots):
        bot.new_game("cache", i, 1)
    seen = [0] * 4
    try:
        while game.pending is not None and sum(len(r.options) > 1 for r in records) < calls:
            s = game.pending.seat
            view = build_view(game, s, since=seen[s])
            seen[s] = view.event_count
            options = game.pending.option_ids
            if s == 0:
                option = (await seat.choose(view, options)).option
            else:
                option = await bots[s].choose(view, options)
            game.apply(option)
    finally:
        await seat.aclose()
    return [r for r in records if len(r.options) > 1]


@pytest.mark.parametrize("policy", ["conversation", "log", "since_last"])
def test_the_server_reuses_the_cached_prefix(
    llama_server: str, llama_server_log: Path, policy: str, record_property: Any
) -> None:
    log = llama_server_log
    before = log.read_text(errors="replace")
    t0 = time.monotonic()
    calls = 3
    records = asyncio.run(_play(llama_server, policy, calls))
    elapsed = time.monotonic() - t0
    assert len(records) == calls
    assert all(r.attempts and r.attempts[0].error_kind not in ("timeout", "connection_error",
                                                                "server_error") for r in records)  # fmt: skip
    hits = [
        (int(a), int(b))
        for a, b in PREFIX_HIT.findall(log.read_text(errors="replace")[len(before) :])
    ]
    # One log line per call after the first prompt the server ever saw (corrections included).
    calls_made = sum(len(r.attempts) for r in records)
    assert len(hits) >= calls_made - 1, f"prefix-cache lines in the server log: {hits}"
    prompts = [a.tokens.input for r in records for a in r.attempts]
    later = hits[-(calls_made - 1) :]
    for (matched, evaluated), prompt in zip(later, prompts[1:], strict=True):
        assert matched + evaluated >= prompt - 8  # the server's own count of this prompt
        if policy == "conversation":
            assert evaluated < 0.25 * prompt, (matched, evaluated, prompt)
        else:
            assert matched >= 3000  # the rules prefix (system prompt) is shared
    share = sum(m for m, _ in later) / sum(m + e for m, e in later)
    print(f"\n{policy}: prompts {prompts} tokens; prefix hits {later}; reused {share:.1%} "
          f"of the tokens after the first call; {elapsed:.0f} s")  # fmt: skip
    record_property(f"{policy}_reused_share", round(share, 4))
    if policy == "conversation":
        assert [r.context_messages for r in records] == [0, 2, 4]
        assert share > 0.75
