"""Reliability diagram of a probability model (inline SVG via ``prompts/report/reliability.svg.j2``):
predicted probability (x) against the observed rate (y) per bin, one dot per bin sized by its
rows, the diagonal of perfect calibration, one series per estimator."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .charts import PALETTE
from .templates import environment


def reliability_chart(series: Sequence[tuple[str, Sequence[Any]]]) -> dict[str, Any]:
    """``series``: ``(label, bins)`` with bins carrying ``predicted``, ``observed``, ``rows``."""
    size, pad = 320, 44
    plot = size - 2 * pad
    most = max((b.rows for _, bins in series for b in bins), default=1)

    def px(v: float) -> float:
        return round(pad + plot * v, 1)

    def py(v: float) -> float:
        return round(size - pad - plot * v, 1)

    out = []
    for j, (name, bins) in enumerate(series):
        pts = [
            {
                "x": px(b.predicted),
                "y": py(b.observed),
                "r": round(2.5 + 5.0 * math.sqrt(b.rows / most), 1),
                "title": f"{name}: predicted {b.predicted:.2f}, observed {b.observed:.2f}, "
                f"{b.rows} rows",
            }
            for b in bins
        ]
        out.append(
            {
                "label": name,
                "color": PALETTE[j % len(PALETTE)],
                "points": pts,
                "path": " ".join(f"{p['x']},{p['y']}" for p in pts),
                "legend_y": pad + 14 + 16 * j,
            }
        )
    ticks = [{"v": t / 4, "x": px(t / 4), "y": py(t / 4)} for t in range(5)]
    return {"size": size, "pad": pad, "lo": px(0), "hi": px(1), "series": out, "ticks": ticks}


def reliability_svg(
    series: Sequence[tuple[str, Sequence[Any]]],
    title: str,
    x_label: str = "predicted P(win)",
    y_label: str = "observed win rate",
) -> str:
    template = environment().get_template("reliability.svg.j2")
    return template.render(
        c=reliability_chart(series), title=title, x_label=x_label, y_label=y_label
    )
