"""Geometry of the HTML report's charts (inline SVG, drawn by templates in ``prompts/report``).

Pure functions from plain numbers to coordinates, so the templates only place shapes:

* :func:`interval_chart` — one row per item: a value with its 95 % interval, as a dot
  (ratings) or as a bar from zero (role-adjusted scores, win rates of the front's role panels:
  :mod:`harness.report.front`), drawn narrow enough to read on a phone;
* :func:`panel_chart` — small multiples, one panel per mode: a value by table size with its
  interval, one line per series (win rate by table size × mode per player; base role rates).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PALETTE",
    "ROLE_COLORS",
    "Interval",
    "Point",
    "Series",
    "interval_chart",
    "nice_ticks",
    "panel_chart",
]

PALETTE = ("#3b6ea8", "#c8553d", "#3f8f5a", "#8a5fb0", "#c49a1a", "#2f8f8f", "#b0476e", "#6b6b6b")
ROLE_COLORS = {
    "marshal": "#c49a1a",
    "deputy": "#3b6ea8",
    "raider": "#c8553d",
    "loner": "#3f8f5a",
    "double_agent": "#8a5fb0",
}


def _finite(x: float | None) -> bool:
    return x is not None and not math.isnan(x)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering ``lo`` .. ``hi`` (steps of 1, 2 or 5 × 10^k)."""
    if not (_finite(lo) and _finite(hi)) or hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    ticks = []
    t = first
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    if ticks[-1] < hi:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


# ----------------------------------------------------------------------------- intervals

# The rows of an interval chart: a line of text (the label at the start, the value at the end)
# above the bar and whisker, so the plot spans the whole width.  WIDTH keeps the text legible on
# a phone: the chart is drawn at its own size, never wider than its box, and a 390 px screen
# still shows its 13 px text at 11 px or more.
WIDTH, ROW_H, TOP, PAD = 380, 40, 22, 8
LABEL_CHARS = 24  # a longer label is cut (its tooltip has it whole)


@dataclass(frozen=True)
class Interval:
    """One row of an interval chart: ``value`` with its 95 % interval ``lo`` .. ``hi``."""

    label: str
    value: float
    lo: float | None
    hi: float | None
    text: str  # printed at the end of the row's text line
    title: str  # tooltip
    color: str = PALETTE[0]


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def interval_chart(
    rows: Sequence[Interval],
    *,
    bars: bool,
    unit: str = "",
    zero: bool = False,
    limits: tuple[float, float] | None = None,
    fixed: bool = False,
) -> dict[str, Any]:
    """Rows of ``value`` with whiskers; ``bars`` draws a bar from 0 (and always shows 0),
    otherwise a dot.  ``limits`` is the range a value can take (a rate 0 … 100): values and
    interval bounds beyond it are drawn at the limit; ``fixed`` makes it the axis.  Otherwise
    the axis covers every value and interval bound (and 0 with ``bars`` or ``zero``)."""
    label_w, plot_w = PAD, WIDTH - 2 * PAD

    def clipped(v: float | None) -> float | None:
        if v is None or not _finite(v):
            return None
        return min(max(v, limits[0]), limits[1]) if limits else v

    values = [c for r in rows for v in (r.value, r.lo, r.hi) if (c := clipped(v)) is not None]
    if bars or zero:
        values.append(0.0)
    if fixed and limits:
        ticks = nice_ticks(limits[0], limits[1])
    else:
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        ticks = nice_ticks(lo, hi)
        if limits:
            ticks = [t for t in ticks if limits[0] <= t <= limits[1]] or ticks
    vmin, vmax = ticks[0], ticks[-1]

    def x(v: float) -> float:
        v = min(max(v, vmin), vmax)
        return round(label_w + plot_w * (v - vmin) / (vmax - vmin), 1)

    out = []
    for i, r in enumerate(rows):
        y = TOP + i * ROW_H
        value, lo, hi = clipped(r.value), clipped(r.lo), clipped(r.hi)
        item: dict[str, Any] = {
            "y": y,
            "ty": y + 14,  # the text line's baseline
            "cy": y + 27,  # the bar's and whisker's centre
            "label": _short(r.label),
            "text": r.text,
            "title": r.title,
            "color": r.color,
            "x": x(value) if value is not None else None,
            "xlo": x(lo) if lo is not None and hi is not None else None,
            "xhi": x(hi) if lo is not None and hi is not None else None,
            "bar": None,
        }
        if bars and value is not None:
            a, b = sorted((x(0.0), x(value)))
            item["bar"] = {"x": a, "w": round(max(b - a, 0.5), 1)}
        out.append(item)
    return {
        "width": WIDTH,
        "height": TOP + len(rows) * ROW_H + 6,
        "label_w": label_w,
        "plot_w": plot_w,
        "top": TOP,
        "rows": out,
        "bars": bars,
        "zero": x(0.0) if vmin <= 0.0 <= vmax else None,
        # the unit once, on the last tick: the labels fit a phone's width
        "ticks": [
            {"x": x(t), "text": f"{t:g}{unit if i == len(ticks) - 1 else ''}"}
            for i, t in enumerate(ticks)
        ],
    }


