"""RLCard's UNO environment with its random agents: the peer figure of ``bench engine --compare``.

A decision is one ``env.step`` (the acting player's random choice, the rules, the next player's
encoded state), as a decision of ours is one ``Game.apply`` plus the next legal options.
"""

from __future__ import annotations

import time
from typing import Any

from harness.extras import require


class UnoRandomPlay:
    """RLCard's UNO, every player a ``RandomAgent``; built once, reused for every round."""

    def __init__(self, seed: int) -> None:
        rlcard = require("rlcard", "rl")
        agents = require("rlcard.agents", "rl")
        np = require("numpy", "rl")
        np.random.seed(seed)  # RandomAgent draws from numpy's global generator
        self.env: Any = rlcard.make("uno", config={"seed": seed})
        self.agents = [
            agents.RandomAgent(num_actions=self.env.num_actions)
            for _ in range(self.env.num_players)
        ]
        self.version = getattr(rlcard, "__version__", "?")

    def play(self, games: int) -> tuple[int, float]:
        """Play ``games`` games; return (decisions, seconds)."""
        env, agents = self.env, self.agents
        decisions = 0
        t0 = time.perf_counter()
        for _ in range(games):
            state, player = env.reset()
            while not env.is_over():
                state, player = env.step(agents[player].step(state))
                decisions += 1
        return decisions, time.perf_counter() - t0
