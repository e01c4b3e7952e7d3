"""The league statistics the HTML report charts, computed by the league's own code
(:mod:`harness.runs.stats`, :mod:`harness.runs.ratings`) so the page shows the same numbers
as ``bangarena league report``.

:func:`league_figures` returns plain, picklable values (it runs in a worker process while the
game files are written): per player the openskill rating with its bootstrap 95 % interval and the
role-adjusted score with its 95 % interval; the win rate of every player by table size × mode;
and the base win rate of every role by table size × mode, each with its 95 % Wilson interval
(every interval clustered by deal, ``None`` with one deal: docs/statistics.md);
and a model's win rate by role per language (:mod:`harness.runs.locales`) as table rows.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

__all__ = ["league_figures"]


def _num(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _rate_cell(
    r: dict[str, Any], rate: Any, interval: tuple[Any, Any], **who: str
) -> dict[str, Any]:
    """A win rate of ``who`` at one table size × mode (row ``r`` of the league's tables: its
    games and wins) with its 95 % interval."""
    return {
        **who,
        "seats": int(r["seats"]),
        "mode": str(r["mode"]),
        "n": int(r["games"]),
        "k": int(r["wins"]),
        "rate": float(rate),
        "lo": _num(interval[0]),
        "hi": _num(interval[1]),
    }


def league_figures(run_dir: str | Path) -> dict[str, Any]:
    from harness.runs import (
        base_rates,
        compute_ratings,
        load_run,
        locale_table,
        locale_win_rates,
        player_locales,
        role_adjusted,
        run_config,
        win_rates,
    )

    data = load_run(run_dir)
    seats = data.seats
    adjusted = {r["player"]: r for r in role_adjusted(seats).to_dict("records")}
    standings = []
    for r in compute_ratings(seats).to_dict("records"):
        a = adjusted.get(r["player"], {})
        standings.append(
            {
                "player": r["player"],
                "games": int(r["games"]),
                "mu": _num(r["mu"]),
                "sigma": _num(r["sigma"]),
                "ordinal": _num(r["ordinal"]),
                "mu_lo": _num(r["mu_lo"]),
                "mu_hi": _num(r["mu_hi"]),
                "ordinal_lo": _num(r["ordinal_lo"]),
                "ordinal_hi": _num(r["ordinal_hi"]),
                "score": _num(a.get("score")),
                "score_lo": _num(a.get("ci_lo")),
                "score_hi": _num(a.get("ci_hi")),
                "expected": _num(a.get("expected")),
            }
        )
    # every role together: one win rate per player × table size × mode
    by_size = win_rates(seats.assign(role="all"), by=("seats", "mode"))
    size_mode = [
        _rate_cell(r, r["win_rate"], (r["ci_lo"], r["ci_hi"]), player=str(r["player"]))
        for r in by_size.to_dict("records")
    ]
    # a role's seats of one game win or lose together, and a paired league's games of one deal
    # share their luck: the intervals are clustered by deal
    base_ci = {
        (r["seats"], r["mode"], r["role"]): (r["ci_lo"], r["ci_hi"])
        for r in win_rates(seats.assign(player=""), by=("seats", "mode")).to_dict("records")
    }
    base = [
        _rate_cell(
            r, r["base_rate"], base_ci[(r["seats"], r["mode"], r["role"])], role=str(r["role"])
        )
        for r in base_rates(seats).to_dict("records")
    ]
    headers, rows = locale_table(
        locale_win_rates(seats, data.games, player_locales(run_config(run_dir)))
    )
    locales = {"headers": headers, "rows": rows}
    return {
        "standings": standings,
        "size_mode": size_mode,
        "base": base,
        "locales": locales,
        "luck": _luck_rows(run_dir, seats),
        "moves": _move_rows(run_dir),
        **_talk(run_dir),
        "probes": _probes(run_dir),
    }


def _talk(run_dir: str | Path) -> dict[str, Any]:
    """Table talk (:mod:`harness.runs.talk_table`): ``talk`` (on, off or people) and the
    rows of its two tables."""
    from harness.runs import claim_effect_table, signal_table, talk_setting

    talk = talk_setting(run_dir)

    def rows(df: Any) -> list[dict[str, Any]]:
        return [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                for r in df.to_dict("records")]  # fmt: skip

    return {
        "talk": talk,
        "signals": rows(signal_table(run_dir)),
        "claim_effect": rows(claim_effect_table(run_dir)),
    }


def _move_rows(run_dir: str | Path) -> list[dict[str, Any]]:
    """The move-analysis table when ``bangarena analyze`` stored analyses; otherwise none."""
    from harness.runs import move_table

    return [
        {k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
        for r in move_table(str(run_dir)).to_dict("records")
    ]


def _probes(run_dir: str | Path) -> dict[str, Any] | None:
    """The belief-probe section (docs/probes.md); ``None`` when the run has no probes."""
    from .probe_figures import probe_figures

    return probe_figures(run_dir)


def _luck_rows(run_dir: str | Path, seats: Any) -> list[dict[str, Any]]:
    """The luck-adjusted table when ``league report --luck`` stored every game's scores (the
    HTML report reads them, never computes them); otherwise none."""
    from harness.runs import ROLE_ADJUSTED, luck_table

    try:
        table = luck_table(str(run_dir), seats, compute=False)
    except LookupError:
        return []
    return [
        {
            "player": str(r["player"]),
            "role": str(r["role"]),
            "role_adjusted": r["role"] == ROLE_ADJUSTED,
            "seat_games": int(r["seat_games"]),
            "raw": float(r["win_rate"]),
            "raw_lo": _num(r["win_lo"]),
            "raw_hi": _num(r["win_hi"]),
            "adjusted": _num(r["adjusted"]),
            "adj_lo": _num(r["adj_lo"]),
            "adj_hi": _num(r["adj_hi"]),
            "advantage": _num(r["advantage"]),
            "adv_lo": _num(r["adv_lo"]),
            "adv_hi": _num(r["adv_hi"]),
        }
        for r in table.to_dict("records")
    ]
