"""The MCP and Inspect players of a league: each is served by one client (``bangarena mcp``, or the
Inspect task's solver) and sits at most once in each game of the schedule."""

from __future__ import annotations

from harness.play.config_files import ConfigError

from .league_config import LeagueConfig
from .schedule import build_schedule

__all__ = ["check_mcp_players"]


def check_mcp_players(
    config: LeagueConfig, served: str | None = None, solver: str | None = None
) -> None:
    """A :class:`ConfigError` unless every ``kind: mcp`` player is ``served`` (the player
    ``bangarena mcp`` serves) and every ``kind: inspect`` player is ``solver`` (the player the
    Inspect task's solver plays), and each of them sits at most once in every game."""
    for p in config.players:
        if p.kind == "mcp" and p.name != served:
            raise ConfigError(
                f"player {p.name} is an MCP client's seat: serve it with "
                f"'bangarena mcp CONFIG --player {p.name}' (one MCP player per run)"
            )
        if p.kind == "inspect" and p.name != solver:
            raise ConfigError(
                f"player {p.name} is an Inspect solver's seat: run 'inspect eval "
                f"harness/integrations/inspect_task.py -T config=CONFIG -T player={p.name}'"
            )
    for player, kind, who in ((served, "mcp", "an MCP client"), (solver, "inspect", "a solver")):
        if player is None:
            continue
        if config.player(player).kind != kind:
            raise ConfigError(
                f"player {player} is of kind {config.player(player).kind!r}, not {kind!r}"
            )
        for spec in build_schedule(config):
            if spec.lineup.count(player) > 1:
                raise ConfigError(
                    f"game {spec.game_id} seats {player} {spec.lineup.count(player)} times: "
                    f"{who} drives one seat, so list at least as many players as a table has seats"
                )
