"""Batches of headless tables with rule bots and random agents, for benchmarks and balance runs.

Contract:

* :func:`play_table` deals ``Game.new(seats, mode, seed)``, gives a :class:`RuleBot` to every seat
  whose team is in ``bot_teams`` (``"all"`` for every seat) and a :class:`RandomAgent` to the rest,
  plays it with :func:`harness.agents.table.play_game` and returns a picklable
  :class:`TableOutcome`.  The same ``(seats, mode, seed, bot_teams)`` always gives the same
  outcome.
* :func:`run_tables` plays many jobs, in ``workers`` processes when ``workers > 1`` (results in
  job order).
* :func:`bot_speed` plays bot-only games on one core and times :meth:`RuleBot.decide` alone.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from harness.agents.rulebot import RuleBot
from harness.agents.seat_protocol import Agent, RandomAgent
from harness.agents.table import play_game
from harness.engine import Game, SeatView
from harness.engine.roles import TEAM_OF


@dataclass(frozen=True, slots=True)
class TableJob:
    seats: int
    mode: str
    seed: int
    bot_teams: tuple[str, ...]  # teams played by bots ("law", "raiders", "loners") or ("all",)


@dataclass(frozen=True, slots=True)
class TableOutcome:
    job: TableJob
    side: str | None  # winning side: law | raiders | loner | loners
    winners: tuple[int, ...]
    roles: tuple[str, ...]
    rounds: int
    decisions: int
    fallbacks: int


def agents_for(game: Game, bot_teams: Sequence[str], seed: int) -> list[Agent]:
    """One agent per seat: bots for the listed teams (by the dealt roles), random for the rest."""
    out: list[Agent] = []
    for s in game.seats:
        if "all" in bot_teams or TEAM_OF[s.role] in bot_teams:
            out.append(RuleBot(f"bot{s.index}"))
        else:
            out.append(RandomAgent(f"random{s.index}", seed))
    return out


async def _play(job: TableJob) -> TableOutcome:
    game = Game.new(job.seats, job.mode, job.seed)
    roles = tuple(s.role for s in game.seats)
    result = await play_game(
        game, agents_for(game, job.bot_teams, job.seed), game_id=f"{job.mode}-{job.seed}"
    )
    return TableOutcome(
        job=job,
        side=game.winning_side,
        winners=game.winners,
        roles=roles,
        rounds=game.round,
        decisions=len(game.history),
        fallbacks=sum(sum(st.fallbacks.values()) for st in result.stats),
    )


def play_table(job: TableJob) -> TableOutcome:
    return asyncio.run(_play(job))


def _play_chunk(jobs: Sequence[TableJob]) -> list[TableOutcome]:
    async def run() -> list[TableOutcome]:
        return [await _play(j) for j in jobs]

    return asyncio.run(run())


def run_tables(
    jobs: Sequence[TableJob],
    workers: int = 2,
    chunk: int = 50,
    on_done: Callable[[list[TableOutcome]], None] | None = None,
) -> list[TableOutcome]:
    """Play every job; in ``workers`` processes when more than one (results in job order).
    ``on_done`` is called with each finished batch of outcomes (for progress displays)."""
    chunks = [list(jobs[i : i + chunk]) for i in range(0, len(jobs), chunk)]

    def collect(parts: Iterable[list[TableOutcome]]) -> list[TableOutcome]:
        out: list[TableOutcome] = []
        for part in parts:
            out += part
            if on_done is not None:
                on_done(part)
        return out

    if workers <= 1 or len(chunks) <= 1:
        return collect(map(_play_chunk, chunks))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return collect(pool.map(_play_chunk, chunks))


class _TimedBot(RuleBot):
    """A RuleBot that adds up the time spent in :meth:`decide`."""

    seconds = 0.0
    calls = 0

    def decide(self, view: SeatView, options: Sequence[str]) -> str:
        t0 = time.perf_counter()
        out = super().decide(view, options)
        _TimedBot.seconds += time.perf_counter() - t0
        _TimedBot.calls += 1
        return out


@dataclass(frozen=True, slots=True)
class Speed:
    decisions: int
    bot_seconds: float  # time inside RuleBot.decide only
    wall_seconds: float  # whole games: engine, views, runner and bots

    @property
    def bot_decisions_per_s(self) -> float:
        return self.decisions / self.bot_seconds if self.bot_seconds else 0.0

    @property
    def game_decisions_per_s(self) -> float:
        return self.decisions / self.wall_seconds if self.wall_seconds else 0.0


def bot_speed(
    games: int, seats: Sequence[int] = (5, 7), mode: str = "classic", seed: int = 1
) -> Speed:
    """Bot-only games on this core; times :meth:`RuleBot.decide` alone and the whole games."""
    _TimedBot.seconds, _TimedBot.calls = 0.0, 0

    async def run() -> None:
        for n in seats:
            for i in range(games):
                game = Game.new(n, mode, seed + i)
                await play_game(game, [_TimedBot(f"bot{k}") for k in range(n)])

    t0 = time.perf_counter()
    asyncio.run(run())
    wall = time.perf_counter() - t0
    return Speed(_TimedBot.calls, _TimedBot.seconds, wall)
