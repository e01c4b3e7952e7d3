"""Fit the value model on rule-bot self-play (``bangarena analysis train``).

Training games use seeds from :data:`TRAIN_SEED` on, held-out calibration games seeds from
:data:`HOLDOUT_SEED` on; league runs are never read.  Every table size (4–8) and mode is played
``games`` times; the state before every ``stride``-th decision gives one row per seat, labelled
with whether that seat's side won the game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from harness.engine import Game

from .features import CELLS, KEYS, NAMES, TEAMS, features, key_index
from .fitted import MODEL_PATH, TeamWeights, ValueModelFile
from .playout import new_bots, play_out

TRAIN_SEED = 10_000_000
HOLDOUT_SEED = 20_000_000


@dataclass
class Dataset:
    """Feature rows with their weight vector (:data:`KEYS` index: table and team) and label."""

    x: list[np.ndarray] = field(default_factory=list)
    key: list[np.ndarray] = field(default_factory=list)
    y: list[np.ndarray] = field(default_factory=list)
    games: int = 0
    decisions: int = 0

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.vstack(self.x), np.concatenate(self.key), np.concatenate(self.y)


CELL_STRIDE = 100_000  # seeds per table size and mode


def game_seed(seed: int, cell: int, k: int) -> int:
    """The seed of the ``k``-th game of cell ``cell`` (:data:`CELLS` index) from ``seed``."""
    return seed + cell * CELL_STRIDE + k


def self_play(
    games: int, seed: int, stride: int, on_game: Callable[[], None] | None = None
) -> Dataset:
    """``games`` rule-bot games per table size and mode, sampled every ``stride`` decisions."""
    if games > CELL_STRIDE:
        raise ValueError(f"at most {CELL_STRIDE:,} games per table size and mode")
    data = Dataset()
    for ci, (n, mode) in enumerate(CELLS):
        for k in range(games):
            s = game_seed(seed, ci, k)
            game = Game.new(n, mode, s)
            rows: list[np.ndarray] = []

            def visit(g: Game, i: int, rows: list[np.ndarray] = rows) -> None:
                if i % stride == 0:
                    rows.append(features(g))

            data.decisions += play_out(game, new_bots(game, s), visit=visit)
            won = np.zeros(n)
            for w in game.winners:
                won[w] = 1.0
            keys = key_index(game)
            for r in rows:
                data.x.append(r)
                data.key.append(keys)
                data.y.append(won)
            data.games += 1
            if on_game is not None:
                on_game()
    return data


def data_hash(x: np.ndarray, team: np.ndarray, y: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in (np.round(x, 9), team.astype(np.int64), y):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def logistic_fit(
    z: np.ndarray, y: np.ndarray, l2: float, iterations: int = 50
) -> tuple[np.ndarray, float]:
    """L2-penalised logistic regression by Newton's method (the intercept is not penalised);
    deterministic, numpy only.  Returns ``(coef, intercept)``."""
    n, k = z.shape
    a = np.hstack([z, np.ones((n, 1))])
    w = np.zeros(k + 1)
    pen = np.full(k + 1, l2)
    pen[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(a @ w)))
        grad = a.T @ (p - y) + pen * w
        hess = (a * (p * (1.0 - p))[:, None]).T @ a + np.diag(pen) + 1e-9 * np.eye(k + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return w[:-1], float(w[-1])


def fit(
    data: Dataset, config: dict[str, Any], c: float = 1.0, per_cell: bool = False
) -> ValueModelFile:
    """Logistic regression per team (``per_cell``: per table size, mode and team) on
    standardised features, L2 penalty ``1 / c``.  Per team is the default: the luck adjustment
    needs a value that moves smoothly from one state to the next more than a sharper fit per
    table (``bench variance`` measured both)."""
    x, key, y = data.arrays()
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    weights: dict[str, TeamWeights] = {}
    rates: dict[str, float] = {}
    for i, name in enumerate(KEYS):
        sel = key == i
        if sel.any():
            rates[name] = round(float(y[sel].mean()), 6)
    groups = list(KEYS) if per_cell else list(TEAMS)
    for name in groups:
        sel = key == KEYS.index(name) if per_cell else key % 3 == TEAMS.index(name)
        if not sel.any():
            continue
        coef, intercept = logistic_fit(z[sel], y[sel], 1.0 / c)
        weights[name] = TeamWeights(
            coef=[round(float(v), 6) for v in coef], intercept=round(intercept, 6)
        )
    return ValueModelFile(
        features=list(NAMES),
        mean=[round(float(v), 9) for v in mean],
        scale=[round(float(v), 9) for v in scale],
        weights=weights,
        base_rates=rates,
        training={
            **config,
            "c": c,
            "solver": "newton (numpy)",
            "weights": "team|seats|mode" if per_cell else "team",
        },
        data_sha256=data_hash(x, key, y),
        rows=int(len(y)),
    )


def train(
    games: int = 30,
    seed: int = TRAIN_SEED,
    stride: int = 4,
    c: float = 1.0,
    out: Path = MODEL_PATH,
    on_game: Callable[[], None] | None = None,
    per_cell: bool = False,
) -> ValueModelFile:
    """Play, fit and write the model file; returns what was written."""
    data = self_play(games, seed, stride, on_game)
    config = {
        "games_per_cell": games,
        "seed": seed,
        "stride": stride,
        "cells": [f"{n}/{m}" for n, m in CELLS],
        "games": data.games,
        "decisions": data.decisions,
        "players": "rule bots (every seat)",
    }
    model = fit(data, config, c, per_cell)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(model.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return model


__all__ = ["CELLS", "HOLDOUT_SEED", "TRAIN_SEED", "Dataset", "fit", "self_play", "train"]