# ----------------------------------------------------------------------------- panels


@dataclass(frozen=True)
class Point:
    """A rate at one table size: ``k`` of ``n`` with its 95 % Wilson interval (clustered by deal;
    ``None`` with one deal: no whisker)."""

    seats: int
    k: int
    n: int
    rate: float
    lo: float | None
    hi: float | None


@dataclass(frozen=True)
class Series:
    key: str
    label: str
    color: str
    points: tuple[Point, ...]


def panel_chart(
    panels: Sequence[tuple[str, Sequence[Series]]], point_title: Callable[[Series, Point], str]
) -> dict[str, Any]:
    """One small chart per ``(title, series)``: rate (0–100 %) by table size, one line per
    series, whiskers for the intervals, series side by side at each size; ``point_title`` is
    the tooltip of a point (in the report's language)."""
    w, h, pad_l, pad_r, pad_t, pad_b = 270, 210, 42, 10, 26, 34
    plot_w, plot_h = w - pad_l - pad_r, h - pad_t - pad_b
    sizes = sorted({p.seats for _, series in panels for s in series for p in s.points})
    lo_n, hi_n = (sizes[0], sizes[-1]) if sizes else (4, 8)

    def px(seats: int) -> float:
        if hi_n == lo_n:
            return pad_l + plot_w / 2
        return pad_l + 14 + (seats - lo_n) * (plot_w - 28) / (hi_n - lo_n)

    def py(rate: float) -> float:
        return round(pad_t + plot_h * (1.0 - rate), 1)

    out = []
    for title, series in panels:
        k = len(series)
        lines = []
        for j, s in enumerate(series):
            dx = (j - (k - 1) / 2) * min(4.0, 16.0 / max(1, k))
            pts = [
                {
                    "x": round(px(p.seats) + dx, 1),
                    "y": py(p.rate),
                    "ylo": None if p.lo is None else py(p.lo),
                    "yhi": None if p.hi is None else py(p.hi),
                    "seats": p.seats,
                    "title": point_title(s, p),
                }
                for p in sorted(s.points, key=lambda p: p.seats)
            ]
            lines.append(
                {
                    "key": s.key,
                    "label": s.label,
                    "color": s.color,
                    "points": pts,
                    "path": " ".join(f"{p['x']},{p['y']}" for p in pts),
                }
            )
        out.append({"title": title, "lines": lines})
    legend: dict[str, dict[str, str]] = {}
    for _, series in panels:
        for s in series:
            legend.setdefault(s.key, {"label": s.label, "color": s.color})
    return {
        "width": w,
        "height": h,
        "legend": list(legend.values()),
        "left": pad_l,
        "right": w - pad_r,
        "top": pad_t,
        "bottom": pad_t + plot_h,
        "panels": out,
        "xs": [{"x": round(px(n), 1), "seats": n} for n in sizes],
        "ys": [{"y": py(t / 100), "pct": t} for t in (0, 25, 50, 75, 100)],
    }
