"""The move-analysis table of the league report (:mod:`harness.analysis.run_moves`).

Per player × role, over the decisions ``bangarena analyze`` stored: how many, the mean win
probability lost per decision, the blunder rate (share of decisions that are blunders) and the
mean accuracy (0–100), each with a 95 % interval: the mean over decisions with a standard error
clustered by game (decisions of one game are not independent; ``stats._clustered_mean``) and a
normal approximation.  Only stored analyses are read, never computed here.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.analysis.run_moves import stored_moves

from .stats import _clustered_mean

Z95 = 1.959964
COLUMNS = ["player", "role", "games", "decisions", "loss", "loss_lo", "loss_hi", "blunder_rate",
           "blunder_lo", "blunder_hi", "mistake_rate", "accuracy", "acc_lo", "acc_hi"]  # fmt: skip


def _ci(values: pd.Series, clusters: pd.Series) -> tuple[float, float, float]:
    mean, se = _clustered_mean(values, clusters)
    half = Z95 * se if not math.isnan(se) else math.nan
    return mean, mean - half, mean + half


def decisions_frame(run_dir: str) -> pd.DataFrame:
    """One row per analysed decision of the run's finished games."""
    rows = [
        {"game_id": gid, "player": m.player, "role": m.role, "loss": m.loss,
         "blunder": float(m.label == "blunder"),
         "mistake": float(m.label in ("blunder", "mistake")), "accuracy": m.accuracy}
        for gid, line in stored_moves(run_dir).items()
        for m in line.decisions
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["game_id", "player", "role", "loss", "blunder", "mistake",
                                       "accuracy"])  # fmt: skip


def move_table(run_dir: str) -> pd.DataFrame:
    """The table (empty when the run has no stored move analysis)."""
    df = decisions_frame(run_dir)
    rows = []
    for (player, role), part in df.groupby(["player", "role"], sort=True):
        g = part["game_id"]
        loss, llo, lhi = _ci(part["loss"], g)
        blunder, blo, bhi = _ci(part["blunder"], g)
        acc, alo, ahi = _ci(part["accuracy"], g)
        rows.append([player, role, int(g.nunique()), len(part), loss, max(0.0, llo), lhi,
                     blunder, max(0.0, blo), min(1.0, bhi), float(part["mistake"].mean()), acc,
                     max(0.0, alo), min(100.0, ahi)])  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)
