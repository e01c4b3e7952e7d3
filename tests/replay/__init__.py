"""Replay, inspect and report tests; :func:`build_run` writes a small league run with model seats.

The run is written by the league's own code (config, schedule, ``play_scheduled``, records) with
the real seat stack (rule bots, random seats, model seats around the shared
:class:`~harness.agents.llm_agent.LLMAgent`) — only the provider is a scripted in-process fake,
so every model decision record is genuine: messages, raw answers, reasoning, retries after
unparseable or illegal answers, fallbacks, tokens and cost.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar

from harness.agents import Agent
from harness.agents.model_spec import build_model_seat
from harness.agents.providers.provider_contract import (
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
)
from harness.league.game_play import play_scheduled
from harness.league.league_config import parse_config
from harness.league.runner import prepare_run
from harness.league.schedule import build_schedule
from harness.play.game_spec import GameSpec
from harness.play.model_seats import ModelSeats
from harness.records import RunStore

PLAYERS: dict[str, str] = {"rulebot": "bot", "random": "random", "fakellm": "model"}
MODEL_SPEC = {
    "provider": "openai",
    "model": "fake-1",
    "answer_mode": "json_object",
    "price": {"input": 1.0, "cached_input": 0.5, "output": 4.0},
}
MODEL_LABEL = "openai/fake-1"


class ScriptedProvider(Provider):
    """Answers the first-listed option… mostly: call 3 of every 11 is unparseable and call 4
    too (so a decision can fall back), call 8 names an illegal option; every answer carries
    reasoning text and token counts."""

    name: ClassVar[str] = "scripted"
    default_answer_mode: AnswerMode = "json_object"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset({"json_object", "text"})

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.calls += 1
        k = self.calls % 11
        opts = req.option_ids
        if k in (3, 4):
            text = "I think I will play my best card."
        elif k == 8:
            text = json.dumps({"choice": "no_such_option", "reason": "bluff"})
        else:
            choice = opts[self.calls % len(opts)]
            text = json.dumps({"choice": choice, "reason": f"call {self.calls}: {choice}"})
        prompt_chars = len(req.system) + sum(len(m["content"]) for m in req.messages)
        return ProviderReply(
            text=text,
            reasoning=f"Reasoning #{self.calls}: weigh {len(opts)} options <b>carefully</b>.",
            input_tokens=prompt_chars // 4,
            cached_input_tokens=len(req.system) // 4,
            output_tokens=30,
            reasoning_tokens=12,
            model=req.model,
        )


def build_run(
    root: Path,
    *,
    name: str = "tiny",
    cells: Sequence[tuple[int, str]] = ((4, "classic"), (5, "double_agent")),
    games_per_cell: int = 2,
    players: Sequence[str] = ("rulebot", "random", "fakellm"),
) -> RunStore:
    """Write a run folder ``root/name`` through the league's own code path (config, schedule,
    ``play_scheduled``, ``RunStore``); only the model seats' provider is the scripted fake."""
    config = parse_config(
        {
            "name": name,
            "players": [
                {
                    "name": p,
                    "kind": PLAYERS[p],
                    **({"model": MODEL_SPEC} if PLAYERS[p] == "model" else {}),
                }
                for p in players
            ],
            "tables": [{"seats": [s], "modes": [m]} for s, m in cells],
            "games_per_table": games_per_cell,
            "decision_seconds": 30,
            "output": str(root),
        }
    )
    store = prepare_run(config, root / name, resume=False)
    seats = ModelSeats(config, root / name)
    provider = ScriptedProvider()

    def model_seat(player: str, seat: int, spec: GameSpec) -> Agent:
        return build_model_seat(
            seats.spec(player),
            player,
            spec.names,
            config.locale,
            system_prompt_sink=store.add_system_prompt,
            provider=provider,
        )

    async def main() -> None:
        for spec in build_schedule(config):
            out = await play_scheduled(spec, config, name, model_seat)
            store.write_game(out.start, out.decisions, out.end, out.record)

    # Its own thread: callers may already run an event loop (playwright's sync API does).
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, main()).result()
    return store
