"""The balance chart (``balance.svg``): one panel per team with its win rate by table size, one
line per mode, with 95 % interval whiskers, from the summaries of
:func:`harness.league.balance.play_balance`.  The geometry is computed here; the markup is
``prompts/report/balance.svg.j2``.
"""

from __future__ import annotations

from typing import Any

from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from harness.league.balance import SEATS, TEAMS

from .templates import environment

__all__ = ["balance_svg"]

COLORS = {
    "classic": "#1f77b4",
    "partners": "#2ca02c",
    "double_agent": "#d62728",
    "old_classic": "#9467bd",
}
PANEL_W, PANEL_H, PAD_L, PAD_T, PAD_B = 260, 220, 46, 40, 40
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


def balance_svg(rows: list[dict[str, Any]]) -> str:
    """The chart as SVG text (see the module docstring)."""
    width = PAD_L + len(TEAMS) * (PANEL_W + 30) + 130
    height = PAD_T + PANEL_H + PAD_B + 20
    lx = PAD_L + len(TEAMS) * (PANEL_W + 30)
    legend = [
        {"mode": mode, "color": COLORS[mode], "y": PAD_T + 20 + 18 * i}
        for i, mode in enumerate(MODES)
    ]
    panels = [_panel(rows, team, PAD_L + p * (PANEL_W + 30)) for p, team in enumerate(TEAMS)]
    text = (
        environment()
        .get_template("balance.svg.j2")
        .render(
            width=width,
            height=height,
            pad_l=PAD_L,
            panel_w=PANEL_W,
            panel_h=PANEL_H,
            panels=panels,
            legend=legend,
            lx=lx,
        )
    )
    return text.rstrip("\n") + "\n"


def _panel(rows: list[dict[str, Any]], team: str, x0: int) -> dict[str, Any]:
    y0 = PAD_T

    def px(seats: int) -> float:
        return x0 + 20 + (seats - MIN_SEATS) * (PANEL_W - 40) / (MAX_SEATS - MIN_SEATS)

    def py(rate: float) -> float:
        return y0 + PANEL_H * (1.0 - rate)

    ticks = [
        {"y": f"{py(t):.1f}", "text_y": f"{py(t) + 4:.1f}", "label": f"{t:.0%}"} for t in TICKS
    ]
    seats = [{"x": f"{px(n):.1f}", "label": n} for n in SEATS]
    lines = []
    for k, mode in enumerate(MODES):
        pts = [r for r in rows if r["mode"] == mode]
        dx = (k - 1.5) * 3  # keep the whiskers of different modes apart
        points = []
        for r in pts:
            x = px(r["seats"]) + dx
            t = r["teams"][team]
            points.append(
                {
                    "x": f"{x:.1f}",
                    "lo": f"{py(t['lo']):.1f}",
                    "hi": f"{py(t['hi']):.1f}",
                    "y": f"{py(t['rate']):.1f}",
                    "title": f"{mode}, {r['seats']} seats: {100 * t['rate']:.1f} % "
                    f"[{100 * t['lo']:.1f}, {100 * t['hi']:.1f}]",
                }
            )
        polyline = " ".join(
            f"{px(r['seats']) + dx:.1f},{py(r['teams'][team]['rate']):.1f}" for r in pts
        )
        lines.append({"color": COLORS[mode], "polyline": polyline, "points": points})
    return {
        "team": team,
        "x0": x0,
        "y0": y0,
        "mid": x0 + PANEL_W / 2,
        "right": x0 + PANEL_W,
        "bottom": y0 + PANEL_H,
        "ticks": ticks,
        "seats": seats,
        "lines": lines,
    }
