"""Scores are shown in one unit per kind and inside what is possible (issue 36, item 3): a win
rate in %, a role-adjusted score in pp; a luck-adjusted mean of −0.8 % or a bound above 100 %
is shown at the bound, and the luck table of ``league report --luck`` writes its role-adjusted
rows in pp where the per-role rows say %."""

from __future__ import annotations

import math

import pandas as pd

from harness.runs import ROLE_ADJUSTED
from harness.runs.league_report_columns import TABLE_SPECS
from harness.runs.units import bounds_text, clip, score_text


def test_a_rate_is_in_percent_and_never_below_zero_or_above_100() -> None:
    assert score_text(0.412, 0.3, 0.501, False) == "41.2% (30.0% … 50.1%)"
    assert score_text(-0.008, -0.05, 0.031, False) == "0.0% (0.0% … 3.1%)"
    assert score_text(1.2, 0.9, 1.6, False) == "100.0% (90.0% … 100.0%)"
    assert score_text(0.5, math.nan, math.nan, False) == "50.0% (–)"  # one deal: no interval
    assert score_text(math.nan, 0.1, 0.2, False) == "–"
    assert score_text(0.5, None, 0.6, False, "page") == "50.0 % (–)"
    assert score_text(0.0, 0.0, 0.563, False, "page") == "0.0 % (0.0 % – 56.3 %)"


def test_a_role_adjusted_score_is_in_points_with_one_unit() -> None:
    assert score_text(0.031, -0.02, 0.082, True) == "+3.1 (-2.0 … +8.2) pp"
    assert score_text(-0.296, -0.428, -0.165, True) == "-29.6 (-42.8 … -16.5) pp"
    assert score_text(0.5, 0.2, 1.4, True) == "+50.0 (+20.0 … +100.0) pp"
    assert score_text(0.031, -0.02, 0.082, True, "page") == "+3.1 (-2.0 – +8.2)"
    assert bounds_text(-0.02, 0.082, True) == "(-2.0 … +8.2)"
    assert bounds_text(None, 0.082, True) == ""
    assert clip(-3.0, (-1.0, 1.0)) == -1.0 and clip(0.25, (0.0, 1.0)) == 0.25


def test_the_luck_table_says_percent_for_roles_and_pp_for_role_adjusted_rows() -> None:
    _title, columns = TABLE_SPECS["luck"]
    cells = {header: cell for header, cell, _fmt in columns}
    rows = pd.DataFrame(
        [
            ["bot", "raider", 4, 0.25, 0.05, 0.6, -0.008, -0.09, 0.07, "x", "y"],
            ["bot", ROLE_ADJUSTED, 12, 0.031, -0.02, 0.082, 0.04, -0.01, 0.09, "x", "y"],
        ],
        columns=["player", "role", "seat_games", "win_rate", "win_lo", "win_hi", "adjusted",
                 "adj_lo", "adj_hi", "adj_se", "raw_se"],
    )  # fmt: skip
    raw, adjusted = cells["raw"], cells["luck-adjusted"]
    assert callable(raw) and callable(adjusted)
    role_row, all_row = rows.iloc[0], rows.iloc[1]
    assert raw(role_row) == "25.0% (5.0% … 60.0%)"
    assert adjusted(role_row) == "0.0% (0.0% … 7.0%)"  # a mean of −0.8 % is no win rate
    assert raw(all_row) == "+3.1 (-2.0 … +8.2) pp"
    assert adjusted(all_row) == "+4.0 (-1.0 … +9.0) pp"
    assert all("%" not in c(all_row) for c in (raw, adjusted))
