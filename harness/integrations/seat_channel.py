"""A league player's seat driven through a channel (:class:`~harness.agents.mcp_seat.McpChannel`):
an MCP client's (``bangarena mcp``) or an Inspect solver's (the Inspect task with ``-T config=``).

* :func:`attach` gives the player's seats of a run their channel, and tells the channel of each
  game's end with :func:`game_result`.
* :func:`game_result` is what the seat may know at the end of a game: its own outcome and the
  winning side, never the other seats' roles.
"""

from __future__ import annotations

from typing import Any

from harness.agents.mcp_seat import McpChannel
from harness.league.runner import LeagueRunner
from harness.play.recorder import GameOutput

__all__ = ["attach", "game_result"]


def game_result(out: GameOutput, player: str) -> dict[str, Any] | None:
    """What ``player``'s seat may know at the end of ``out``'s game: its own outcome and the
    winning side (the other seats' roles are not included)."""
    rec = out.record
    mine = [o for o in rec.seat_outcomes if o.player == player]
    if not mine:
        return None
    o = mine[0]
    return {
        "game_id": rec.game_id,
        "seat": o.seat,
        "role": o.role,
        "won": o.won,
        "alive": o.alive,
        "winning_side": rec.winning_side,
        "rounds": rec.rounds,
        "void": rec.void,
        "decisions": o.decisions,
        "fallbacks": sum(o.fallbacks.values()),
    }


def attach(runner: LeagueRunner, player: str) -> McpChannel:
    """The channel of ``player``'s seat in ``runner``'s games."""
    total = sum(player in spec.lineup for spec in runner.todo)
    channel = McpChannel(player, games_total=total)
    assert runner.model_seats is not None, "a run with an MCP player has seated players"
    runner.model_seats.agents.mcp_channels[player] = channel

    def on_game(out: GameOutput) -> None:
        result = game_result(out, player)
        if result is not None:
            channel.game_over(out.record.game_id, result)

    runner.game_listeners.append(on_game)
    return channel
