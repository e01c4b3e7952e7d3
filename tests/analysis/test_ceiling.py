"""The ceiling of value models linear in the state features (docs/analysis.md, "Games saved"):
each column's correction has mean zero, the first column is the shipped estimator's, the weights
are a least-squares fit, and ``bench variance --ceiling`` ends with its JSON line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from harness.analysis.ceiling import TRAIN_SEED, WIDTH, Columns, deal_rows, fit_weights
from harness.analysis.fitted import FittedValue
from harness.analysis.luck import luck_adjust
from harness.analysis.variance import MODE, ladder_game
from harness.cli.main import main
from harness.engine import Game


def test_the_first_column_is_the_fitted_value_models_correction() -> None:
    for eps, deal in ((0.0, 0), (0.15, 1), (1.0, 7)):
        _, _, me, w, z = deal_rows((eps, deal, TRAIN_SEED, 2))
        game, me2, known = ladder_game(eps, deal, TRAIN_SEED)
        r = luck_adjust(game.n, MODE, TRAIN_SEED + deal, game.history, known, FittedValue(), 2,
                        rng_seed=deal)  # fmt: skip
        assert me == me2 and z.shape == (game.n, WIDTH)
        assert np.array_equal(w, r.raw)
        assert np.allclose(z[:, 0], r.correction, atol=1e-12)


class _Weighted:
    """The scalar value model ``Columns · beta``."""

    name = "weighted"

    def __init__(self, beta: np.ndarray) -> None:
        self.cols, self.beta = Columns(), beta

    def values(self, game: Game) -> np.ndarray:
        return self.cols.values(game) @ self.beta


def test_a_weighted_sum_of_the_columns_corrects_as_that_value_model() -> None:
    """``Z · beta`` is exactly the correction of the value model ``Columns · beta``, so every
    weighting is a value model and keeps the mean (the argument and tests of the luck module)."""
    beta = np.random.default_rng(5).normal(size=WIDTH)
    for eps, deal in ((0.0, 2), (0.3, 3)):
        _, _, _, _, z = deal_rows((eps, deal, TRAIN_SEED, 2))
        game, _, known = ladder_game(eps, deal, TRAIN_SEED)
        r = luck_adjust(game.n, MODE, TRAIN_SEED + deal, game.history, known, _Weighted(beta), 2,
                        rng_seed=deal)  # fmt: skip
        assert np.allclose(z @ beta, r.correction, atol=1e-9)


def test_the_fitted_weights_keep_the_mean() -> None:
    """Weights fitted on 30 training deals leave the mean correction of 60 other games (per
    game, the mean over its seats) within 3.5 standard errors of 0; the values at the deal
    without a baseline are far from 0, so the check can fail."""
    train = [deal_rows((eps, d, TRAIN_SEED, 2)) for d in range(15) for eps in (0.0, 1.0)]
    beta = fit_weights(np.concatenate([r[4] for r in train]),
                       np.concatenate([r[3] for r in train]))  # fmt: skip
    rows = [deal_rows((eps, d, 31_000_000, 2)) for d in range(30) for eps in (0.0, 1.0)]

    def t(x: np.ndarray) -> float:
        return float(abs(x.mean()) / (x.std(ddof=1) / np.sqrt(len(x))))

    assert t(np.array([(r[4] @ beta).mean() for r in rows])) < 3.5
    cols = Columns()
    at_deal = [(cols.values(Game.new(len(r[3]), MODE, 31_000_000 + r[1])) @ beta).mean()
               for r in rows]  # fmt: skip
    assert t(np.array(at_deal)) > 3.5


def test_fit_weights_is_the_least_squares_fit() -> None:
    rng = np.random.default_rng(4)
    z = rng.normal(size=(4000, 5))
    beta = np.array([0.5, -1.0, 0.0, 2.0, 0.25])
    w = 0.3 + z @ beta + rng.normal(scale=0.1, size=4000)
    assert fit_weights(z, w, ridge=0.0) == pytest.approx(beta, abs=0.01)
    assert np.abs(fit_weights(z, w, ridge=1e6)).max() < np.abs(beta).max() / 10


def test_bench_variance_ceiling_small(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "variance", "--ceiling", "--train-deals", "3", "--games", "3",
            "--samples", "1", "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    r = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert r["benchmark"] == "variance-ceiling" and r["columns"] == WIDTH
    assert r["train"]["seat_rows"] > 15 and r["held_out"]["deals"] == 3
    # least squares with an intercept cannot make the training seats vary more
    assert r["train"]["factor_best_linear_in_sample"] >= 1.0


def test_bench_variance_ceiling_refuses_bad_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["bench", "variance", "--ceiling", "--train-deals", "0"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "train-deals" in err[-1] and "Traceback" not in "\n".join(err)
