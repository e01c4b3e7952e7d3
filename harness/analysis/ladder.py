"""A ladder of agents of graded strength: the rule bot that plays a uniformly random legal option
with probability ε (ε = 0 is the rule bot itself, ε = 1 a random seat); and the two answering
modes of the test model server, as a model seat of a league would play with it
(:data:`MODEL_AGENTS`): ``model:first`` answers the first option id offered (the fake and the
instant server's default answer: the first id of the answer schema's ``choice`` enum, which
lists the seat's options in the engine's order) and ``model:random`` a uniformly random offered
option (a server scripted to answer at random), drawn from a generator seeded by the game and
seat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from harness.agents.rulebot import RuleBot
from harness.engine.live_view import SeatInfo

LADDER: tuple[float, ...] = (0.0, 0.05, 0.15, 0.3, 1.0)
MODEL_AGENTS: tuple[str, ...] = ("model:first", "model:random")

AgentKey = float | str  # an ε of the ladder, or one of MODEL_AGENTS


class EpsilonBot(RuleBot):
    """The rule bot, except that with probability ``epsilon`` (its own seeded generator) it plays
    a uniformly random option.  Forced decisions draw nothing, so its feed and the rule bot's
    stay identical."""

    def __init__(self, name: str, epsilon: float, seed: int = 0) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        super().__init__(name, seed)
        self.epsilon = epsilon
        self._coin = random.Random(f"eps:{seed}")

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        super().new_game(game_id, seat, seed)
        self._coin = random.Random(f"eps:{self._seed}:{seed}:{seat}")

    def decide(self, view: SeatInfo, options: Sequence[str]) -> str:
        if len(options) > 1 and self.epsilon > 0 and self._coin.random() < self.epsilon:
            self.observe(view)
            return options[self._coin.randrange(len(options))]
        return super().decide(view, options)


class ModelAnswering(RuleBot):
    """A model seat whose server answers ``how``: ``"first"`` (the first offered option) or
    ``"random"`` (a uniformly random one, from a generator seeded by the game and seat).  It
    reads no views (a model seat keeps its own history; nothing here depends on it)."""

    def __init__(self, name: str, how: str) -> None:
        if how not in ("first", "random"):
            raise ValueError(f"a model answers 'first' or 'random', not {how!r}")
        super().__init__(name)
        self.how = how
        self._draw = random.Random(0)

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        super().new_game(game_id, seat, seed)
        self._draw = random.Random(f"model:{seed}:{seat}")

    def decide(self, view: SeatInfo, options: Sequence[str]) -> str:
        if self.how == "first" or len(options) == 1:
            return options[0]
        return options[self._draw.randrange(len(options))]


def make_agent(agent: AgentKey, name: str) -> RuleBot:
    """The agent of the ladder (an ε) or of :data:`MODEL_AGENTS` (``model:<how>``)."""
    if isinstance(agent, str):
        if agent not in MODEL_AGENTS:
            raise ValueError(f"unknown agent {agent!r}: an ε or one of {', '.join(MODEL_AGENTS)}")
        return ModelAnswering(name, agent.split(":", 1)[1])
    return EpsilonBot(name, agent)


def label(epsilon: AgentKey) -> str:
    if isinstance(epsilon, str):
        return epsilon.replace(":", "-")
    return "rulebot" if epsilon == 0 else f"eps{epsilon:g}"
