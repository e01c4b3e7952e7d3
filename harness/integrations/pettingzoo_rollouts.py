"""Random-policy rollouts of the PettingZoo environment: the figure of ``bench pettingzoo``."""

from __future__ import annotations

import time
from typing import Any


def random_rollout(games: int, seats: int, mode: str, seed: int, views: bool) -> dict[str, Any]:
    """Play ``games`` games through the AEC environment, every seat picking uniformly among the
    legal actions of its mask; return games/s, decisions/s and agent steps/s."""
    import numpy as np

    from .pettingzoo import env as make_env

    env = make_env(seats=seats, mode=mode, views=views)
    rng = np.random.default_rng(seed)
    steps = decisions = 0
    t0 = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            _obs, _reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(info["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        decisions += env.table.cycles
    elapsed = time.perf_counter() - t0
    env.close()
    return {
        "games": games,
        "seats": seats,
        "mode": mode,
        "views": views,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2),
        "decisions_per_s": round(decisions / elapsed),
        "agent_steps_per_s": round(steps / elapsed),
    }
