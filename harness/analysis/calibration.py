"""Calibration of the value model on held-out rule-bot games (``bangarena bench value``).

* :func:`reliability` — predicted vs observed win rate in equal-width probability bins;
* :func:`brier` — mean squared error of probabilities against results;
* :func:`reference_positions` — states of held-out games with their results, for comparing the
  fitted model with the rollout reference on the same positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from harness.engine import Game
from harness.engine.chance import clone

from .features import CELLS
from .playout import new_bots, play_out
from .train import HOLDOUT_SEED


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))


@dataclass(frozen=True, slots=True)
class Bin:
    lo: float
    hi: float
    rows: int
    predicted: float
    observed: float


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[Bin]:
    """Equal-width bins of predicted probability; empty bins are left out."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    at = np.clip(np.digitize(p, edges[1:-1]), 0, bins - 1)
    out = []
    for b in range(bins):
        sel = at == b
        k = int(sel.sum())
        if k:
            out.append(
                Bin(float(edges[b]), float(edges[b + 1]), k, float(p[sel].mean()),
                    float(y[sel].mean()))
            )  # fmt: skip
    return out


def reference_positions(
    count: int, seed: int = HOLDOUT_SEED + 5_000_000
) -> list[tuple[Game, np.ndarray]]:
    """``count`` positions, each a uniformly chosen decision point of its own rule-bot game
    (table sizes and modes in turn), with that game's result per seat."""
    rng = random.Random(seed)
    out: list[tuple[Game, np.ndarray]] = []
    for k in range(count):
        n, mode = CELLS[k % len(CELLS)]
        s = seed + k
        game = Game.new(n, mode, s)
        states: list[Game] = []
        play_out(game, new_bots(game, s), visit=lambda g, i, st=states: st.append(clone(g)))
        won = np.zeros(n)
        for w in game.winners:
            won[w] = 1.0
        out.append((states[rng.randrange(len(states))], won))
    return out
