"""Play a 4-seat game in-process with one LLM agent per seat, keeping each decision's view,
options and record (for the history and context tests)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from harness.engine import Game, SeatView, build_view

Decisions = list[tuple[SeatView, Sequence[str], Any]]


def play_model_game(agents: Sequence[Any], seed: int, limit: int) -> Decisions:
    """Every decision of the game of ``seed`` (at most ``limit``), each seat deciding with its
    agent (an :class:`~harness.agents.llm_agent.LLMAgent`) without a deadline."""
    game = Game.new(len(agents), "classic", seed)
    seen = [0] * len(agents)
    decisions: Decisions = []
    while game.pending is not None and len(decisions) < limit:
        seat = game.pending.seat
        view = build_view(game, seat, since=seen[seat])
        seen[seat] = view.event_count
        options = game.pending.option_ids
        chosen, record = asyncio.run(agents[seat].decide(view, options, 1e12, {}))
        decisions.append((view, options, record.model_dump(mode="json")))
        game.apply(chosen)
    return decisions
