"""The luck-adjusted table of the league report (:mod:`harness.analysis.run_luck`).

Per player × role: seats, the raw win rate with its 95 % Wilson interval (clustered by deal,
``stats.clustered_wilson``), the mean luck-adjusted score (chance corrected,
:mod:`harness.analysis.run_luck`) and the mean advantage-adjusted score (rule-bot value of the
deal plus the advantages of the departures from the rule bot,
:mod:`harness.analysis.run_advantage`), each with its 95 % interval (Student's t, clustered by
deal: ``stats.mean_interval``); per player one more row, role ``all (role-adjusted)``: result
minus the role's base rate at that table size and mode, raw and adjusted, as in the
role-adjusted table.  Seats without an advantage-adjusted score (pooled runs that lack one)
leave its columns NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from harness.analysis.run_advantage import run_advantage
from harness.analysis.run_luck import run_luck

from .stats import base_rates, clustered_wilson, deals, mean_interval

ROLE_ADJUSTED = "all (role-adjusted)"
COLUMNS = ["player", "role", "seat_games", "win_rate", "win_lo", "win_hi", "adjusted",
           "adj_lo", "adj_hi", "adj_se", "raw_se", "advantage", "adv_lo", "adv_hi",
           "adv_se"]  # fmt: skip


Progress = Callable[[int, int], None]  # (games computed, games to compute)


def luck_table(
    run_dir: str,
    seats: pd.DataFrame,
    compute: bool = True,
    progress: Progress | None = None,
    advantage_progress: Progress | None = None,
    workers: int = 1,
    compute_advantage: bool = True,
) -> pd.DataFrame:
    """The table for the seats of the games with a result (``stats.load_run(...).seats``).
    ``compute=False`` reads only stored scores and raises ``LookupError`` when a game has no
    luck-adjusted score; ``compute_advantage=False`` reads only stored advantage-adjusted scores
    (their play-outs are the slow part)."""
    if seats.empty:
        return pd.DataFrame(columns=COLUMNS)
    df = with_luck(
        run_dir, seats, compute, progress, advantage_progress, workers, advantage=True,
        compute_advantage=compute_advantage,
    )  # fmt: skip
    return scored_table(df)


def with_luck(
    run_dir: str,
    seats: pd.DataFrame,
    compute: bool = True,
    progress: Progress | None = None,
    advantage_progress: Progress | None = None,
    workers: int = 1,
    advantage: bool = False,
    compute_advantage: bool = True,
) -> pd.DataFrame:
    """The seats of ``run_dir`` (``game_id``, ``seats``, ``mode``, ``seat``, ``player``,
    ``role``, ``won``, ``deal_key``) with their luck-adjusted score in ``adjusted`` and their
    advantage-adjusted score in ``advantage`` (computed and stored when missing, the advantage on
    ``workers`` processes, unless ``compute=False``: then ``LookupError`` for a missing
    luck-adjusted score, NaN for a missing advantage; ``progress`` and ``advantage_progress`` are
    told how far the computing got; ``compute_advantage=False``: only stored advantage-adjusted
    scores).  Without ``advantage`` no advantage-adjusted scores (NaN)."""
    lines = run_luck(run_dir, compute=compute, progress=progress)
    missing = set(seats["game_id"]) - set(lines)
    if missing and not compute:
        raise LookupError(f"{len(missing)} games have no stored luck-adjusted scores")
    adv = (
        run_advantage(
            run_dir,
            workers=workers,
            compute=compute and compute_advantage,
            progress=advantage_progress,
        )
        if advantage
        else {}
    )
    seats = seats[seats["game_id"].isin(lines)]  # computing, only damaged games (reported) lack one
    df = seats[["game_id", "seats", "mode", "seat", "player", "role", "won"]].copy()
    df["deal_key"] = deals(seats).to_numpy()
    pairs = list(zip(df["game_id"], df["seat"], strict=True))
    df["adjusted"] = [lines[g].adjusted[s] for g, s in pairs]
    df["advantage"] = [adv[g].adjusted[s] if g in adv else math.nan for g, s in pairs]
    return df


def scored_table(df: pd.DataFrame) -> pd.DataFrame:
    """The table for seats that carry their luck-adjusted score (columns ``game_id``, ``seats``,
    ``mode``, ``seat``, ``player``, ``role``, ``won``, ``adjusted`` and ``deal_key``, the
    cluster: without it each game is its own deal), e.g. seats pooled over several runs; base
    rates are those of these seats."""
    if df.empty:
        return pd.DataFrame(columns=COLUMNS)
    df = df.copy()
    if "advantage" not in df:
        df["advantage"] = math.nan
    df["won"] = df["won"].astype(float)
    df["deal_key"] = deals(df).to_numpy()
    rows = []
    for (player, role), part in df.groupby(["player", "role"], sort=True):
        k, n = int(part["won"].sum()), len(part)
        deal = part["deal_key"]
        lo, hi = clustered_wilson(part["won"], deal)
        adj, alo, ahi, ase = mean_interval(part["adjusted"], deal)
        _, _, _, rse = mean_interval(part["won"], deal)
        adv = _advantage(part["advantage"], deal)
        rows.append([player, role, n, k / n, lo, hi, adj, alo, ahi, ase, rse, *adv])
    base = base_rates(df)[["seats", "mode", "role", "base_rate"]]
    df = df.merge(base, on=["seats", "mode", "role"], how="left")
    for player, part in df.groupby("player", sort=True):
        deal = part["deal_key"]
        raw, rlo, rhi, rse = mean_interval(part["won"] - part["base_rate"], deal)
        adj, alo, ahi, ase = mean_interval(part["adjusted"] - part["base_rate"], deal)
        adv = _advantage(part["advantage"] - part["base_rate"], deal)
        rows.append(
            [player, ROLE_ADJUSTED, len(part), raw, rlo, rhi, adj, alo, ahi, ase, rse, *adv]
        )
    out = pd.DataFrame(rows, columns=COLUMNS)
    return out.sort_values(["player"], kind="stable").reset_index(drop=True)


def _advantage(values: pd.Series, deal: pd.Series) -> tuple[float, float, float, float]:
    """The advantage-adjusted mean and interval; NaN unless every seat has a score."""
    if values.isna().any():
        return math.nan, math.nan, math.nan, math.nan
    return mean_interval(values, deal)
