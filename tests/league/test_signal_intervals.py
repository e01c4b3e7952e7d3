"""The table-talk shares' intervals (docs/signals.md): the Wilson interval at the design-effect
sample size covers the true share about 95 % of the time, also when claims cluster by game,
where the plain Wilson interval (claims taken as independent) covers it too rarely."""

from __future__ import annotations

import random

import pandas as pd

from harness.league.signal_report import share_interval
from harness.league.stats_basic import wilson


def _coverage(clustered: bool, reps: int = 400) -> tuple[float, float]:
    rng = random.Random(23)
    p, games, per_game = 0.3, 30, 4
    hit = plain = 0
    for _ in range(reps):
        values, clusters = [], []
        for g in range(games):
            # clustered: each game's claims share one game-level honesty drawn around p
            q = rng.betavariate(0.6, 1.4) if clustered else p  # mean 0.3
            for _ in range(per_game):
                values.append(float(rng.random() < q))
                clusters.append(g)
        share, lo, hi = share_interval(pd.Series(values), pd.Series(clusters))
        hit += lo <= p <= hi
        k = int(sum(values))
        wlo, whi = wilson(k, len(values))
        plain += wlo <= p <= whi
    return hit / reps, plain / reps


def test_independent_claims_get_about_the_nominal_coverage() -> None:
    ours, plain = _coverage(clustered=False)
    assert 0.91 <= ours <= 0.99 and 0.91 <= plain <= 0.99


def test_clustered_claims_keep_the_coverage_plain_wilson_loses() -> None:
    ours, plain = _coverage(clustered=True)
    assert ours >= 0.91
    assert plain < 0.88 < ours


def test_the_share_is_the_plain_proportion() -> None:
    values = pd.Series([1.0, 0.0, 1.0, 1.0, 0.0])
    share, lo, hi = share_interval(values, pd.Series([0, 0, 1, 2, 2]))
    assert share == 0.6 and lo < share < hi
