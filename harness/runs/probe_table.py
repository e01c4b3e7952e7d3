"""The belief-probe tables of a league report (``docs/probes.md``), from ``<run>/probes.jsonl``
and the true roles of the run's finished games (``games.jsonl``).

* ``probes`` — per player × probing seat's role × round, then per player over all roles and
  rounds (role and round ``all``): probes asked, invalid ones, forecasts scored, and the mean
  Brier score and log loss (:mod:`.probe_scores`) of the model, the counting observer and the
  rule bot on the same forecasts (those of the valid probes).
* ``probe_summary`` — per player: the same figures over all its probes, and "beats the counting
  observer by": the mean over valid probes of (the counting observer's probe Brier score − the
  model's), positive when the model is better, with a 95 % percentile interval from a cluster
  bootstrap over deals (2000 resamples, seeded; the games of one deal are one cluster,
  :func:`harness.records.deals.deal_of`).
* ``calibration`` — per player, every (forecast, role) probability the model gave, in ten bins
  of width 0.1: the bin's mean probability and how often the role was the true one.

Probes of games that have no finished record (in flight when a run stopped) are left out: their
truth is not in the run yet.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from harness.records import GameRecord, RunStore
from harness.records.deals import deal_of
from harness.records.probes import ProbeRecord, read_probes

from .probe_scores import SOURCES, Forecast, cluster_bootstrap, forecasts, probe_score

ALL = "all"
BINS = 10
RESAMPLES = 2000
TABLE_COLUMNS = ["player", "model", "role", "round", "probes", "invalid", "forecasts",
                 "brier", "brier_counting", "brier_rulebot",
                 "log_loss", "log_loss_counting", "log_loss_rulebot"]  # fmt: skip
SUMMARY_COLUMNS = ["player", "model", "probes", "invalid", "invalid_rate", "forecasts",
                   "brier", "brier_counting", "brier_rulebot", "log_loss", "log_loss_counting",
                   "log_loss_rulebot", "beats_counting", "beats_lo", "beats_hi"]  # fmt: skip
CALIBRATION_COLUMNS = ["player", "bin", "p_mean", "observed", "count"]
_NAMES = {"model": "", "counting": "_counting", "rulebot": "_rulebot"}


def _roles(games: Iterable[GameRecord]) -> dict[str, dict[int, str]]:
    return {g.game_id: {o.seat: o.role for o in g.seat_outcomes} for g in games}


def _scores(fs: list[Forecast]) -> dict[str, float]:
    out: dict[str, float] = {}
    for source in SOURCES:
        suffix = _NAMES[source]
        out[f"brier{suffix}"] = sum(f.brier(source) for f in fs) / len(fs) if fs else math.nan
        out[f"log_loss{suffix}"] = sum(f.log_loss(source) for f in fs) / len(fs) if fs else math.nan
    return out


def _row(
    player: str, model: str | None, role: str, rnd: str, probes: list[ProbeRecord],
    fs: list[Forecast],
) -> dict[str, object]:  # fmt: skip
    return {
        "player": player,
        "model": model or "",
        "role": role,
        "round": rnd,
        "probes": len(probes),
        "invalid": sum(1 for p in probes if not p.valid),
        "forecasts": len(fs),
        **_scores(fs),
    }


def load_probes(run_dir: str | Path) -> tuple[list[ProbeRecord], dict[str, dict[int, str]]]:
    """The probes of the run's finished games, and those games' roles by seat."""
    probes, roles, _ = _load(run_dir)
    return probes, roles


def _load(
    run_dir: str | Path,
) -> tuple[list[ProbeRecord], dict[str, dict[int, str]], dict[str, str]]:
    """:func:`load_probes` and the deal of every finished game."""
    games = RunStore(Path(run_dir)).games()
    roles = _roles(games)
    deals = {g.game_id: deal_of(g) for g in games}
    return [p for p in read_probes(run_dir) if p.game_id in roles], roles, deals


def probe_tables(run_dir: str | Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """``(probes, probe_summary, calibration)``; empty tables when the run has no probes."""
    probes, roles, deals = _load(run_dir)
    if not probes:
        return (pd.DataFrame(columns=TABLE_COLUMNS), pd.DataFrame(columns=SUMMARY_COLUMNS),
                pd.DataFrame(columns=CALIBRATION_COLUMNS))  # fmt: skip
    by_probe = [(p, forecasts(p, roles[p.game_id])) for p in probes]
    rows, summary, calibration = [], [], []
    for player in sorted({p.player for p in probes}):
        mine = [(p, fs) for p, fs in by_probe if p.player == player]
        model = mine[0][0].model
        cells = sorted({(p.role, p.round) for p, _ in mine})
        for role, rnd in cells:
            part = [(p, fs) for p, fs in mine if (p.role, p.round) == (role, rnd)]
            rows.append(_row(player, model, role, str(rnd), [p for p, _ in part],
                             [f for _, fs in part for f in fs]))  # fmt: skip
        every = [f for _, fs in mine for f in fs]
        rows.append(_row(player, model, ALL, ALL, [p for p, _ in mine], every))
        scored = [(p, fs) for p, fs in mine if fs]
        diffs = [probe_score(fs, "counting") - probe_score(fs, "model") for _, fs in scored]
        beats, lo, hi = cluster_bootstrap(
            diffs, [deals[p.game_id] for p, _ in scored], resamples=RESAMPLES, seed=0
        )
        n_invalid = sum(1 for p, _ in mine if not p.valid)
        summary.append({
            "player": player, "model": model or "", "probes": len(mine), "invalid": n_invalid,
            "invalid_rate": n_invalid / len(mine), "forecasts": len(every), **_scores(every),
            "beats_counting": beats, "beats_lo": lo, "beats_hi": hi,
        })  # fmt: skip
        calibration += _calibration(player, every)
    return (
        pd.DataFrame(rows, columns=TABLE_COLUMNS),
        pd.DataFrame(summary, columns=SUMMARY_COLUMNS),
        pd.DataFrame(calibration, columns=CALIBRATION_COLUMNS),
    )


def _calibration(player: str, fs: list[Forecast]) -> list[dict[str, object]]:
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(BINS)]
    for f in fs:
        for role, p in f.rows["model"].items():
            bins[min(BINS - 1, int(p * BINS))].append((p, role == f.target_role))
    out: list[dict[str, object]] = []
    for i, cell in enumerate(bins):
        if cell:
            out.append({
                "player": player, "bin": i,
                "p_mean": sum(p for p, _ in cell) / len(cell),
                "observed": sum(1 for _, hit in cell if hit) / len(cell),
                "count": len(cell),
            })  # fmt: skip
    return out
