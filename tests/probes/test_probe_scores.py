"""Probe scores (harness.runs.probe_scores): exact Brier score and log loss, and the cluster
bootstrap interval of "beats the counting observer by" covering the true mean as often as it
claims when probes within a game are correlated."""

from __future__ import annotations

import math
import random

import pytest

from harness.runs.probe_scores import LOG_CLIP, brier, cluster_bootstrap, log_loss


def test_brier_and_log_loss_exact_values() -> None:
    assert brier({"raider": 1.0, "loner": 0.0}, "raider") == 0.0
    assert brier({"raider": 0.0, "loner": 1.0}, "raider") == 2.0
    assert brier({"raider": 0.5, "loner": 0.5}, "loner") == 0.5
    assert brier({"deputy": 0.2, "raider": 0.5, "loner": 0.3}, "raider") == pytest.approx(
        0.04 + 0.25 + 0.09
    )
    assert log_loss({"raider": 0.25, "loner": 0.75}, "raider") == pytest.approx(math.log(4))
    assert log_loss({"raider": 0.0, "loner": 1.0}, "raider") == pytest.approx(-math.log(LOG_CLIP))


def test_cluster_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [0.1, 0.2, 0.3, -0.1, 0.05, 0.4]
    games = ["a", "a", "b", "b", "c", "c"]
    first = cluster_bootstrap(values, games, resamples=500, seed=3)
    assert first == cluster_bootstrap(values, games, resamples=500, seed=3)
    mean, lo, hi = first
    assert mean == pytest.approx(sum(values) / len(values)) and lo <= mean <= hi
    one_deal = cluster_bootstrap([0.2, 0.4], ["a", "a"])  # one cluster: no interval
    assert one_deal[0] == pytest.approx(0.3) and all(math.isnan(x) for x in one_deal[1:])
    assert all(math.isnan(x) for x in cluster_bootstrap([], []))


def test_the_interval_covers_the_true_mean_about_95_percent_of_the_time() -> None:
    """Games with a shared random effect (probes of a game are correlated): the 95 % interval of
    the mean over 30 games covers the true mean in about 95 % of 300 simulated leagues (an
    interval that ignored the clustering would cover far less often)."""

    def coverage(clustered: bool) -> float:
        rng = random.Random(11)
        truth, covered, runs = 0.1, 0, 300
        for _ in range(runs):
            values, games = [], []
            for g in range(30):
                effect = rng.gauss(0, 0.3)
                for _ in range(rng.randint(2, 8)):
                    values.append(truth + effect + rng.gauss(0, 0.1))
                    games.append(f"g{g}" if clustered else f"p{len(values)}")
            seed = rng.randrange(10**6)
            _, lo, hi = cluster_bootstrap(values, games, resamples=400, seed=seed)
            covered += lo <= truth <= hi
        return covered / runs

    assert 0.89 <= coverage(clustered=True) <= 0.99
    assert coverage(clustered=False) < 0.8  # resampling probes one by one is overconfident
