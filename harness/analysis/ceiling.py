"""How far any value model linear in the state features could take the luck adjustment on the
variance bench's ladder (``bangarena bench variance --ceiling``; docs/analysis.md).

The luck adjustment is linear in the value model: with ``V = Σ_f β_f f`` for functions ``f`` of
the state, a seat's adjusted score is ``W − Σ_f β_f Z_f`` where ``Z_f`` is the sum of the
corrections computed with ``f`` alone (the deal and every corrected transition).  Each ``Z_f`` has
mean zero whatever ``f`` is (the argument of :mod:`.luck`), so for any fixed ``β`` the mean stays
unbiased, and the ``β`` that makes ``W − Z·β`` vary least is the least-squares fit of ``W`` on
``Z`` — the best value model of that form.  :class:`Columns` are the functions: the fitted value
model, the result of a finished game, whether the game is over, and every feature of
:mod:`.features` in each stage of the game (rounds 1–3, 4–6, 7–9, 10 on).  ``β`` is fitted on
training deals (seeds from :data:`TRAIN_SEED`, every agent of the ladder, every seat) and applied
to the bench's own deals, never fitted on the games it scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

import numpy as np

from harness.engine import Game

from .features import N_FEATURES, features
from .fitted import FittedValue
from .ladder import label
from .luck import luck_adjust
from .value_model import result_values
from .variance import MODE, SEED, ladder_game

TRAIN_SEED = 10_000_000
STAGES = 4  # rounds 1-3, 4-6, 7-9, 10 on
WIDTH = 3 + STAGES * N_FEATURES
RIDGE = 10.0


class Columns:
    """The state functions whose corrections are the control variates, ``(n, WIDTH)``."""

    name = "ceiling-columns"

    def __init__(self) -> None:
        self.fitted = FittedValue()

    def values(self, game: Game) -> np.ndarray:
        n = game.n
        out = np.zeros((n, WIDTH))
        if game.is_over:
            r = result_values(game)
            out[:, 0] = r
            out[:, 1] = r
            out[:, 2] = 1.0
            return out
        out[:, 0] = self.fitted.values(game)
        stage = min(STAGES - 1, (game.round - 1) // 3)
        at = 3 + stage * N_FEATURES
        out[:, at : at + N_FEATURES] = features(game)
        return out


@cache
def _columns() -> Columns:
    """The state functions, loaded once per process."""
    return Columns()


def deal_rows(job: tuple[float, int, int, int]) -> tuple[float, int, int, np.ndarray, np.ndarray]:
    """One ladder deal: ``(epsilon, deal, seat under test, W per seat, Z per seat)``."""
    epsilon, deal, seed, samples = job
    game, me, known = ladder_game(epsilon, deal, seed)
    r = luck_adjust(
        game.n, MODE, seed + deal, game.history, known, _columns(), samples,
        rng_seed=deal, width=WIDTH,
    )  # fmt: skip
    return epsilon, deal, me, r.raw[:, 0], r.correction


def _play(jobs: Sequence[tuple[float, int, int, int]], workers: int) -> list[Any]:
    if workers <= 1:
        return [deal_rows(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(deal_rows, jobs, chunksize=4))


def fit_weights(z: np.ndarray, w: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """The ``β`` minimising ``Σ (w − mean(w) − (z − mean(z))·β)² + ridge·|β|²``."""
    zc = z - z.mean(axis=0)
    a = zc.T @ zc + ridge * np.eye(z.shape[1])
    return np.linalg.solve(a, zc.T @ (w - w.mean()))


def _factor(raw: np.ndarray, adjusted: np.ndarray) -> float:
    v = float(adjusted.var(ddof=1))
    return float(raw.var(ddof=1)) / v if v > 0 else math.nan


def ceiling(
    train_deals: int,
    deals: int,
    samples: int,
    workers: int = 1,
    epsilons: Sequence[float] = (0.0, 0.05, 0.15, 0.3, 1.0),
    pair: tuple[float, float] = (0.0, 0.15),
) -> dict[str, Any]:
    """Fit ``β`` on ``train_deals`` deals of every agent of ``epsilons`` and score the bench's
    first ``deals`` deals of ``pair``: the SD of the per-deal difference raw, adjusted with the
    fitted value model alone (the shipped estimator) and with the best linear ``β``."""
    train = _play([(e, d, TRAIN_SEED, samples) for d in range(train_deals) for e in epsilons],
                  workers)  # fmt: skip
    z = np.concatenate([t[4] for t in train])
    w = np.concatenate([t[3] for t in train])
    beta = fit_weights(z, w)
    resid = w - z @ beta
    current = w - z[:, 0]
    test = _play([(e, d, SEED, samples) for d in range(deals) for e in pair], workers)
    by = {(e, d): (wv[me], zv[me]) for e, d, me, wv, zv in test}
    a, b = pair
    ks = [d for d in range(deals) if (a, d) in by and (b, d) in by]
    diff_raw = np.array([by[(a, d)][0] - by[(b, d)][0] for d in ks])
    diff_cur = np.array(
        [(by[(a, d)][0] - by[(a, d)][1][0]) - (by[(b, d)][0] - by[(b, d)][1][0]) for d in ks]
    )
    diff_lin = np.array(
        [(by[(a, d)][0] - by[(a, d)][1] @ beta) - (by[(b, d)][0] - by[(b, d)][1] @ beta)
         for d in ks]
    )  # fmt: skip
    return {
        "columns": WIDTH,
        "train": {
            "deals": train_deals,
            "agents": [label(e) for e in epsilons],
            "seat_rows": len(w),
            "seed": TRAIN_SEED,
            "factor_fitted_value": round(_factor(w, current), 3),
            "factor_best_linear_in_sample": round(_factor(w, resid), 3),
        },
        "held_out": {
            "pair": f"{label(a)} vs {label(b)}",
            "deals": len(ks),
            "seed": SEED,
            "sd_raw": round(float(diff_raw.std(ddof=1)), 4),
            "sd_fitted_value": round(float(diff_cur.std(ddof=1)), 4),
            "sd_best_linear": round(float(diff_lin.std(ddof=1)), 4),
            "mean_raw": round(float(diff_raw.mean()), 4),
            "mean_best_linear": round(float(diff_lin.mean()), 4),
            "factor_fitted_value": round(_factor(diff_raw, diff_cur), 3),
            "factor_best_linear": round(_factor(diff_raw, diff_lin), 3),
        },
        "ridge": RIDGE,
        "samples": samples,
    }
