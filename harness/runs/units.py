"""How a score is shown: one unit per kind of number, clipped to what is possible.

Two kinds of score sit side by side in the luck-adjusted table and the leaderboard:

* a **win rate** (per role: the raw rate, or the mean luck-adjusted score, which estimates it) is
  shown in percent and can only lie in 0–100 %;
* a **role-adjusted** score (result minus the role's base rate) is a difference of two rates,
  shown in percentage points (``pp``, signed) and can only lie in −100 … +100 pp.

An estimate or an interval bound outside that range (a luck-adjusted mean of −0.8 % from a few
unlucky-looking wins, a normal-approximation bound below zero) is shown at the bound it crosses;
the CSV files keep the unclipped numbers, so means pooled from them stay unbiased.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

__all__ = [
    "POINTS",
    "RATE",
    "Style",
    "bounds_text",
    "clip",
    "score_cell",
    "score_text",
    "value_text",
]

RATE: tuple[float, float] = (0.0, 1.0)
POINTS: tuple[float, float] = (-1.0, 1.0)
Style = Literal["terminal", "page"]


def _missing(x: Any) -> bool:
    if x is None:
        return True
    try:
        return math.isnan(float(x))
    except (TypeError, ValueError):
        return True


def clip(x: float, bounds: tuple[float, float]) -> float:
    """``x`` moved into ``bounds`` (a possible value is unchanged)."""
    return min(max(float(x), bounds[0]), bounds[1])


def value_text(x: Any, points: bool, style: Style = "terminal") -> str:
    """One figure without its interval: ``41.2%`` (``41.2 %`` on a page), ``+3.1 pp`` (``+3.1``
    on a page, under a "pp" header), clipped to what is possible; ``–`` when there is none."""
    if _missing(x):
        return "–"
    v = 100 * clip(x, POINTS if points else RATE)
    if points:
        return f"{v:+.1f}" + (" pp" if style == "terminal" else "")
    return f"{v:.1f}" + ("%" if style == "terminal" else " %")


def score_text(value: Any, lo: Any, hi: Any, points: bool, style: Style = "terminal") -> str:
    """``41.2% (30.0% … 50.1%)`` for a win rate, ``+3.1 (−2.0 … +8.2) pp`` for a role-adjusted
    score (``points``); on a page (``style="page"``) ``41.2 % (30.0 % – 50.1 %)`` and
    ``+3.1 (−2.0 – +8.2)`` under a "pp" header.  ``(–)`` for the interval when there is none (one
    deal, docs/statistics.md); ``–`` when there is no value."""
    text = value_text(value, points, style)
    if _missing(value):
        return text
    bounds = bounds_text(lo, hi, points, style) or "(–)"  # no interval: one deal
    if style == "terminal" and points:  # the unit once, after the interval
        return f"{text[:-3]} {bounds} pp"
    return f"{text} {bounds}"


def bounds_text(lo: Any, hi: Any, points: bool, style: Style = "terminal") -> str:
    """An interval as :func:`score_text` writes it (``(30.0% … 50.1%)``; in pp without the
    unit); empty when there is none."""
    if _missing(lo) or _missing(hi):
        return ""
    a, b = value_text(lo, points, style), value_text(hi, points, style)
    if style == "terminal":
        if points:
            a, b = a[:-3], b[:-3]
        return f"({a} … {b})"
    return f"({a} – {b})"


def score_cell(
    value: str, lo: str, hi: str, is_points: Callable[[Any], bool]
) -> Callable[[Any], str]:
    """A table cell (a function of a row) showing ``value`` with its interval, in pp when
    ``is_points(row)`` and in percent otherwise."""

    def cell(row: Any) -> str:
        return score_text(row[value], row[lo], row[hi], is_points(row))

    return cell
