"""The belief-probe section of the HTML report: per model player the scores next to both
baselines and the margin over the counting observer with its interval
(:mod:`harness.runs.probe_table`), and a calibration plot (inline SVG, one series per player:
the model's role probabilities in ten bins against how often the player had that role)."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from harness.runs import probe_tables

from .reliability import reliability_svg


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def probe_figures(run_dir: str | Path) -> dict[str, Any] | None:
    """``{"rows": [...], "svg": str}``, or ``None`` when the run has no probes."""
    _, summary, calibration = probe_tables(run_dir)
    if summary.empty:
        return None
    rows = [
        {
            "player": str(r["player"]),
            "model": str(r["model"]),
            "probes": int(r["probes"]),
            "invalid": int(r["invalid"]),
            **{
                k: _num(r[k])
                for k in (
                    "brier",
                    "brier_counting",
                    "brier_rulebot",
                    "log_loss",
                    "log_loss_counting",
                    "log_loss_rulebot",
                    "beats_counting",
                    "beats_lo",
                    "beats_hi",
                )
            },
        }  # fmt: skip
        for r in summary.to_dict("records")
    ]
    series = []
    for player, part in calibration.groupby("player", sort=True):
        bins = [
            SimpleNamespace(
                predicted=float(b["p_mean"]), observed=float(b["observed"]), rows=int(b["count"])
            )  # fmt: skip
            for b in part.sort_values("bin").to_dict("records")
        ]
        series.append((str(player), bins))
    svg = reliability_svg(
        series,
        "Calibration of the belief probes",
        x_label="predicted P(role)",
        y_label="observed share with that role",
    )
    return {"rows": rows, "svg": svg}
