"""The luck-adjusted table of the league report (:mod:`harness.analysis.run_luck`).

Per player × role: seats, the raw win rate with its 95 % Wilson interval (clustered by deal,
``stats.clustered_wilson``) and the mean luck-adjusted score with its 95 % interval (Student's
t, clustered by deal: ``stats.mean_interval``); per player one more row, role
``all (role-adjusted)``: result minus the role's base rate at that table size and mode, raw and
luck-adjusted, as in the role-adjusted table.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from harness.analysis.run_luck import run_luck

from .stats import base_rates, clustered_wilson, deals, mean_interval

ROLE_ADJUSTED = "all (role-adjusted)"
COLUMNS = ["player", "role", "seat_games", "win_rate", "win_lo", "win_hi", "adjusted",
           "adj_lo", "adj_hi", "adj_se", "raw_se"]  # fmt: skip


Progress = Callable[[int, int], None]  # (games computed, games to compute)


def luck_table(
    run_dir: str, seats: pd.DataFrame, compute: bool = True, progress: Progress | None = None
) -> pd.DataFrame:
    """The table for the seats of the games with a result (``stats.load_run(...).seats``).
    ``compute=False`` reads only stored scores and raises ``LookupError`` when a game has
    none."""
    if seats.empty:
        return pd.DataFrame(columns=COLUMNS)
    return scored_table(with_luck(run_dir, seats, compute, progress))


def with_luck(
    run_dir: str, seats: pd.DataFrame, compute: bool = True, progress: Progress | None = None
) -> pd.DataFrame:
    """The seats of ``run_dir`` (``game_id``, ``seats``, ``mode``, ``seat``, ``player``,
    ``role``, ``won``, ``deal_key``) with their luck-adjusted score in ``adjusted`` (computed and
    stored when missing, unless ``compute=False``: then ``LookupError``; ``progress`` is told how
    far the computing got)."""
    lines = run_luck(run_dir, compute=compute, progress=progress)
    missing = set(seats["game_id"]) - set(lines)
    if missing and not compute:
        raise LookupError(f"{len(missing)} games have no stored luck-adjusted scores")
    seats = seats[seats["game_id"].isin(lines)]  # computing, only damaged games (reported) lack one
    df = seats[["game_id", "seats", "mode", "seat", "player", "role", "won"]].copy()
    df["deal_key"] = deals(seats).to_numpy()
    df["adjusted"] = [lines[g].adjusted[s] for g, s in zip(df["game_id"], df["seat"], strict=True)]
    return df


def scored_table(df: pd.DataFrame) -> pd.DataFrame:
    """The table for seats that carry their luck-adjusted score (columns ``game_id``, ``seats``,
    ``mode``, ``seat``, ``player``, ``role``, ``won``, ``adjusted`` and ``deal_key``, the
    cluster: without it each game is its own deal), e.g. seats pooled over several runs; base
    rates are those of these seats."""
    if df.empty:
        return pd.DataFrame(columns=COLUMNS)
    df = df.copy()
    df["won"] = df["won"].astype(float)
    df["deal_key"] = deals(df).to_numpy()
    rows = []
    for (player, role), part in df.groupby(["player", "role"], sort=True):
        k, n = int(part["won"].sum()), len(part)
        deal = part["deal_key"]
        lo, hi = clustered_wilson(part["won"], deal)
        adj, alo, ahi, ase = mean_interval(part["adjusted"], deal)
        _, _, _, rse = mean_interval(part["won"], deal)
        rows.append([player, role, n, k / n, lo, hi, adj, alo, ahi, ase, rse])
    base = base_rates(df)[["seats", "mode", "role", "base_rate"]]
    df = df.merge(base, on=["seats", "mode", "role"], how="left")
    for player, part in df.groupby("player", sort=True):
        deal = part["deal_key"]
        raw, rlo, rhi, rse = mean_interval(part["won"] - part["base_rate"], deal)
        adj, alo, ahi, ase = mean_interval(part["adjusted"] - part["base_rate"], deal)
        rows.append([player, ROLE_ADJUSTED, len(part), raw, rlo, rhi, adj, alo, ahi, ase, rse])
    out = pd.DataFrame(rows, columns=COLUMNS)
    return out.sort_values(["player"], kind="stable").reset_index(drop=True)
