"""Leagues of model seats against the instant local server (:mod:`harness.bench.instant_server`),
shared by the league, caps and deadline benchmarks: the league config, a provider held for a
while after the server answered (a slow provider made of an instant one), and one session of the
runner with such a provider."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .core import BenchError


def require_model_seats() -> None:
    """Raise :class:`BenchError` unless model seats can run (the ``openai`` client, uvicorn and
    Starlette for the instant server)."""
    try:
        import openai  # noqa: F401

        from .instant_server import InstantServer  # noqa: F401
    except ImportError as e:
        raise BenchError(f"model seats are not available: {e}") from None


class Held:
    """A provider whose replies arrive ``latency`` seconds (plus up to ``spread``, a seeded draw)
    after the server answered: a slow provider made of an instant one."""

    def __init__(self, provider: Any, latency: float, spread: float = 0.0, seed: int = 0) -> None:
        self._provider = provider
        self._latency = latency
        self._spread = spread
        self._rng = random.Random(seed)
        self.name = provider.name
        self.default_answer_mode = provider.default_answer_mode
        self.supported_answer_modes = provider.supported_answer_modes

    async def complete(self, request: Any) -> Any:
        reply = await self._provider.complete(request)
        await asyncio.sleep(self._latency + self._rng.uniform(0.0, self._spread))
        return reply

    async def aclose(self) -> None:
        await self._provider.aclose()


def instant_league(
    name: str,
    base_url: str,
    players: Sequence[str],
    seats: int,
    games: int,
    concurrent: int,
    seed: int,
    output: Path | str,
    **settings: Any,
) -> Any:
    """A league config of model ``players``, each the model of the instant local server at
    ``base_url``, at ``seats``-seat classic tables: ``games`` games, ``concurrent`` at once (and
    as many provider calls).  ``settings`` add to or replace league settings."""
    from harness.league.league_config import parse_config

    model = {"provider": "openai", "model": "instant", "base_url": base_url}
    return parse_config(
        {
            "name": name,
            "players": [{"name": p, "kind": "model", "model": dict(model)} for p in players],
            "tables": [{"seats": [seats], "modes": ["classic"]}],
            "games_per_table": games,
            "base_seed": seed,
            "decision_seconds": 60,
            "max_concurrent_games": concurrent,
            "providers": {"openai": {"concurrency": concurrent}},
            "output": str(output),
            **settings,
        },
        "bench config",
    )


def held_runner(
    config: Any,
    tmp: Path,
    latency: float,
    spread: float = 0.0,
    seed: int = 0,
    resume: bool = False,
) -> tuple[Any, Any]:
    """A league runner of ``config`` into ``tmp / config.name`` and its model seats, every
    provider :class:`Held` by ``latency`` plus up to ``spread`` seconds (each provider's draws
    seeded by ``seed``)."""
    from harness.league.runner import LeagueRunner
    from harness.play.model_seats import ModelSeats

    run_dir = tmp / config.name
    seats = ModelSeats(config, run_dir)
    seats.wrap_provider = lambda p: Held(p, latency, spread, seed)
    return LeagueRunner(config, run_dir, resume=resume, model_seats=seats), seats
