"""Geometry of the HTML report's charts (inline SVG, drawn by templates in ``prompts/report``).

Pure functions from plain numbers to coordinates, so the templates only place shapes:

* :func:`win_rate_chart` — win rate per player × role: bars, 95 % Wilson whiskers (clustered by
  deal; none with one deal);
* :func:`interval_chart` — one row per item: a value with its 95 % interval, as a dot
  (ratings) or as a bar from zero (role-adjusted scores);
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
    "win_rate_chart",
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


# ----------------------------------------------------------------------------- win rate × role


def win_rate_chart(role_rates: Sequence[Any], colors: dict[str, str]) -> dict[str, Any]:
    """Bars (win rate), 95 % Wilson whiskers and ticks per player × role; ``role_rates`` have
    ``player``, ``role``, ``games``, ``wins``, ``rate`` and ``interval`` (``None``: no whisker,
    ``lo``/``hi`` of the row ``None``)."""
    label_w, plot_w, right_w, row_h, top = 190, 420, 150, 22, 28
    rows = []
    groups = []
    y = top
    last_role = None
    for r in role_rates:
        if r.role != last_role:
            if last_role is not None:
                y += 8
            groups.append({"y": y + 14, "role": r.role})
            y += row_h
            last_role = r.role
        lo, hi = r.interval if r.interval is not None else (None, None)
        rows.append(
            {
                "y": y,
                "cy": y + row_h / 2,
                "player": r.player,
                "role": r.role,
                "games": r.games,
                "wins": r.wins,
                "rate": r.rate,
                "lo": lo,
                "hi": hi,
                "w": round(plot_w * r.rate, 1),
                "xlo": None if lo is None else round(label_w + plot_w * lo, 1),
                "xhi": None if hi is None else round(label_w + plot_w * hi, 1),
                "color": colors.get(r.player, PALETTE[-1]),
            }
        )
        y += row_h
    ticks = [{"x": round(label_w + plot_w * t / 100, 1), "pct": t} for t in range(0, 101, 25)]
    return {
        "width": label_w + plot_w + right_w,
        "height": y + 10,
        "label_w": label_w,
        "plot_w": plot_w,
        "top": top,
        "rows": rows,
        "groups": groups,
        "ticks": ticks,
    }


# ----------------------------------------------------------------------------- intervals


@dataclass(frozen=True)
class Interval:
    """One row of an interval chart: ``value`` with its 95 % interval ``lo`` .. ``hi``."""

    label: str
    value: float
    lo: float | None
    hi: float | None
    text: str  # printed right of the plot
    title: str  # tooltip
    color: str = PALETTE[0]


def interval_chart(
    rows: Sequence[Interval], *, bars: bool, unit: str = "", zero: bool = False
) -> dict[str, Any]:
    """Rows of ``value`` with whiskers; ``bars`` draws a bar from 0 (and always shows 0),
    otherwise a dot.  The axis covers every value and interval bound."""
    label_w, plot_w, right_w, row_h, top = 130, 300, 180, 24, 30
    values = [v for r in rows for v in (r.value, r.lo, r.hi) if v is not None and _finite(v)]
    if bars or zero:
        values.append(0.0)
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    ticks = nice_ticks(lo, hi)
    vmin, vmax = ticks[0], ticks[-1]

    def x(v: float) -> float:
        return round(label_w + plot_w * (v - vmin) / (vmax - vmin), 1)

    out = []
    for i, r in enumerate(rows):
        y = top + i * row_h
        item: dict[str, Any] = {
            "y": y,
            "cy": y + row_h / 2,
            "label": r.label,
            "text": r.text,
            "title": r.title,
            "color": r.color,
            "x": x(r.value) if _finite(r.value) else None,
            "xlo": x(r.lo) if r.lo is not None and _finite(r.lo) else None,
            "xhi": x(r.hi) if r.hi is not None and _finite(r.hi) else None,
            "bar": None,
        }
        if bars and _finite(r.value):
            a, b = sorted((x(0.0), x(r.value)))
            item["bar"] = {"x": a, "w": round(max(b - a, 0.5), 1)}
        out.append(item)
    return {
        "width": label_w + plot_w + right_w,
        "height": top + len(rows) * row_h + 10,
        "label_w": label_w,
        "plot_w": plot_w,
        "top": top,
        "rows": out,
        "bars": bars,
        "zero": x(0.0) if vmin <= 0.0 <= vmax else None,
        "ticks": [{"x": x(t), "text": f"{t:g}{unit}"} for t in ticks],
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
