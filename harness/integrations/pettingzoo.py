"""BangArena as a PettingZoo environment: ``env(seats=5, mode="classic")`` (AEC) and
``parallel_env(...)``.

One cycle is one decision of the game.  Every seat acts once per cycle, in seat order; the seat
the engine asks (RULES.md §3-§7) picks one of its legal options, every other seat's only legal
move is ``wait`` (action 0), and the decision is applied when the cycle ends, so all seats
observe the same moment of the game and the AEC and parallel forms are the same game.

* Observation: the seat's view as a fixed-size float32 vector
  (:mod:`harness.integrations.observation`), made from the information filter's seat view.
* ``infos[agent]``: ``action_mask`` (int8 over the fixed action space of
  :mod:`harness.integrations.action_space`), ``options`` (the legal canonical ids) and, unless
  ``views=False``, ``view``: the seat's JSON view (:func:`harness.views.render.render_json`, the
  same content as the model prompts) whose feed holds the events since the seat's last view.
* An illegal action (not in the mask) makes the engine's Ruling R-5 move instead and is
  counted in ``infos[agent]["illegal"]``.
* Rewards: +1 for each winner and -1 for every other seat when the game ends, 0 before.
* ``max_cycles``: the game is truncated after that many decisions.

PettingZoo and Gymnasium are an optional extra: ``pip install -e '.[rl]'``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from harness.engine import Game, build_view, simplest_action
from harness.engine.actions import action_id
from harness.engine.roles import MODES
from harness.extras import require

from .action_space import WAIT, action_ids, action_index
from .observation import HIGH, SIZE, encode

_pz = require("pettingzoo", "rl")
_spaces = require("gymnasium.spaces", "rl")
_AgentSelector = require("pettingzoo.utils.agent_selector", "rl").AgentSelector

DEFAULT_MAX_CYCLES = 10_000  # decisions; a random game takes about 130


class _Table:
    """The game behind both forms: one decision per cycle, encodings, masks and rewards."""

    def __init__(self, seats: int, mode: str, max_cycles: int, views: bool) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.n = seats
        self.mode = mode
        self.max_cycles = max_cycles
        self.views = views
        self.ids = action_ids(seats)
        self.index = action_index(seats)
        self.agents = [f"seat_{i}" for i in range(seats)]
        self.names = [f"Seat {i}" for i in range(seats)]
        self.observation_space = _spaces.Box(0.0, HIGH, (SIZE,), np.float32)
        self.action_space = _spaces.Discrete(len(self.ids))
        self.next_seed: int | None = None
        self.game = Game.new(seats, mode, 0)
        self.cycles = 0
        self.illegal = [0] * seats
        self.seen = [0] * seats  # events already shown in each seat's JSON view

    def reset(self, seed: int | None) -> None:
        """``seed`` deals engine game ``seed`` (then ``seed + 1`` at the next unseeded reset)."""
        if seed is not None:
            self.next_seed = int(seed)
        elif self.next_seed is None:
            self.next_seed = random.randrange(2**31)
        self.game = Game.new(self.n, self.mode, self.next_seed)
        self.next_seed += 1
        self.cycles = 0
        self.illegal = [0] * self.n
        self.seen = [0] * self.n

    @property
    def deciding(self) -> int:
        return self.game.current_seat

    def decide(self, action: int | None) -> None:
        """Apply the deciding seat's action (its R-5 move if the action is not legal)."""
        game = self.game
        seat = game.current_seat
        if seat < 0:
            return
        option = (
            self.ids[int(action)] if action is not None and 0 <= action < len(self.ids) else WAIT
        )
        legal = {action_id(a): a for a in game.pending.options}  # type: ignore[union-attr]
        if option in legal:
            game.apply(legal[option])
        else:
            self.illegal[seat] += 1
            game.apply(simplest_action(game))
        self.cycles += 1

    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def truncated(self) -> bool:
        return not self.over and self.cycles >= self.max_cycles

    def observe(self, seat: int) -> np.ndarray:
        return encode(build_view(self.game, seat, since=len(self.game.events)))

    def reward(self, seat: int) -> float:
        if not self.over:
            return 0.0
        return 1.0 if seat in self.game.winners else -1.0

    def info(self, seat: int) -> dict[str, Any]:
        game = self.game
        mask = np.zeros(len(self.ids), dtype=np.int8)
        options: list[str] = []
        if game.current_seat == seat:
            options = game.pending.option_ids  # type: ignore[union-attr]
            mask[[self.index[o] for o in options]] = 1
        else:
            mask[0] = 1
        out: dict[str, Any] = {
            "action_mask": mask,
            "options": options,
            "illegal": self.illegal[seat],
            "seat": seat,
            "seed": game.seed,
        }
        if self.views:
            from harness.views.render import render_json

            out["view"] = render_json(build_view(game, seat, since=self.seen[seat]), self.names)
            self.seen[seat] = len(game.events)
        if self.over:
            out["winning_side"] = game.winning_side
        return out


