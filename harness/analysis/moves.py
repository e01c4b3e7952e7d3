"""Move analysis: the value of each legal option of one decision, from the deciding seat's
information only, and the chosen option's loss against the best.

At a decision of seat ``s`` the analysis draws ``K`` worlds (:class:`harness.engine.redeal.Redeal`:
everything ``s`` cannot see dealt again, consistently with what it sees), applies every option in
every world and values the result for ``s``; an option's value is its mean over the worlds.  Every
option meets the same worlds and the same chance in a world (common random numbers), so the
differences between options carry less noise than the values.  The loss of the chosen option is
``best mean − chosen mean`` (≥ 0).

Two ways to value an option in a world (:data:`VALUERS`):

* ``fitted`` (the default): rule bots play the other seats' answers on until ``s`` has its next
  real choice (a decision with more than one option) or the game ends, then the fitted model
  (:class:`.fitted.FittedValue`) values the state for ``s``;
* ``rollout``: rule bots play the world to its end once (:mod:`.playout`); the value is the result.

Thresholds (docs/analysis.md): a loss of at least 0.05 win probability is an inaccuracy, 0.10 a
mistake, 0.15 a blunder; accuracy maps the loss to 0–100 with Lichess's curve.
"""

from __future__ import annotations

import math
import random
from contextlib import suppress
from dataclasses import dataclass
from typing import Literal, Protocol

from harness.engine import Game
from harness.engine.chance import clone
from harness.engine.redeal import Redeal

from .fitted import FittedValue
from .playout import PlayoutTooLong, new_bots, play_out

DEFAULT_WORLDS = 16
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
HORIZON = 2_000  # decisions a continuation may take before the state is valued as it is

Label = Literal["inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("inaccuracy", "mistake", "blunder")


def classify(loss: float) -> Label | None:
    """The label of a decision that lost ``loss`` win probability (None: a good decision)."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy(loss: float) -> float:
    """Accuracy of one decision in 0–100: Lichess's move accuracy of a drop of ``100·loss``
    win-percentage points, ``103.1668·exp(−0.04354·drop) − 3.1669``, clipped to [0, 100]
    (no drop: 100)."""
    drop = 100.0 * max(0.0, loss)
    if drop == 0.0:
        return 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


class OptionValuer(Protocol):
    name: str

    def value(self, game: Game, seat: int, seed: int) -> float:
        """P(``seat``'s side wins) after an option was applied to ``game`` (which it may play on)."""
        ...


class FittedLookahead:
    """Rule bots answer until the seat's next real choice, then the fitted model values it."""

    name = "fitted"

    def __init__(self, model: FittedValue | None = None) -> None:
        self.model = model if model is not None else FittedValue()
        self.digest = self.model.digest

    def value(self, game: Game, seat: int, seed: int) -> float:
        def mine(g: Game) -> bool:
            d = g.pending
            return d is not None and d.seat == seat and len(d.options) > 1

        if not mine(game):
            with suppress(PlayoutTooLong):  # valued as it stands after HORIZON answers
                play_out(game, new_bots(game, seed), until=mine, max_decisions=HORIZON)
        return float(self.model.values(game)[seat])


class RolloutToEnd:
    """Rule bots play the world to its end once; the value is the result for the seat."""

    name = "rollout"
    digest = "rule-bot rollouts"

    def value(self, game: Game, seat: int, seed: int) -> float:
        play_out(game, new_bots(game, seed))
        return 1.0 if seat in game.winners else 0.0


VALUERS = ("fitted", "rollout")


def make_valuer(name: str) -> FittedLookahead | RolloutToEnd:
    if name == "fitted":
        return FittedLookahead()
    if name == "rollout":
        return RolloutToEnd()
    raise ValueError(f"value must be one of {', '.join(VALUERS)}, got {name!r}")


@dataclass(frozen=True)
class DecisionValues:
    options: tuple[str, ...]
    values: tuple[float, ...]  # mean over the worlds, one per option
    chosen: str

    @property
    def best(self) -> str:
        return self.options[max(range(len(self.values)), key=self.values.__getitem__)]

    @property
    def chosen_value(self) -> float:
        return self.values[self.options.index(self.chosen)]

    @property
    def loss(self) -> float:
        return max(self.values) - self.chosen_value


def decision_rng(game_id: str, index: int) -> random.Random:
    """The one generator of a decision's analysis: fixed by the game and the decision."""
    return random.Random(f"moves:{game_id}:{index}")


def analyse(
    game: Game, chosen: str, valuer: OptionValuer, worlds: int, rng: random.Random
) -> DecisionValues:
    """The values of every option of ``game``'s pending decision for the deciding seat (see the
    module docstring); ``game`` is not changed."""
    d = game.pending
    if d is None:
        raise ValueError("the game has no pending decision")
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    seat, options = d.seat, d.option_ids
    if chosen not in options:
        raise ValueError(f"{chosen!r} is not an option")
    redeal = Redeal(game, seat)
    totals = [0.0] * len(options)
    for _ in range(worlds):
        world = redeal.world(rng)
        seed = rng.getrandbits(64)
        for i, option in enumerate(d.options):
            g = clone(world, events=False)
            g.apply(option)
            totals[i] += valuer.value(g, seat, seed)
    values = tuple(t / worlds for t in totals)
    return DecisionValues(tuple(options), values, chosen)
