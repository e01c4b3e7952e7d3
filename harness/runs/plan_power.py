"""The power a planned league delivers, by bootstrapping whole deals of a pool run.

A **pool** is a large run of the planned league's design (its tables, players and pairing).  A
league of the schedule's first ``g`` games per table is drawn as the schedule plays it: each of
its deals is replaced by a deal drawn at random, with replacement, from the pool's complete deals
of that table, played at the same seatings (a deal the game count cuts short keeps its first
rotations).  Whole deals are drawn, so the seats of a deal stay together: the correlation of a
player's seats within a deal and the pairing of its seatings are kept.

The comparison of players A and B: ``D̂ = ȳ_A − ȳ_B``, the difference of their mean scores over
their seat-games (of a role, or all seats).  In this bootstrap world the truth ``D`` is the pool's
own difference.  Shifted to a true difference ``δ``, a two-sided z test at level ``α`` with the
standard error ``SE`` of ``D̂`` (its SD over the draws: the normal approximation the plan assumes)
rejects when ``|D̂ − D + δ| > z₁₋α/₂ · SE``; the **power** is the share of draws it rejects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from harness.league.schedule import GameSpec

TABLE = ["seats", "mode"]


@dataclass(frozen=True)
class Power:
    power: float  # share of draws in which the test rejects
    se: float  # SD of D̂ over the draws
    truth: float  # the pool's D
    deals: int  # deals of the planned league
    draws: int


def _pool_sums(part: pd.DataFrame, a: str, b: str, rotations: int) -> np.ndarray:
    """Per pool deal of one table: cumulative over its rotations of A's and B's score sums and
    seat counts, shape (deals, rotations + 1, 4): ``[:, r]`` covers rotations ``0 .. r − 1``."""
    deals = pd.factorize(part["seed"])[0]
    out = np.zeros((int(deals.max()) + 1, rotations + 1, 4))
    rot = part["rotation"].to_numpy()
    x = part["value"].to_numpy(dtype=float)
    for j, who in enumerate((a, b)):
        mine = (part["player"] == who).to_numpy()
        np.add.at(out[:, :, 2 * j], (deals[mine], rot[mine] + 1), x[mine])
        np.add.at(out[:, :, 2 * j + 1], (deals[mine], rot[mine] + 1), 1.0)
    return np.cumsum(out, axis=1)


def bootstrap_power(
    pool: pd.DataFrame,
    schedule: Sequence[GameSpec],
    a: str,
    b: str,
    delta: float,
    alpha: float = 0.05,
    draws: int = 4000,
    seed: int = 0,
) -> Power:
    """The power of the league ``schedule`` to detect a difference ``delta`` between players ``a``
    and ``b``, from ``pool``: one row per seat-game to compare (columns ``seats``, ``mode``,
    ``seed``, ``rotation``, ``player`` and ``value``; rows of other players are ignored).  Pool
    deals must be complete (every rotation the schedule plays of a deal)."""
    rng = np.random.default_rng(seed)
    totals = np.zeros((draws, 4))
    pool_total = np.zeros(4)
    planned: dict[tuple[int, str], dict[int, int]] = {}
    for spec in schedule:  # per table: each planned deal's rotations (0 .. r − 1)
        deals = planned.setdefault((spec.seats, spec.mode), {})
        deals[spec.deal] = max(deals.get(spec.deal, 0), spec.rotation + 1)
    for (seats, mode), deals in planned.items():
        part = pool[(pool["seats"] == seats) & (pool["mode"] == mode)]
        played = part.groupby("seed")["rotation"].nunique()
        full = max(deals.values())
        complete = played.index[played >= full]
        if len(complete) == 0:
            raise ValueError(f"the pool has no complete deal of {seats}p {mode}")
        sums = _pool_sums(part[part["seed"].isin(complete)], a, b, seats)
        pool_total += sums[:, full].sum(axis=0)
        for rotations in deals.values():
            picks = rng.integers(0, len(sums), size=draws)
            totals += sums[picks, rotations]
    with np.errstate(invalid="ignore", divide="ignore"):
        d_hat = totals[:, 0] / totals[:, 1] - totals[:, 2] / totals[:, 3]
    truth = pool_total[0] / pool_total[1] - pool_total[2] / pool_total[3]
    d_hat = d_hat[np.isfinite(d_hat)]
    se = float(np.std(d_hat, ddof=1))
    z = NormalDist().inv_cdf(1 - alpha / 2)
    power = float(np.mean(np.abs(d_hat - truth + delta) > z * se)) if se > 0 else math.nan
    n_deals = sum(len(d) for d in planned.values())
    return Power(power, se, float(truth), n_deals, len(d_hat))


__all__ = ["Power", "bootstrap_power"]
