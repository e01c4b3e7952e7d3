"""Play one scheduled game and turn it into records."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from harness.agents import Agent, Decided, RandomAgent
from harness.agents.rulebot import RuleBot
from harness.agents.table import play_game
from harness.engine import Game, SeatView
from harness.engine.roles import TEAM_OF
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, SeatOutcome
from harness.records.models import SeatPlayer

from .config import LeagueConfig
from .schedule import GameSpec

ModelSeatFactory = Callable[[str, int, GameSpec], Agent]
INVALID_KINDS = ("unparseable", "illegal_option")


@dataclass
class GameOutput:
    start: GameStart
    decisions: list[DecisionLine]
    end: GameEnd
    record: GameRecord


def non_model_agent(kind: str, player: str, seat: int, spec: GameSpec) -> Agent:
    if kind == "bot":
        return RuleBot(player)
    return RandomAgent(player, seed=spec.seed + 7919 * seat)


def model_label(config: LeagueConfig, player: str) -> str | None:
    p = config.player(player)
    return f"{p.model.provider}/{p.model.model}" if p.model is not None else None


async def play_scheduled(
    spec: GameSpec,
    config: LeagueConfig,
    run: str,
    model_seat: ModelSeatFactory | None = None,
) -> GameOutput:
    """Play ``spec`` to the end.  ``model_seat(player, seat, spec)`` builds model seats."""
    t0 = time.monotonic()
    agents: list[Agent] = []
    for seat, player in enumerate(spec.lineup):
        kind = config.player(player).kind
        if kind == "model":
            if model_seat is None:
                raise ValueError("a model seat needs a model seat factory")
            agents.append(model_seat(player, seat, spec))
        else:
            agents.append(non_model_agent(kind, player, seat, spec))
    autopilots = (
        [RuleBot(f"autopilot {i}") for i in range(spec.seats)]
        if config.fallback == "autopilot"
        else None
    )
    game = Game.new(spec.seats, spec.mode, spec.seed)
    decisions: list[DecisionLine] = []
    roles = [s.role for s in game.seats]

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

    has_model = any(a.kind == "model" for a in agents)
    timeout = config.decision_seconds if has_model else None
    result = await play_game(
        game,
        agents,
        game_id=spec.game_id,
        timeout=timeout,
        policy=config.fallback,
        autopilots=autopilots,
        on_decision=on_decision,
    )
    ident: dict[str, Any] = {
        "run": run,
        "game_id": spec.game_id,
        "seed": spec.seed,
        "seats": spec.seats,
        "mode": spec.mode,
        "deal": spec.deal,
        "rotation": spec.rotation,
    }
    start = GameStart(
        **ident,
        seating=[
            SeatPlayer(
                seat=i,
                player=p,
                kind=config.player(p).kind,
                model=model_label(config, p),
                name=spec.names[i],
            )
            for i, p in enumerate(spec.lineup)
        ],
    )
    outcomes = _outcomes(spec, config, game, result.stats, decisions)
    assert game.winning_side is not None
    end = GameEnd(
        game_id=spec.game_id,
        winning_side=game.winning_side,
        winners=list(game.winners),
        rounds=game.round,
        decisions=len(decisions),
        events=game.events,
    )
    record = GameRecord(
        **ident,
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
        duration_s=round(time.monotonic() - t0, 3),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    return GameOutput(start, decisions, end, record)


def _outcomes(
    spec: GameSpec,
    config: LeagueConfig,
    game: Game,
    stats: list[Any],
    decisions: list[DecisionLine],
) -> list[SeatOutcome]:
    out = []
    for s in game.seats:
        mine = [d for d in decisions if d.seat == s.index and d.model is not None]
        o = SeatOutcome(
            seat=s.index,
            player=spec.lineup[s.index],
            kind=config.player(spec.lineup[s.index]).kind,
            model=model_label(config, spec.lineup[s.index]),
            role=s.role,
            team=TEAM_OF[s.role],
            won=s.index in game.winners,
            alive=s.alive,
            decisions=stats[s.index].decisions,
            fallbacks=dict(stats[s.index].fallbacks),
            latency_s=round(stats[s.index].latency_s, 6),
        )
        for d in mine:
            m = d.model or {}
            o.input_tokens += m.get("input_tokens", 0)
            o.cached_input_tokens += m.get("cached_input_tokens", 0)
            o.output_tokens += m.get("output_tokens", 0)
            o.reasoning_tokens += m.get("reasoning_tokens", 0)
            o.cost_usd += m.get("cost_usd") or 0.0
            attempts = m.get("attempts", [])
            o.model_calls += len(attempts)
            o.invalid_answers += sum(1 for a in attempts if a.get("error_kind") in INVALID_KINDS)
        o.cost_usd = round(o.cost_usd, 6)
        out.append(o)
    return out
