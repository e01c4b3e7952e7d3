"""The spread of a paired comparison, measured on a pilot run (``bangarena plan --from RUN``).

A paired ("duplicate") league replays each deal with the lineup rotated, so one **deal-seat** —
the same table, mode, deal seed and seat, hence the same role and cards — is played by several
players.  Model a seat-game's score (win indicator or luck-adjusted score) as

    x = μ_player + u_deal-seat + e,      e independent, mean 0, variance σ_e²

(``u``: what the deal and seat are worth to anyone; ``μ``: the player's strength).  Two players A
and B compared over the same ``n`` deal-seats differ by ``μ_A − μ_B`` plus noise of variance
``2σ_e² / n``: the deal's share ``u`` cancels.  The SD of one per-deal difference is
``σ_d = √(2σ_e²)``, and the plan needs ``n = (z₁₋α/₂ + z_power)² · σ_d² / δ²`` deals.

**Estimator** (:func:`paired_sd`).  Only deal-seats played at least twice count.  Over their
plays: ``y = x − x̄_player`` (the player's mean over those plays), then the within-deal-seat sum
of squares ``SS = Σ_c Σ_i (y_ci − ȳ_c)²`` on ``Σ_c (n_c − 1) − (P − 1)`` degrees of freedom
(``P`` players; the player means used up ``P − 1`` of them) gives ``σ̂_e² = SS / dof``, and
``σ̂_d = √(2 σ̂_e²)``.  In a balanced design (every player once per deal-seat) this is the
two-way analysis of variance's residual mean square, unbiased for ``σ_e²``; with two players it
is exactly the sample variance of the per-deal differences ``x_A − x_B`` (``ddof = 1``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

DEAL_SEAT = ["seats", "mode", "seed", "seat"]


@dataclass(frozen=True)
class PairedSpread:
    sd: float  # σ̂_d, the SD of one per-deal difference (NaN without degrees of freedom)
    plays: int  # seat-games in deal-seats played at least twice
    deal_seats: int
    dof: int


def paired_sd(df: pd.DataFrame, value: str) -> PairedSpread:
    """σ̂_d of column ``value`` of seat rows (columns :data:`DEAL_SEAT`, ``player`` and
    ``value``); see the module docstring."""
    size = df.groupby(DEAL_SEAT, sort=False)[value].transform("size")
    part = df[size >= 2]
    if part.empty:
        return PairedSpread(math.nan, 0, 0, 0)
    x = part[value].astype(float)
    y = x - x.groupby(part["player"].to_numpy()).transform("mean")
    keys = [part[k].to_numpy() for k in DEAL_SEAT]
    resid = y - y.groupby(keys).transform("mean")
    cells = int(part.groupby(DEAL_SEAT, sort=False).ngroups)
    dof = len(part) - cells - (int(part["player"].nunique()) - 1)
    ss = float((resid**2).sum())
    sd = math.sqrt(2.0 * ss / dof) if dof > 0 else math.nan
    return PairedSpread(sd, len(part), cells, dof)


__all__ = ["DEAL_SEAT", "PairedSpread", "paired_sd"]
