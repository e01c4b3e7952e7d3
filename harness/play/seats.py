"""The seats of a table: one agent per seat of a :class:`~harness.play.game_spec.GameSpec`'s
lineup.  Rule bots and random seats are made here (:func:`non_model_agent`); model seats and
external agents by a factory (:meth:`harness.play.model_seats.ModelSeats.seat`, which hands
external agents to :class:`~harness.play.agent_players.AgentSeats`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from harness.agents import Agent, RandomAgent
from harness.agents.rulebot import RuleBot

from .game_spec import GameSpec
from .players import SEATED_KINDS

__all__ = ["ModelSeatFactory", "non_model_agent", "seat_lineup"]

# model_seat(player, seat, spec): a model's or an external agent's seat
ModelSeatFactory = Callable[[str, int, GameSpec], Agent]


def non_model_agent(kind: str, player: str, seat: int, spec: GameSpec) -> Agent:
    """A rule bot (``bot``) or a random seat (any other kind; seeded by the game and seat)."""
    if kind == "bot":
        return RuleBot(player)
    return RandomAgent(player, seed=spec.seed + 7919 * seat)


def seat_lineup(
    spec: GameSpec, kinds: Mapping[str, str], model_seat: ModelSeatFactory | None
) -> list[Agent]:
    """One agent per seat of ``spec``'s lineup; ``kinds`` maps each player to its kind."""
    agents: list[Agent] = []
    for seat, player in enumerate(spec.lineup):
        kind = kinds[player]
        if kind in SEATED_KINDS:
            if model_seat is None:
                raise ValueError("a model seat needs a model seat factory")
            agents.append(model_seat(player, seat, spec))
        else:
            agents.append(non_model_agent(kind, player, seat, spec))
    return agents
