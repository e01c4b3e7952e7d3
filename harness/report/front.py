"""The front of the HTML report and of the leaderboard page: one section both pages open with
(``prompts/report/front.html.j2``).

* **Scores** — players by role-adjusted score (each result minus the base win rate of the role
  dealt at that table size and mode), best first, in percentage points with 95 % whiskers;
* **a panel per role** — each player's win rate in that role, best first, in percent with 95 %
  whiskers.

Every value and bound is drawn inside what is possible (0–100 % for a rate, ±100 pp for a
role-adjusted score: :mod:`harness.runs.units`); the charts are
:func:`harness.report.charts.interval_chart` rows, legible on a phone.  The report builds the
front from its summary and league figures (:func:`harness.report.html.charts`), the leaderboard
from its pooled table (:func:`leaderboard_front`); the numbers are those pages' own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.runs import POINTS, RATE, score_text, value_text

from .charts import PALETTE, Interval, interval_chart
from .labels import count, fill, labels
from .league_summary import ROLE_ORDER

__all__ = ["RoleRate", "Score", "leaderboard_front", "role_panels", "score_chart"]

PP_LIMITS = (100 * POINTS[0], 100 * POINTS[1])
RATE_LIMITS = (100 * RATE[0], 100 * RATE[1])


@dataclass(frozen=True)
class Score:
    """A player's role-adjusted score (a difference of rates, -1 … 1) with its 95 % interval."""

    player: str
    score: float | None
    lo: float | None
    hi: float | None
    games: int


@dataclass(frozen=True)
class RoleRate:
    """A player's win rate in one role: ``wins`` of ``games`` with its 95 % interval."""

    player: str
    role: str
    games: int
    wins: int
    rate: float
    lo: float | None
    hi: float | None


def _num(x: Any) -> float | None:
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _pct(x: float | None) -> float | None:
    return None if x is None else 100 * x


def score_chart(
    scores: Sequence[Score], colors: dict[str, str], locale: str, flagged: frozenset[str]
) -> dict[str, Any]:
    """Players by role-adjusted score, best first (players without one last)."""
    C = labels(locale).charts
    words = labels(locale)
    ranked = sorted(scores, key=lambda s: (s.score is None, -(s.score or 0.0), s.player))
    rows = []
    for s in ranked:
        text = score_text(s.score, s.lo, s.hi, True, "page")
        rows.append(
            Interval(
                f"⚠ {s.player}" if s.player in flagged else s.player,
                _pct(s.score) if s.score is not None else math.nan,
                _pct(s.lo),
                _pct(s.hi),
                fill(C["score_value"], value=text) if s.score is not None else "—",
                fill(
                    C["score_tip"],
                    player=s.player,
                    value=text,
                    games=count(s.games, "games", words),
                ),
                colors.get(s.player, PALETTE[-1]),
            )
        )
    return interval_chart(rows, bars=True, unit=f" {C['pp']}", limits=PP_LIMITS)


def role_panels(
    rates: Sequence[RoleRate], colors: dict[str, str], locale: str, flagged: frozenset[str]
) -> list[dict[str, Any]]:
    """One chart per role (in the game's role order): each player's win rate in it, best
    first, on a 0–100 % axis."""
    from harness.views.names import role_name

    words = labels(locale)
    C = words.charts
    roles = sorted(
        {r.role for r in rates},
        key=lambda r: (ROLE_ORDER.index(r) if r in ROLE_ORDER else len(ROLE_ORDER), r),
    )
    out = []
    for role in roles:
        name = role_name(role, locale)
        mine = sorted(
            (r for r in rates if r.role == role), key=lambda r: (-r.rate, -r.games, r.player)
        )
        rows = [
            Interval(
                f"⚠ {r.player}" if r.player in flagged else r.player,
                100 * r.rate,
                _pct(r.lo),
                _pct(r.hi),
                fill(
                    C["role_value"],
                    value=score_text(r.rate, r.lo, r.hi, False, "page"),
                    wins=r.wins,
                    games=r.games,
                ),
                fill(
                    C["win_rate_tip"],
                    player=r.player,
                    role=name,
                    wins=r.wins,
                    games=r.games,
                    rate=value_text(r.rate, False, "page"),
                    lo=value_text(r.lo, False, "page"),
                    hi=value_text(r.hi, False, "page"),
                ),
                colors.get(r.player, PALETTE[-1]),
            )
            for r in mine
        ]
        chart = interval_chart(rows, bars=True, unit=" %", limits=RATE_LIMITS, fixed=True)
        out.append({"role": role, "title": name, "chart": chart})
    return out


def leaderboard_front(rows: Sequence[dict[str, Any]], role_adjusted: str) -> dict[str, Any]:
    """The front of the leaderboard page from its table's rows (``leaderboard.csv``): the
    players' raw role-adjusted scores and their raw win rates per role, in English."""
    order: list[str] = []
    for r in rows:
        if r["player"] not in order:
            order.append(str(r["player"]))
    colors = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(order)}
    scores = [
        Score(str(r["player"]), _num(r["raw"]), _num(r["raw_lo"]), _num(r["raw_hi"]),
              int(r["seat_games"]))
        for r in rows
        if r["role"] == role_adjusted
    ]  # fmt: skip
    rates = [
        RoleRate(
            str(r["player"]),
            str(r["role"]),
            int(r["seat_games"]),
            round(float(r["raw"]) * int(r["seat_games"])),
            float(r["raw"]),
            _num(r["raw_lo"]),
            _num(r["raw_hi"]),
        )
        for r in rows
        if r["role"] != role_adjusted and _num(r["raw"]) is not None
    ]
    none: frozenset[str] = frozenset()
    return {
        "scores": score_chart(scores, colors, "en", none),
        "roles": role_panels(rates, colors, "en", none),
    }
