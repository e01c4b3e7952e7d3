"""A ladder of agents of graded strength: the rule bot that plays a uniformly random legal option
with probability ε (ε = 0 is the rule bot itself, ε = 1 a random seat)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from harness.agents.rulebot import RuleBot
from harness.engine import SeatView

LADDER: tuple[float, ...] = (0.0, 0.05, 0.15, 0.3, 1.0)


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

    def decide(self, view: SeatView, options: Sequence[str]) -> str:
        if len(options) > 1 and self.epsilon > 0 and self._coin.random() < self.epsilon:
            self.observe(view)
            return options[self._coin.randrange(len(options))]
        return super().decide(view, options)


def label(epsilon: float) -> str:
    return "rulebot" if epsilon == 0 else f"eps{epsilon:g}"
