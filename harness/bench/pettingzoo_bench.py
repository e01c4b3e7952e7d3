"""``bangarena bench pettingzoo`` — random-policy rollouts of the PettingZoo environment, with the
JSON view in ``info`` (the default) and without it."""

from __future__ import annotations

from harness.extras import MissingExtra

from .core import BenchError, print_result


def run(games: int, seats: int, mode: str, seed: int) -> int:
    try:
        from harness.integrations.pettingzoo_rollouts import random_rollout

        runs = [random_rollout(games, seats, mode, seed, views) for views in (False, True)]
    except MissingExtra as e:
        raise BenchError(str(e)) from None
    print(f"PettingZoo AEC environment: {games} random-policy games, {seats} seats")
    for r in runs:
        label = "with JSON views" if r["views"] else "numeric only   "
        print(
            f"  {label}  {r['games_per_s']:>8,.2f} games/s  {r['decisions_per_s']:>8,} decisions/s"
            f"  {r['agent_steps_per_s']:>8,} agent steps/s"
        )
    return print_result({"benchmark": "pettingzoo", "runs": runs})
