"""Replay, inspect and report tests; :func:`build_run` writes a small league run with model seats.

The run is written with the real record models and the real seat stack (``play_game``, rule bots,
random seats, and :class:`~harness.agents.model_seat.ModelSeat` around the shared
:class:`~harness.agents.llm_agent.LLMAgent`) — only the provider is a scripted in-process fake,
so every model decision record is genuine: messages, raw answers, reasoning, retries after
unparseable or illegal answers, fallbacks, tokens and cost.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from harness.agents import Agent, Decided, RandomAgent
from harness.agents.llm_agent import LLMAgent
from harness.agents.model_seat import ModelSeat
from harness.agents.pricing import PriceBook
from harness.agents.providers.base import AnswerMode, Provider, ProviderReply, ProviderRequest
from harness.agents.rulebot import RuleBot
from harness.agents.table import play_game
from harness.engine import Game, SeatView, simplest_for_view
from harness.engine.roles import TEAM_OF
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, RunStore, SeatOutcome
from harness.records.models import SeatPlayer
from harness.views.context import view_context
from harness.views.prompts import PromptBuilder

PLAYERS: dict[str, str] = {"rulebot": "bot", "random": "random", "fakellm": "model"}
MODEL_LABEL = "scripted/fake-1"
NAMES = ("Ada", "Bill", "Cole", "Dora", "Eli", "Faye", "Gus", "Hank")


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


def _model_seat(store: RunStore, names: Sequence[str], player: str) -> ModelSeat:
    llm = LLMAgent(
        ScriptedProvider(),
        "fake-1",
        PromptBuilder(names, "en"),
        fallback=simplest_for_view,
        price_table=PriceBook(
            {"fake-1": {"input": 1.0, "cached_input": 0.5, "output": 4.0}}, use_litellm=False
        ),
        system_prompt_sink=store.add_system_prompt,
        fallback_policy="simplest",
    )
    return ModelSeat(
        player, llm, decision_seconds=30, view_json=lambda v: view_context(v, names, "en")
    )


@dataclass(frozen=True)
class Spec:
    game_id: str
    seats: int
    mode: str
    seed: int
    deal: int
    rotation: int
    lineup: tuple[str, ...]


def schedule(
    name: str, cells: Sequence[tuple[int, str]], games_per_cell: int, players: Sequence[str]
) -> list[Spec]:
    out = []
    for seats, mode in cells:
        for g in range(games_per_cell):
            deal, rotation = divmod(g, seats)
            seed = 1000 * seats + 17 * deal + len(mode)
            base = [players[(deal * seats + i) % len(players)] for i in range(seats)]
            lineup = tuple(base[(i - rotation) % seats] for i in range(seats))
            out.append(
                Spec(f"{name}-{seats}{mode[:2]}-{g:03d}", seats, mode, seed, deal, rotation, lineup)
            )
    return out


async def _play(store: RunStore, run: str, spec: Spec) -> None:
    names = list(NAMES[: spec.seats])
    agents: list[Agent] = []
    for seat, player in enumerate(spec.lineup):
        kind = PLAYERS[player]
        if kind == "model":
            agents.append(_model_seat(store, names, player))
        elif kind == "bot":
            agents.append(RuleBot(player))
        else:
            agents.append(RandomAgent(player, seed=spec.seed + seat))
    game = Game.new(spec.seats, spec.mode, spec.seed)
    roles = [s.role for s in game.seats]
    decisions: list[DecisionLine] = []

    def on_decision(g: Game, view: SeatView, decided: Decided) -> None:
        d = g.pending
        assert d is not None
        decisions.append(
            DecisionLine(
                game_id=spec.game_id,
                index=len(decisions) + 1,
                event_index=len(g.events),
                seat=d.seat,
                player=spec.lineup[d.seat],
                role=roles[d.seat],
                decision_kind=d.kind,
                options=d.option_ids,
                chosen=decided.option,
                fallback=decided.fallback,
                error=decided.error,
                latency_s=round(decided.latency_s, 6),
                model=decided.record.model_dump(mode="json") if decided.record else None,
            )
        )

    result = await play_game(
        game, agents, game_id=spec.game_id, timeout=30, on_decision=on_decision
    )
    assert game.winning_side is not None
    outcomes = []
    for s in game.seats:
        player = spec.lineup[s.index]
        st = result.stats[s.index]
        o = SeatOutcome(
            seat=s.index,
            player=player,
            kind=PLAYERS[player],
            model=MODEL_LABEL if PLAYERS[player] == "model" else None,
            role=s.role,
            team=TEAM_OF[s.role],
            won=s.index in game.winners,
            alive=s.alive,
            decisions=st.decisions,
            fallbacks=dict(st.fallbacks),
            latency_s=round(st.latency_s, 6),
        )
        for d in decisions:
            if d.seat != s.index or d.model is None:
                continue
            m: dict[str, Any] = d.model
            o.input_tokens += m["input_tokens"]
            o.cached_input_tokens += m["cached_input_tokens"]
            o.output_tokens += m["output_tokens"]
            o.reasoning_tokens += m["reasoning_tokens"]
            o.cost_usd += m["cost_usd"] or 0.0
            o.model_calls += len(m["attempts"])
            o.invalid_answers += sum(
                1 for a in m["attempts"] if a["error_kind"] in ("unparseable", "illegal_option")
            )
        outcomes.append(o)
    start = GameStart(
        run=run,
        game_id=spec.game_id,
        seed=spec.seed,
        seats=spec.seats,
        mode=spec.mode,
        deal=spec.deal,
        rotation=spec.rotation,
        seating=[
            SeatPlayer(
                seat=i,
                player=p,
                kind=PLAYERS[p],  # type: ignore[arg-type]
                model=MODEL_LABEL if PLAYERS[p] == "model" else None,
                name=names[i],
            )
            for i, p in enumerate(spec.lineup)
        ],
    )
    end = GameEnd(
        game_id=spec.game_id,
        winning_side=game.winning_side,
        winners=list(game.winners),
        rounds=game.round,
        decisions=len(decisions),
        events=game.events,
    )
    record = GameRecord(
        run=run,
        game_id=spec.game_id,
        seed=spec.seed,
        seats=spec.seats,
        mode=spec.mode,
        deal=spec.deal,
        rotation=spec.rotation,
        winning_side=game.winning_side,
        winners=list(game.winners),
        rounds=game.round,
        high_noon=game.high_noon,
        decisions=len(decisions),
        seat_outcomes=outcomes,
        fallbacks=sum(sum(o.fallbacks.values()) for o in outcomes),
        cost_usd=round(sum(o.cost_usd for o in outcomes), 6),
        input_tokens=sum(o.input_tokens for o in outcomes),
        output_tokens=sum(o.output_tokens for o in outcomes),
        duration_s=0.0,
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    store.write_game(start, decisions, end, record)


def build_run(
    root: Path,
    *,
    name: str = "tiny",
    cells: Sequence[tuple[int, str]] = ((4, "classic"), (5, "double_agent")),
    games_per_cell: int = 2,
    players: Sequence[str] = ("rulebot", "random", "fakellm"),
) -> RunStore:
    """Write a run folder ``root/name`` (config.json, games.jsonl, games/, system prompts)."""
    run_dir = root / name
    store = RunStore(run_dir)
    store.prepare()
    config = {
        "name": name,
        "players": [{"name": p, "kind": PLAYERS[p]} for p in players],
        "tables": [{"seats": [s], "modes": [m]} for s, m in cells],
        "games_per_table": games_per_cell,
    }
    (run_dir / "config.json").write_text(json.dumps(config, indent=1) + "\n", "utf-8")

    async def main() -> None:
        for spec in schedule(name, cells, games_per_cell, players):
            await _play(store, name, spec)

    # Its own thread: callers may already run an event loop (playwright's sync API does).
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, main()).result()
    return store
