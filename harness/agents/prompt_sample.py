"""Prompts a model seat would send, measured on sampled games played by rule bots or random
seats: the measurement behind ``bangarena prompt-stats`` and ``bangarena plan``'s model usage
(:class:`~harness.agents.prompt_stats.PolicyMeter` holds the figures)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Literal

from harness.engine import Game, SeatView
from harness.views.names import default_names
from harness.views.tokens import TokenCounter

from .prompt_stats import PolicyMeter
from .seat_protocol import RandomAgent
from .table import play_game
from .transcript import HISTORY_POLICIES

Players = Literal["bots", "random"]


def _agents(kind: Players, n: int, seed: int) -> list[Any]:
    if kind == "bots":
        from .rulebot import RuleBot

        return [RuleBot(f"bot{i}") for i in range(n)]
    return [RandomAgent(f"random{i}", seed + i) for i in range(n)]


def sample_prompts(
    seats: int,
    mode: str,
    games: int,
    seed: int,
    locale: str,
    counter: TokenCounter,
    policies: Sequence[str] | None = None,
    context_tokens: int | None = None,
    players: Players = "bots",
    on_game: Callable[[], None] | None = None,
) -> PolicyMeter:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, …) of ``seats`` seats in ``mode`` and
    measure every seat's requests under each history policy (default: all); ``on_game`` is
    called after each game."""
    meter = PolicyMeter(
        default_names(seats), locale, counter, policies or HISTORY_POLICIES, context_tokens
    )

    def hook(game: Game, view: SeatView, decided: Any) -> None:
        options = view.pending.options if view.pending is not None else None
        meter.decision(view, options or (), decided.option)

    for i in range(games):
        meter.new_game()
        game = Game.new(seats, mode, seed + i)
        agents = _agents(players, seats, seed + i)
        asyncio.run(play_game(game, agents, game_id=f"sample{i}", on_decision=hook))
        if on_game is not None:
            on_game()
    meter.end_game()
    return meter


__all__ = ["Players", "sample_prompts"]
