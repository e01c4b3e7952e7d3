"""Luck-adjusted scores (the AIVAT family; docs/analysis.md has the estimator and its argument).

A finished game is replayed through the engine.  Between two decisions the game passes
*transitions*: the deal (given the roles), and after each decision the engine runs on to the
next one, drawing cards, revealing checks, tossing Cover coins, reshuffling.  For every
transition the value model ``V`` is evaluated after the actual outcome and, as a baseline, on
``samples`` copies whose unknown future was re-drawn (:func:`harness.engine.chance.resample_future`)
— the mean over the outcomes it could have been.  At a decision of a seat whose policy is known
and random (a random seat: uniform over its options) the baseline also averages over the
options.  A rule bot (policy ``"rulebot"``), and an autopilot rule bot at the decisions it
made for a seat of unknown policy (``autopilot``), is replayed from the seat's views and its
choice is uniform over its exact ties.  The adjusted score of a seat is its win indicator minus
the sum of (value after − baseline) over the transitions.  The choices of seats of unknown policy
(models, people, agents) are never corrected — only the chance that follows them.

Each correction has expectation zero given everything before it, so the mean adjusted score is
an unbiased estimate of the mean win rate for any value model; a good model makes it vary less.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from harness.agents.rulebot import RuleBot
from harness.engine import Action, EngineError, Game, build_view, parse_action
from harness.engine.chance import clone, resample_future
from harness.engine.state import Decision

from .value_model import ValueModel, result_values

Policy = Literal["unknown", "uniform", "rulebot"]
DEFAULT_SAMPLES = 8


@dataclass(frozen=True)
class LuckResult:
    """One game's scores per seat."""

    raw: np.ndarray  # win indicator
    adjusted: np.ndarray  # raw minus the corrections
    deal: np.ndarray  # the deal's correction (characters, cards, the first draw)
    transitions: int  # corrected transitions after decisions
    evaluations: int  # value-model evaluations
    # ``autopilot`` decisions (0-based) whose recorded choice is not among the replayed bot's
    # ties: kept as decisions of unknown policy
    unmatched: tuple[int, ...] = ()

    @property
    def correction(self) -> np.ndarray:
        return self.raw - self.adjusted


def recorded_action(game: Game, i: int, text: str) -> tuple[Decision, Action]:
    """The pending decision of ``game`` and the recorded ``i``-th choice ``text`` parsed;
    ``ValueError`` naming the decision when the game is over or the choice is not an option."""
    d = game.pending
    if d is None:
        raise ValueError(f"decision {i + 1}: the game is already over")
    try:
        action = parse_action(text)
    except EngineError as e:
        raise ValueError(f"decision {i + 1}: {e}") from None
    if action not in d.options:
        raise ValueError(f"decision {i + 1}: {text!r} is not an option")
    return d, action


def _sample(before: Game, action: Action, rng: random.Random, model: ValueModel) -> np.ndarray:
    g = clone(before, events=False)
    resample_future(g, rng)
    g.apply(action)
    return model.values(g)


def apply_and_check_chance(game: Game, action: Action) -> bool:
    """Apply ``action``; whether the engine then used chance (a card left the deck or the
    generator drew: a draw, check, coin, random pick or reshuffle)."""
    deck, state = len(game.deck), game.rng.getstate()
    game.apply(action)
    return len(game.deck) != deck or game.rng.getstate() != state


def _rule_bots(policies: Sequence[Policy], seed: int) -> dict[int, RuleBot]:
    bots = {s: RuleBot(f"bot{s}") for s, p in enumerate(policies) if p == "rulebot"}
    for s, b in bots.items():
        b.new_game("luck", s, seed)
    return bots


