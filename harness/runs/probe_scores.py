"""Scores of belief probes against the truth (pure Python; the report's tables build on it).

A **forecast** is one asked player in one probe: a probability for each asked role, and the
player's true role (from the game's seat outcomes).  For a forecast ``p`` with true role ``t``:

* Brier score ``sum_r (p_r - [r = t])^2`` (0 is perfect, 2 the worst: all mass on a wrong role);
* log loss ``-ln(max(p_t, LOG_CLIP))``: a probability of 0 for the truth is clipped to
  :data:`LOG_CLIP`, so one confident mistake costs at most ``-ln(1e-4) ≈ 9.21``.

A probe's score is the mean over its forecasts; the same is computed for the two baselines stored
in the probe (the counting observer and the rule bot), on the same forecasts.  Only valid probes
are scored; invalid ones are counted.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from harness.records.probes import ProbeRecord

LOG_CLIP = 1e-4
SOURCES = ("model", "counting", "rulebot")


def brier(row: Mapping[str, float], truth: str) -> float:
    return sum((p - (1.0 if r == truth else 0.0)) ** 2 for r, p in row.items())


def log_loss(row: Mapping[str, float], truth: str) -> float:
    return -math.log(max(row.get(truth, 0.0), LOG_CLIP))


@dataclass(frozen=True)
class Forecast:
    """One asked player of one valid probe, scored for the model and both baselines."""

    game_id: str
    player: str
    model: str | None
    role: str  # the probing seat's role
    round: int
    target_role: str
    rows: dict[str, dict[str, float]]  # source -> role -> probability

    def brier(self, source: str) -> float:
        return brier(self.rows[source], self.target_role)

    def log_loss(self, source: str) -> float:
        return log_loss(self.rows[source], self.target_role)


def forecasts(probe: ProbeRecord, roles_by_seat: Mapping[int, str]) -> list[Forecast]:
    """The forecasts of a valid probe (``[]`` when it is invalid); ``roles_by_seat`` are the
    game's true roles."""
    if not probe.valid or probe.beliefs is None:
        return []
    out = []
    for seat in probe.targets:
        key = str(seat)
        out.append(
            Forecast(
                game_id=probe.game_id,
                player=probe.player,
                model=probe.model,
                role=probe.role,
                round=probe.round,
                target_role=roles_by_seat[seat],
                rows={
                    "model": probe.beliefs[key],
                    "counting": probe.counting[key],
                    "rulebot": probe.rulebot[key],
                },
            )
        )
    return out


def probe_score(fs: Sequence[Forecast], source: str) -> float:
    """A probe's Brier score for ``source``: the mean over its forecasts."""
    return sum(f.brier(source) for f in fs) / len(fs)


def cluster_bootstrap(
    values: Sequence[float],
    clusters: Sequence[str],
    resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float, float]:
    """Mean of ``values`` and its percentile interval from resampling whole clusters (deals)
    with replacement: probes of one game, and the games of one deal, are not independent.
    ``(nan, nan, nan)`` when empty; the interval is ``(nan, nan)`` with a single cluster (no
    interval: reports show "–")."""
    if not values:
        return math.nan, math.nan, math.nan
    groups: dict[str, list[float]] = {}
    for v, c in zip(values, clusters, strict=True):
        groups.setdefault(c, []).append(v)
    mean = sum(values) / len(values)
    keys = sorted(groups)
    if len(keys) < 2:
        return mean, math.nan, math.nan
    sums = [(sum(groups[k]), len(groups[k])) for k in keys]
    rng = random.Random(seed)
    stats = []
    for _ in range(resamples):
        total = n = 0.0
        for _ in keys:
            s, k = sums[rng.randrange(len(keys))]
            total += s
            n += k
        stats.append(total / n)
    stats.sort()
    lo = stats[int(math.floor((1 - level) / 2 * (resamples - 1)))]
    hi = stats[int(math.ceil((1 + level) / 2 * (resamples - 1)))]
    return mean, lo, hi
