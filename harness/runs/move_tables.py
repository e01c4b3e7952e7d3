"""The move-analysis table of the league report (:mod:`harness.analysis.run_moves`).

Per player × role, over the decisions ``bangarena analyze`` stored: how many, the mean win
probability lost per decision, the blunder rate (share of decisions that are blunders) and the
mean accuracy (0–100), each with a 95 % interval: the mean over decisions with a standard error
clustered by deal (decisions of one game are not independent, nor are the games of one deal;
``stats.mean_interval``: the mean ± Student's t times that error), clipped to the measure's range; with one
deal there is none (NaN, shown as "–").  Only the player's own choices are scored: its fallback
moves, its autopilot's moves and its forced (one-option) decisions are counted apart
(``fallbacks``, ``autopilot``, ``forced``).  Only stored analyses are read, never computed here.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.analysis.run_moves import stored_moves
from harness.records.deals import deal_of
from harness.records.run_folder import finished_games, open_run_folder

from .stats import mean_interval

COLUMNS = ["player", "role", "games", "decisions", "loss", "loss_lo", "loss_hi", "blunder_rate",
           "blunder_lo", "blunder_hi", "mistake_rate", "accuracy", "acc_lo", "acc_hi",
           "fallbacks", "autopilot", "forced"]  # fmt: skip
LEFT_OUT = ["fallbacks", "autopilot", "forced"]


def _ci(
    values: pd.Series, clusters: pd.Series, low: float, high: float
) -> tuple[float, float, float]:
    """The mean and its 95 % interval clipped to ``[low, high]``; NaN bounds with one deal."""
    mean, lo, hi, _ = mean_interval(values, clusters)
    if math.isnan(lo) or math.isnan(hi):
        return mean, math.nan, math.nan
    return mean, max(low, lo), min(high, hi)


def _frames(run_dir: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One row per analysed decision (with its game's deal) and one per seat's left-out
    decisions, of the run's finished games."""
    moves = stored_moves(run_dir)
    deal = {}
    if moves:
        deal = {g.game_id: deal_of(g) for g in finished_games(open_run_folder(run_dir))}
    rows = [
        {"game_id": gid, "deal_key": deal[gid], "player": m.player, "role": m.role,
         "loss": m.loss, "blunder": float(m.label == "blunder"),
         "mistake": float(m.label in ("blunder", "mistake")), "accuracy": m.accuracy}
        for gid, line in moves.items()
        for m in line.decisions
    ]  # fmt: skip
    left = [
        {"game_id": gid, "player": s.player, "role": s.role, "fallbacks": s.fallback,
         "autopilot": s.autopilot, "forced": s.forced}
        for gid, line in moves.items()
        for s in line.left_out
    ]  # fmt: skip
    decisions = pd.DataFrame(rows, columns=["game_id", "deal_key", "player", "role", "loss",
                                            "blunder", "mistake", "accuracy"])  # fmt: skip
    return decisions, pd.DataFrame(left, columns=["game_id", "player", "role", *LEFT_OUT])


def decisions_frame(run_dir: str) -> pd.DataFrame:
    """One row per analysed decision (the players' own choices) of the run's finished games."""
    return _frames(run_dir)[0]


def move_table(run_dir: str) -> pd.DataFrame:
    """The table (empty when the run has no stored move analysis)."""
    df, left = _frames(run_dir)
    cells = sorted(
        {(str(p), str(r)) for p, r in zip(df["player"], df["role"], strict=True)}
        | {(str(p), str(r)) for p, r in zip(left["player"], left["role"], strict=True)}
    )
    rows = []
    for player, role in cells:
        part = df[(df["player"] == player) & (df["role"] == role)]
        apart = left[(left["player"] == player) & (left["role"] == role)]
        deal = part["deal_key"]
        loss, llo, lhi = _ci(part["loss"], deal, 0.0, 1.0)
        blunder, blo, bhi = _ci(part["blunder"], deal, 0.0, 1.0)
        acc, alo, ahi = _ci(part["accuracy"], deal, 0.0, 100.0)
        games = len(set(part["game_id"]) | set(apart["game_id"]))
        mistakes = float(part["mistake"].mean()) if len(part) else math.nan
        rows.append([player, role, games, len(part), loss, llo, lhi, blunder, blo, bhi, mistakes,
                     acc, alo, ahi, *(int(apart[c].sum()) for c in LEFT_OUT)])  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)
