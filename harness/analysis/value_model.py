"""The value model interface: ``value(game, seat)`` is the probability that the seat's side wins
from the game's true state (a Loner is a side of one).

An estimator implements :meth:`ValueModel.values`, the vector of that probability for every
seat; a finished game's values are its result (1 for each winner, 0 otherwise).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from harness.engine import Game


class ValueModel(Protocol):
    name: str

    def values(self, game: Game) -> np.ndarray:
        """P(each seat's side wins), shape ``(game.n,)``."""
        ...


def result_values(game: Game) -> np.ndarray:
    """The values of a finished game: 1.0 for each winner, 0.0 for the other seats."""
    out = np.zeros(game.n)
    for i in game.winners:
        out[i] = 1.0
    return out


def value(game: Game, seat: int, model: ValueModel) -> float:
    """P(``seat``'s side wins) from ``game``'s state according to ``model``."""
    return float(model.values(game)[seat])


class ConstantValue:
    """Every seat 0.5 — a useless value model (the luck adjustment stays unbiased with it)."""

    name = "constant"

    def values(self, game: Game) -> np.ndarray:
        return result_values(game) if game.is_over else np.full(game.n, 0.5)


class NoiseValue:
    """Uniform noise from its own generator — another useless value model."""

    name = "noise"

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)

    def values(self, game: Game) -> np.ndarray:
        return result_values(game) if game.is_over else self._rng.random(game.n)
