"""The reference value estimator: rule bots play the position out ``n`` times.

Each rollout plays a copy of the true state whose unknown future is re-drawn
(:func:`harness.engine.chance.resample_future`: the order of the deck cards no seat knows, later
reshuffles, coins), so a rollout never reads the real future deck.  The rule bots of a rollout
are fresh and start from their seat's whole event feed so far (read once per position,
:func:`~.playout.fed_suspicions`), so they hold the same picture of the table as the bots of the
game would.
"""

from __future__ import annotations

import random

import numpy as np

from harness.engine import Game
from harness.engine.chance import clone, resample_future

from .playout import cycle_collector_paused, fed_suspicions, new_bots, play_out
from .value_model import result_values


class RolloutValue:
    """Mean result of ``n`` rule-bot rollouts; seeded, so the same state gives the same value
    for the same ``seed`` and call order."""

    name = "rollout"

    def __init__(self, n: int = 16, seed: int = 0) -> None:
        if n < 1:
            raise ValueError("rollouts must be at least 1")
        self.n = n
        self._rng = random.Random(f"rollout:{seed}")
        self.decisions = 0  # decisions played in rollouts so far

    def values(self, game: Game) -> np.ndarray:
        if game.is_over:
            return result_values(game)
        total = np.zeros(game.n)
        fed = fed_suspicions(game)  # the feed so far, read once for every rollout
        with cycle_collector_paused():
            for _ in range(self.n):
                g = clone(game)
                resample_future(g, self._rng)
                bots = new_bots(g, self._rng.getrandbits(32), fed=fed)
                self.decisions += play_out(g, bots, seen=[len(g.events)] * g.n)
                for i in g.winners:
                    total[i] += 1.0
        return total / self.n
