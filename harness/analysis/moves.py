"""Move analysis: the value of each legal option of one decision, from the deciding seat's
information only, and the chosen option's loss against the best.

At a decision of seat ``s`` the analysis draws ``K`` worlds (:class:`harness.engine.redeal.Redeal`:
everything ``s`` cannot see dealt again, consistently with what it sees), applies every option in
every world and values the result for ``s``; an option's value is its mean over the worlds.  Every
option meets the same worlds, the same chance and the same play-out generator in a world (common
random numbers), so the differences between options carry less noise than the values.  The loss
of the chosen option is ``best mean − chosen mean`` (≥ 0).

Adaptive precision: after ``K`` worlds (default 16), when the best two options are not separated
(their paired difference is at most twice its standard error and that error is not zero), more
worlds are drawn from the same generator up to ``max_worlds`` (default 32); the first ``K`` worlds
are the same either way.  Each option's value has a standard error (over the worlds), and the
loss has the standard error of the paired difference best − chosen (and each option its own
standard error of best − option).

Two ways to value an option in a world (:data:`VALUERS`):

* ``rollout`` (the default): rule bots play the world to its end once (:mod:`.playout`), the
  deciding seat's own later decisions included (no horizon); the value is the result;
* ``fitted`` (fast, less faithful): rule bots play the other seats' answers on until ``s`` has
  its next real choice (a decision with more than one option) or the game ends, then the fitted
  linear model (:class:`.fitted.FittedValue`) values the state for ``s``; it can call a set-up
  move (a Horse before the Shot it enables) a blunder because its lookahead stops there.

Thresholds (docs/analysis.md): a loss of at least 0.05 win probability is an inaccuracy, 0.10 a
mistake, 0.15 a blunder — and only when it is above twice its standard error
(:func:`classify`); accuracy maps the loss to 0–100 with Lichess's curve.
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

DEFAULT_VALUE = "rollout"
DEFAULT_WORLDS = 16
DEFAULT_MAX_WORLDS = 32  # worlds a decision whose best two options are not separated may reach
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
HORIZON = 2_000  # decisions a continuation may take before the state is valued as it is

Label = Literal["inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("inaccuracy", "mistake", "blunder")


def classify(loss: float, se: float = 0.0) -> Label | None:
    """The label of a decision that lost ``loss`` win probability, ``se`` the standard error of
    that loss (None: a good decision, or a loss not above ``2·se``)."""
    if loss <= 2.0 * se:
        return None
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


VALUERS = ("rollout", "fitted")


def make_valuer(name: str = DEFAULT_VALUE) -> FittedLookahead | RolloutToEnd:
    if name == "fitted":
        return FittedLookahead()
    if name == "rollout":
        return RolloutToEnd()
    raise ValueError(f"value must be one of {', '.join(VALUERS)}, got {name!r}")


def _mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error (sample deviation / √n; 0 for one value)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def paired(rows: list[list[float]], a: int, b: int) -> tuple[float, float]:
    """Mean and standard error of option ``a``'s value minus option ``b``'s over the worlds
    (``rows[k][i]``: option ``i`` in world ``k``)."""
    return _mean_se([r[a] - r[b] for r in rows])


def separated(rows: list[list[float]]) -> bool:
    """Whether the best two options (by mean) are told apart: their paired difference is above
    twice its standard error, or every world gave the same difference (standard error 0)."""
    if len(rows[0]) < 2:
        return True
    means = [sum(col) / len(rows) for col in zip(*rows, strict=True)]
    order = sorted(range(len(means)), key=lambda i: -means[i])
    diff, se = paired(rows, order[0], order[1])
    return se == 0.0 or diff > 2.0 * se


@dataclass(frozen=True)
class DecisionValues:
    options: tuple[str, ...]
    values: tuple[float, ...]  # mean over the worlds, one per option
    chosen: str
    ses: tuple[float, ...] = ()  # standard error of each value over the worlds
    loss_se: float = 0.0  # standard error of the paired difference best − chosen
    worlds: int = 0  # worlds drawn
    gap_ses: tuple[float, ...] = ()  # standard error of the paired difference best − each option

    @property
    def best(self) -> str:
        return self.options[max(range(len(self.values)), key=self.values.__getitem__)]

    @property
    def chosen_value(self) -> float:
        return self.values[self.options.index(self.chosen)]

    @property
    def loss(self) -> float:
        return max(self.values) - self.chosen_value


def decision_rng(game_id: str, index: int, stream: str = "") -> random.Random:
    """The one generator of a decision's analysis: fixed by the game, the decision and the seed
    stream (``""``: the default's; a reference analysis draws from another stream, so its
    worlds are not the default's)."""
    return random.Random(
        f"moves:{stream}:{game_id}:{index}" if stream else f"moves:{game_id}:{index}"
    )


def analyse(
    game: Game,
    chosen: str,
    valuer: OptionValuer,
    worlds: int,
    rng: random.Random,
    max_worlds: int | None = None,
) -> DecisionValues:
    """The values of every option of ``game``'s pending decision for the deciding seat (see the
    module docstring): ``worlds`` worlds, then up to ``max_worlds`` (default: no more) when the
    best two options are not separated; ``game`` is not changed."""
    d = game.pending
    if d is None:
        raise ValueError("the game has no pending decision")
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    seat, options = d.seat, d.option_ids
    if chosen not in options:
        raise ValueError(f"{chosen!r} is not an option")
    cap = worlds if max_worlds is None else max(worlds, max_worlds)
    redeal = Redeal(game, seat)
    rows: list[list[float]] = []  # rows[k][i]: option i in world k

    def draw(n: int) -> None:
        for _ in range(n):
            world = redeal.world(rng)
            seed = rng.getrandbits(64)  # one play-out generator per world, for every option
            row = []
            for option in d.options:
                g = clone(world, events=False)
                g.apply(option)
                row.append(valuer.value(g, seat, seed))
            rows.append(row)

    draw(worlds)
    if cap > worlds and not separated(rows):
        draw(cap - worlds)
    stats = [_mean_se(list(col)) for col in zip(*rows, strict=True)]
    values = tuple(m for m, _ in stats)
    best = max(range(len(values)), key=values.__getitem__)
    gap_ses = tuple(paired(rows, best, i)[1] for i in range(len(options)))
    return DecisionValues(
        tuple(options), values, chosen, tuple(se for _, se in stats),
        gap_ses[options.index(chosen)], len(rows), gap_ses,
    )  # fmt: skip
