"""Helpers: one game with an external agent seat among rule bots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from harness.agents.external_seat import AgentBackend, ExternalSeat
from harness.agents.rulebot import RuleBot
from harness.agents.seat import Decided
from harness.agents.table import Table
from harness.engine import Game, SeatView
from harness.views.names import default_names


class Played:
    def __init__(self) -> None:
        self.decided: list[tuple[int, list[str], Decided]] = []
        self.spend: list[tuple[Any, ...]] = []
        self.prompts: dict[str, str] = {}
        self.void: str | None = None
        self.game: Game | None = None

    def seat_decisions(self, seat: int = 0, many: bool = True) -> list[Decided]:
        return [d for s, o, d in self.decided if s == seat and (len(o) > 1 or not many)]


async def play_with(
    backend: AgentBackend,
    *,
    kind: str = "agent",
    seed: int = 11,
    seats: int = 4,
    timer: float = 5.0,
    policy: str = "simplest",
    max_fallbacks: int | None = None,
) -> Played:
    """One game: the external seat at seat 0, rule bots elsewhere."""
    out = Played()
    names = default_names(seats)

    def usage(*args: Any) -> None:
        out.spend.append(args)

    seat = ExternalSeat(
        "ext", kind, "test-agent", backend, names, "en",
        decision_seconds=timer, policy=policy, usage_sink=usage,
        system_prompt_sink=out.prompts.__setitem__,
    )  # fmt: skip
    agents = [seat, *[RuleBot(f"bot{i}") for i in range(1, seats)]]
    game = Game.new(seats, "classic", seed)

    def on_decision(g: Game, view: SeatView, decided: Decided) -> None:
        assert g.pending is not None
        out.decided.append((g.pending.seat, g.pending.option_ids, decided))

    table = Table(
        game, agents, game_id="g1", timeout=timer, policy=policy,  # type: ignore[arg-type]
        autopilots=[RuleBot(f"ap{i}") for i in range(seats)] if policy == "autopilot" else None,
        on_decision=on_decision, max_model_fallbacks=max_fallbacks,
    )  # fmt: skip
    result = await table.play()
    await seat.aclose()
    out.void, out.game = result.void, game
    return out


@pytest.fixture
def play() -> Callable[..., Any]:
    return play_with
