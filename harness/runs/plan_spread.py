"""The spread of a comparison between two players, clustered by deal, measured on a pilot run
(``bangarena plan --from RUN``).

A league's games come in **deals**: one deal seed at one table (seat count and mode), played once
(unpaired) or at each distinct seating of its lineup (paired).  The seats of one deal are not
independent — a player's two Raiders win or lose together, and in a paired deal the same cards
are played by every player — so a deal, not a seat-game, is the unit of a comparison.  Every game
sharing a deal seed is one cluster.

**The comparison.**  Players A and B in role ``r``: ``D̂ = ȳ_A − ȳ_B``, the difference of their
mean scores (win indicator, or luck-adjusted score) over their seat-games of that role.  Its
variance, clustered by deal, is estimated by

    V̂ = K / (K − 1) · Σ_k e_k²,   e_k = Σ_{i ∈ k, A} (x_i − ȳ_A) / n_A − Σ_{i ∈ k, B} (x_i − ȳ_B) / n_B

over the ``K`` deals in which A or B played the role (``n_A``, ``n_B``: their seat-games in it).
**The spread** the plan uses is the SD per seat-game that gives this variance in the unpaired
formula, ``σ̂² = V̂ / (1/n_A + 1/n_B)``, so that a league with ``n`` seat-games per player of the
same design has ``Var(D̂) ≈ 2σ²/n``.  It carries the design's effects: the pairing covariance
(which lowers it) and the correlation of a player's seats in one deal (which raises it).

**Why it is unbiased.**  When every deal gives A ``m_A`` and B ``m_B`` seat-games of the role (a
paired schedule: each player sits every seat of a deal equally often over its seatings), ``D̂`` is
the mean of the per-deal differences ``d_k = ā_k − b̄_k`` (A's mean in deal ``k`` minus B's) and
``e_k = (d_k − d̄) / K``, so ``V̂ = s_d² / K`` with ``s_d²`` the sample variance (``ddof = 1``) of
the per-deal differences — unbiased for ``Var(d_k)`` because deals are independent and identically
distributed.  Then ``σ̂² = s_d² · m/2`` (``m = m_A = m_B``) and the plan's ``n = 2 (z + z)² σ̂² / δ²``
seat-games per player are ``n / m = (z₁₋α/₂ + z_power)² · s_d² / δ²`` deals: the paired formula
with the per-deal difference's variance.  A copy of a game (a rotation that repeats a seating)
adds its result twice and no information; runs are read with copies counted once, so they do not
shrink the spread.  With unequal seat-games per deal (an unpaired schedule: roles are dealt at
random) ``V̂`` is the usual cluster-robust (sandwich) variance of a difference of ratio means,
consistent as ``K`` grows.

**Several players.**  ``σ̂²`` is averaged over every pair of players with at least two deals in
the role (each pair's estimate unbiased in the balanced case, so is their mean).

**Assumptions.**  Deals independent and identically distributed; the planned league has the
pilot's design (seat counts, modes, players, paired or not), only more deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

DEAL = ["seats", "mode", "seed"]  # every game sharing a deal seed at one table: one cluster


@dataclass(frozen=True)
class DealSpread:
    sd: float  # σ̂ per seat-game (NaN when no pair of players has two deals)
    seat_games: int  # seat-games of the pairs measured
    deals: int  # deals in which they played (the clusters)
    pairs: int  # pairs of players measured


def pair_variance(x: np.ndarray, is_a: np.ndarray, deal: np.ndarray) -> tuple[float, int]:
    """``(V̂, K)`` of ``D̂ = ȳ_A − ȳ_B`` for scores ``x`` of two players (``is_a``: the rows of A,
    the others B) with deal labels ``deal`` (see the module docstring); ``V̂`` NaN when ``K < 2``
    or a player has no row."""
    n_a = int(is_a.sum())
    n_b = len(x) - n_a
    codes, uniques = pd.factorize(deal)
    k = len(uniques)
    if n_a == 0 or n_b == 0 or k < 2:
        return math.nan, k
    resid = np.where(is_a, x - x[is_a].mean(), x - x[~is_a].mean())
    weighted = np.where(is_a, resid / n_a, -resid / n_b)
    e = np.bincount(codes, weights=weighted, minlength=k)
    return float(k / (k - 1) * np.sum(e * e)), k


def deal_spread(df: pd.DataFrame, value: str) -> DealSpread:
    """σ̂ of column ``value`` of seat rows (columns :data:`DEAL`, ``player`` and ``value``):
    the mean over pairs of players of ``V̂ / (1/n_A + 1/n_B)`` (see the module docstring)."""
    if df.empty:
        return DealSpread(math.nan, 0, 0, 0)
    deal = pd.MultiIndex.from_frame(df[DEAL]).to_flat_index().to_numpy()
    x = df[value].to_numpy(dtype=float)
    who = df["player"].to_numpy()
    variances = []
    measured = np.zeros(len(df), dtype=bool)
    for a, b in combinations(sorted(set(who)), 2):
        rows = (who == a) | (who == b)
        is_a = who[rows] == a
        v, _k = pair_variance(x[rows], is_a, deal[rows])
        if math.isnan(v):
            continue
        n_a, n_b = int(is_a.sum()), int((~is_a).sum())
        variances.append(v / (1.0 / n_a + 1.0 / n_b))
        measured |= rows
    if not variances:
        return DealSpread(math.nan, 0, 0, 0)
    sd = math.sqrt(float(np.mean(variances)))
    return DealSpread(sd, int(measured.sum()), len(set(deal[measured])), len(variances))


__all__ = ["DEAL", "DealSpread", "deal_spread", "pair_variance"]
