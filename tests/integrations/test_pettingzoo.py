"""The PettingZoo environment passes PettingZoo's own test functions and keeps the engine's
game, options and information filter (RULES.md §9)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test  # noqa: E402

from harness.engine import Game  # noqa: E402
from harness.engine.roles import MODES  # noqa: E402
from harness.integrations import pettingzoo as pz  # noqa: E402
from harness.integrations.action_space import WAIT, action_ids, action_index  # noqa: E402
from harness.integrations.observation import GLOBAL_SIZE, SEAT_FIELDS, SEAT_SIZE, SIZE  # noqa: E402


def test_pettingzoo_api_test() -> None:
    api_test(pz.env(seats=5, mode="classic"), num_cycles=300)


def test_pettingzoo_api_test_without_views_other_sizes() -> None:
    api_test(pz.env(seats=8, mode="double_agent", views=False), num_cycles=300)
    api_test(pz.env(seats=4, mode="old_classic", views=False), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(pz.env, num_cycles=200)


def test_pettingzoo_max_cycles_test() -> None:
    max_cycles_test(pz)


def test_pettingzoo_parallel_api_test() -> None:
    parallel_api_test(pz.parallel_env(views=False), num_cycles=300)


def test_action_space_holds_every_option_the_engine_offers() -> None:
    for mode in MODES:
        for seats in range(4, 9):
            if mode == "double_agent" and seats < 5:
                continue
            index = action_index(seats)
            for seed in range(6):
                game = Game.new(seats, mode, seed)
                rng = random.Random(seed)
                while game.pending is not None:
                    assert set(game.pending.option_ids) <= index.keys()
                    options = game.pending.options
                    game.apply(options[rng.randrange(len(options))])
    assert action_ids(5)[0] == WAIT and len(set(action_ids(5))) == len(action_ids(5))


def _masked_rollout(env: pz.BangArenaAEC, seed: int) -> None:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        _obs, _r, term, trunc, info = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)


def test_seeded_reset_plays_the_engine_game_of_that_seed() -> None:
    env = pz.env(views=False)
    _masked_rollout(env, 7)
    game = env.table.game
    assert game.seed == 7 and game.is_over
    replay = Game.new(5, "classic", 7)
    for action in game.history:  # the environment drove the engine's own game
        replay.apply(action)
    assert replay.events == game.events


def test_only_the_deciding_seat_has_options_and_rewards_follow_the_winners() -> None:
    env = pz.env(views=False)
    env.reset(seed=3)
    decider = env.table.deciding
    for i, agent in enumerate(env.possible_agents):
        mask = env.infos[agent]["action_mask"]
        if i == decider:
            assert mask[0] == 0 and mask.sum() == len(env.table.game.pending.options)
        else:
            assert mask.tolist() == [1] + [0] * (len(mask) - 1)
    _masked_rollout(env, 3)
    game = env.table.game
    assert game.is_over
    env2 = pz.env(views=False)
    env2.reset(seed=3)
    rng = np.random.default_rng(3)
    final: dict[str, float] = {}
    for agent in env2.agent_iter():
        _obs, reward, term, trunc, info = env2.last()
        if term or trunc:
            final[agent] = reward
            env2.step(None)
            continue
        env2.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    winners = set(env2.table.game.winners)
    assert final == {f"seat_{i}": (1.0 if i in winners else -1.0) for i in range(5)}


def test_an_illegal_action_makes_the_r5_move_and_is_counted() -> None:
    """Ruling R-5: the simplest move — in the play phase, end the turn."""
    env = pz.parallel_env(views=False)
    env.reset(seed=1)
    game = env.table.game
    decider = env.table.deciding
    assert game.pending.kind == "play"
    _obs, _r, _t, _tr, infos = env.step({a: 0 for a in env.agents})  # wait is never legal here
    assert infos[f"seat_{decider}"]["illegal"] == 1
    assert game.history[-1] == "end"


def test_observation_hides_unrevealed_roles_and_shows_ones_own() -> None:
    """RULES.md §9: a seat sees its own role and revealed ones (the Marshal), not the others'."""
    env = pz.env(views=False)
    env.reset(seed=11)
    game = env.table.game
    role_at = dict(SEAT_FIELDS)
    offset = 0
    for name, width in SEAT_FIELDS:
        if name == "role":
            break
        offset += width
    for seat in range(5):
        obs = env.observe(f"seat_{seat}")
        assert obs.shape == (SIZE,) and obs.dtype == np.float32
        for k in range(5):
            target = game.seats[(seat + k) % 5]
            roles = obs[GLOBAL_SIZE + k * SEAT_SIZE + offset :][: role_at["role"]]
            visible = k == 0 or target.role == "marshal"
            assert roles.sum() == (1 if visible else 0)


def test_json_view_is_the_prompt_view_and_its_feed_holds_only_new_events() -> None:
    env = pz.parallel_env()
    _obs, infos = env.reset(seed=2)
    decider = env.table.deciding
    first = infos[f"seat_{decider}"]["view"]
    assert first["you"]["seat"] == decider and first["decision"] is not None
    assert len(first["feed"]) > 0 and env.table.seen[decider] == len(env.table.game.events)
    before = len(env.table.game.events)
    actions = {a: int(np.flatnonzero(i["action_mask"])[0]) for a, i in infos.items()}
    _obs, _r, _t, _tr, infos = env.step(actions)
    new_events = len(env.table.game.events) - before
    assert 0 < len(infos[f"seat_{decider}"]["view"]["feed"]) <= new_events
