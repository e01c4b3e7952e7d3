"""External agent players (``kind: agent``, ``kind: remote``, ``kind: mcp`` and ``kind: inspect``):
their seats, and their usage in the run's spend ledger.

* :func:`check_agent_players` (the fields each kind takes are checked by format in
  :mod:`harness.play.agent_fields`, as the config is read) imports every ``agent:`` factory
  before a run starts, so a bad path is a one-line :class:`ConfigError`; that a league serves
  its MCP and Inspect players is checked by :func:`harness.league.served_players.check_mcp_players`.
* :class:`AgentSeats` — builds the seats (one Python agent per seat and game; one HTTP client per
  remote player, shared by its seats) and writes one spend line per message an agent answered
  or failed, with the tokens and dollars the agent reported, so the run's caps count them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from harness.agents.external_seat import ExternalSeat
from harness.agents.mcp_seat import McpBackend, McpChannel
from harness.agents.python_agent import AgentPathError, PythonBackend, load_factory
from harness.agents.remote_agent import RemoteBackend, RemoteClient
from harness.agents.seat_protocol import Agent

from .config_files import ConfigError
from .ledger import SpendLine, current_game, now_utc

if TYPE_CHECKING:
    from .game_spec import GameSpec
    from .players import PlayerConfig, SeatSettings

__all__ = ["AgentSeats", "check_agent_players"]

EXTERNAL_KINDS = ("agent", "remote", "mcp", "inspect")
ANSWERED = (None, "unparseable", "illegal_option", "oversized")


def check_agent_players(players: Sequence[PlayerConfig]) -> None:
    """Import every Python agent's factory; a :class:`ConfigError` (one line) when one fails."""
    for p in players:
        if p.kind == "agent" and p.agent:
            try:
                factory = load_factory(p.agent)
            except AgentPathError as e:
                raise ConfigError(f"player {p.name}: {e}") from None
            try:
                signature = inspect.signature(factory)
            except (TypeError, ValueError):  # no signature to check (a builtin)
                continue
            try:
                signature.bind(**(p.options or {}))
            except TypeError as e:
                raise ConfigError(f"player {p.name}: options do not fit {p.agent}: {e}") from None


class AgentSeats:
    """The external agent seats of one run (see the module docstring)."""

    def __init__(
        self,
        config: SeatSettings,
        add_spend: Callable[[SpendLine], None],
        system_prompt_sink: Callable[[str, str], None] | None = None,
    ) -> None:
        self.config = config
        self.add_spend = add_spend
        self.system_prompt_sink = system_prompt_sink
        self.players = {p.name: p for p in config.players if p.kind in EXTERNAL_KINDS}
        self._factories: dict[str, Callable[..., Any]] = {}
        self._clients: dict[str, RemoteClient] = {}
        self.mcp_channels: dict[
            str, McpChannel
        ] = {}  # player -> its client's (or solver's) channel

    def __contains__(self, player: object) -> bool:
        return player in self.players

    def _backend(self, p: PlayerConfig) -> Any:
        if p.kind == "agent":
            assert p.agent is not None
            if p.name not in self._factories:
                try:
                    self._factories[p.name] = load_factory(p.agent)
                except AgentPathError as e:
                    raise ConfigError(f"player {p.name}: {e}") from None
            return PythonBackend(self._factories[p.name], p.options)
        if p.kind in ("mcp", "inspect"):
            if p.name not in self.mcp_channels:
                raise ConfigError(f"player {p.name} is a {p.kind} seat that nothing drives")
            return McpBackend(self.mcp_channels[p.name])
        assert p.url is not None
        if p.name not in self._clients:
            self._clients[p.name] = RemoteClient(p.url, p.token_env)
        return RemoteBackend(self._clients[p.name])

    def seat(self, player: str, seat: int, game: GameSpec) -> Agent:
        p = self.players[player]
        label = p.label or p.kind
        return ExternalSeat(
            player,
            p.kind,
            label.partition("/")[2],
            self._backend(p),
            game.names,
            p.locale or self.config.locale,
            decision_seconds=self.config.decision_seconds,
            policy=self.config.fallback,
            usage_sink=self._on_usage,
            system_prompt_sink=self.system_prompt_sink,
        )

    def _on_usage(
        self,
        player: str,
        kind: str,
        model: str,
        usage: Any,
        error_kind: str | None,
        latency_s: float,
    ) -> None:
        line = SpendLine(
            at=now_utc(),
            game_id=current_game.get(),
            player=player,
            provider=kind,
            model=model,
            # an answer came back, valid or not; or the message failed (raised, timed out...)
            outcome="answered" if error_kind in ANSWERED else "failed",
            error_kind=error_kind,
            latency_s=round(latency_s, 6),
        )
        if usage is not None:
            line.input_tokens = usage.input_tokens
            line.output_tokens = usage.output_tokens
            line.cost_usd = usage.cost_usd if usage.cost_usd is not None or line.tokens else 0.0
        self.add_spend(line)

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()