def luck_adjust(
    seats: int,
    mode: str,
    seed: int,
    actions: Sequence[str],
    policies: Sequence[Policy],
    model: ValueModel,
    samples: int = DEFAULT_SAMPLES,
    deal_samples: int | None = None,
    rng_seed: int = 0,
    bot_seed: int | None = None,
    autopilot: Collection[int] = (),
    width: int = 0,
) -> LuckResult:
    """Replay the game ``(seats, mode, seed)`` with ``actions`` and return every seat's raw and
    luck-adjusted score.  ``policies[s]`` is ``"uniform"`` for a seat known to choose uniformly
    at random (a random seat), ``"rulebot"`` for a rule bot (replayed from its views: its choice
    is uniform over its exact ties), else ``"unknown"``.  ``bot_seed`` is the seed the rule bots
    were started with (default: the game's).  ``autopilot`` are the decisions (0-based) that a
    rule bot shown every view of the deciding seat made for it (an autopilot): replayed as a
    rule bot's, or kept unknown when the recorded choice is not among its ties
    (:attr:`LuckResult.unmatched`).  ``width`` > 0: ``model.values`` gives ``width`` columns per
    seat (several value functions at once, e.g. :mod:`.ceiling`'s), and every score has that
    many columns, one per function.  Raises ``ValueError`` when the actions do not finish the
    game or a rule bot's recorded choice is not one its policy could make."""
    if samples < 1:
        raise ValueError("samples must be at least 1")
    rng = random.Random(f"luck:{rng_seed}:{seats}:{mode}:{seed}")
    game = Game.new(seats, mode, seed)
    n = game.n
    shape = (n, width) if width else (n,)
    evals = 0
    # the deal given the roles: who holds which role is the condition, not luck
    roles = [s.role for s in game.seats]
    k_deal = samples if deal_samples is None else deal_samples
    deal = np.zeros(shape)
    if k_deal > 0:
        base = np.zeros(shape)
        for _ in range(k_deal):
            base += model.values(Game.new(seats, mode, rng.getrandbits(63), roles=roles))
        deal = model.values(game) - base / k_deal
        evals += k_deal + 1
    corr = deal.copy()
    corrected = 0
    bots = _rule_bots(policies, seed if bot_seed is None else bot_seed)
    piloted = set(autopilot)
    pilots = _rule_bots(["rulebot"] * n, seed if bot_seed is None else bot_seed) if piloted else {}
    unmatched: list[int] = []
    seen = [0] * n
    for i, text in enumerate(actions):
        d, action = recorded_action(game, i, text)
        among: Sequence[Action] = d.options
        bot = bots.get(d.seat) if len(d.options) > 1 else None
        pilot = bot is None and i in piloted and len(d.options) > 1
        if pilot:
            bot = pilots[d.seat]
        if bot is not None:
            view = build_view(game, d.seat, since=seen[d.seat])
            seen[d.seat] = view.event_count
            bot.decide(view, d.option_ids)
            among = [parse_action(t) for t in bot.last_ties]
            if action not in among and pilot:
                unmatched.append(i)
                bot, among = None, [action]
            elif action not in among:
                raise ValueError(f"decision {i + 1}: {text!r} is not the rule bot's choice")
        uniform = (policies[d.seat] == "uniform" or bot is not None) and len(among) > 1
        before = clone(game, events=False)
        chance = apply_and_check_chance(game, action)
        if not (uniform or chance):
            continue
        base = np.zeros(shape)
        if uniform:
            options = list(among)
            if len(options) > samples:
                options = rng.sample(options, samples)
            per = max(1, -(-samples // len(options))) if chance else 1
            for o in options:
                acc = np.zeros(shape)
                for _ in range(per):
                    acc += _sample(before, o, rng, model)
                base += acc / per
                evals += per
            base /= len(options)
        else:
            for _ in range(samples):
                base += _sample(before, action, rng, model)
            base /= samples
            evals += samples
        corr += model.values(game) - base
        evals += 1
        corrected += 1
    if game.pending is not None:
        raise ValueError(f"the game is not over after {len(actions)} decisions")
    raw = result_values(game)
    if width:
        raw = np.repeat(raw[:, None], width, axis=1)
    return LuckResult(raw, raw - corr, deal, corrected, evals, tuple(unmatched))