class _TableEnv:
    """What both forms share: the table behind them, their agents and their spaces."""

    metadata = {"name": "bangarena_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(
        self,
        seats: int = 5,
        mode: str = "classic",
        max_cycles: int = DEFAULT_MAX_CYCLES,
        views: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = _Table(seats, mode, max_cycles, views)
        self.possible_agents = list(self.table.agents)
        self.render_mode = render_mode
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        return self.table.observation_space

    def action_space(self, agent: str) -> Any:
        return self.table.action_space

    def close(self) -> None:
        pass


class BangArenaAEC(_TableEnv, _pz.AECEnv):  # type: ignore[misc,name-defined]
    """The AEC form: ``agent_iter`` steps every seat once per decision, in seat order."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._chosen: int | None = None
        self.infos = {a: self.table.info(i) for i, a in enumerate(self.agents)}
        self._selector = _AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def observe(self, agent: str) -> np.ndarray:
        return self.table.observe(self.possible_agents.index(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        seat = self.possible_agents.index(agent)
        if seat == table.deciding:
            self._chosen = None if action is None else int(action)
        self._cumulative_rewards[agent] = 0.0
        if self._selector.is_last():
            table.decide(self._chosen)
            self._chosen = None
            over, cut = table.over, table.truncated
            for i, a in enumerate(self.agents):
                self.rewards[a] = table.reward(i)
                self.terminations[a] = over
                self.truncations[a] = cut
                self.infos[a] = table.info(i)
        else:
            self._clear_rewards()
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self.table.game
        seats = " ".join(
            f"{i}:{s.hp}/{s.max_hp}{'' if s.alive else '†'}" for i, s in enumerate(game.seats)
        )
        return f"round {game.round} turn {game.turn} deciding {game.current_seat} | {seats}"


class BangArenaParallel(_TableEnv, _pz.ParallelEnv):  # type: ignore[misc,name-defined]
    """The parallel form: one ``step`` is one decision (only the deciding seat's action counts)."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def step(self, actions: dict[str, int]) -> tuple[Any, ...]:
        table = self.table
        decider = table.deciding
        table.decide(actions.get(self.possible_agents[decider]) if decider >= 0 else None)
        over, cut = table.over, table.truncated
        seats = range(len(self.agents))
        obs = self._observations()
        rewards = {self.agents[i]: table.reward(i) for i in seats}
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        infos = self._infos()
        if over or cut:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, np.ndarray]:
        return {a: self.table.observe(i) for i, a in enumerate(self.possible_agents)}

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {a: self.table.info(i) for i, a in enumerate(self.possible_agents)}


def raw_env(**kwargs: Any) -> BangArenaAEC:
    return BangArenaAEC(**kwargs)


def env(
    seats: int = 5,
    mode: str = "classic",
    max_cycles: int = DEFAULT_MAX_CYCLES,
    views: bool = True,
    render_mode: str | None = None,
) -> BangArenaAEC:
    """The AEC environment (PettingZoo's usual entry point)."""
    return BangArenaAEC(seats, mode, max_cycles, views, render_mode)


def parallel_env(
    seats: int = 5,
    mode: str = "classic",
    max_cycles: int = DEFAULT_MAX_CYCLES,
    views: bool = True,
    render_mode: str | None = None,
) -> BangArenaParallel:
    """The parallel environment: one ``step`` per decision."""
    return BangArenaParallel(seats, mode, max_cycles, views, render_mode)
