"""Play one game with one agent per seat: views in, options out, deadlines and fallbacks applied.

Each seat's view carries the events since that seat's previous view (the first carries the whole
feed), so agents read the feed incrementally.  Every decision can be observed with ``on_decision``
(records, narration, progress).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from harness.engine import Game, SeatView, build_view

from .base import Agent
from .seat import Decided, FallbackPolicy, decide


@dataclass
class SeatStats:
    decisions: int = 0
    fallbacks: Counter[str] = field(default_factory=Counter)
    latency_s: float = 0.0


@dataclass
class TableResult:
    game: Game
    stats: list[SeatStats]

    @property
    def winning_side(self) -> str | None:
        return self.game.winning_side

    @property
    def winners(self) -> tuple[int, ...]:
        return self.game.winners


class GameDidNotEnd(RuntimeError):
    """A game passed its decision limit: typically every seat is falling back to the R-5 move
    (which never attacks), e.g. when a provider keeps failing."""


DecisionHook = Callable[[Game, SeatView, Decided], Awaitable[None] | None]


async def play_game(
    game: Game,
    agents: Sequence[Agent],
    *,
    game_id: str = "game",
    timeout: float | None = None,
    policy: FallbackPolicy = "simplest",
    autopilots: Sequence[Agent] | None = None,
    on_decision: DecisionHook | None = None,
    max_decisions: int = 20_000,
) -> TableResult:
    """Run ``game`` to the end.  ``autopilots[i]`` (a rule bot) decides for seat i on fallback
    when ``policy`` is ``autopilot``."""
    if len(agents) != game.n:
        raise ValueError(f"{len(agents)} agents for {game.n} seats")
    for i, agent in enumerate(agents):
        agent.new_game(game_id, i, game.seed)
    if autopilots:
        for i, bot in enumerate(autopilots):
            bot.new_game(game_id, i, game.seed)
    seen = [0] * game.n
    stats = [SeatStats() for _ in range(game.n)]
    for _ in range(max_decisions):
        d = game.pending
        if d is None:
            break
        seat = d.seat
        view = build_view(game, seat, since=seen[seat])
        seen[seat] = view.event_count
        if autopilots:
            autopilots[seat].observe(view)
        decided = await decide(
            agents[seat],
            game,
            view,
            timeout,
            policy,
            autopilots[seat] if autopilots else None,
        )
        st = stats[seat]
        st.decisions += 1
        st.latency_s += decided.latency_s
        if decided.fallback:
            st.fallbacks[decided.fallback] += 1
        if on_decision is not None:
            r = on_decision(game, view, decided)
            if r is not None:
                await r
        game.apply(decided.option)
    else:
        fallbacks = sum(sum(st.fallbacks.values()) for st in stats)
        raise GameDidNotEnd(
            f"game {game_id} did not end within {max_decisions} decisions "
            f"({fallbacks} of them fallbacks)"
        )
    return TableResult(game, stats)
