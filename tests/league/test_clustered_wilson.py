"""Win-rate intervals clustered by deal (docs/statistics.md): a player who holds several seats of
one game, or plays one deal in several seatings, has fewer independent results than seat-games.
The interval is Wilson's at the design-effect sample size, with Student's t for the G − 1 degrees
of freedom of G clusters."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.league.stats_basic import t_quantile, wilson, wilson_share
from harness.runs.stats import clustered_wilson, win_rates


def test_one_seat_per_deal_is_about_the_plain_wilson_interval() -> None:
    """With one result per cluster the design effect is G/(G−1): Wilson at n − 1 results, t for
    n − 1 degrees of freedom — within a hair of the plain interval."""
    rng = np.random.default_rng(1)
    won = pd.Series(rng.random(137) < 0.4)
    games = pd.Series([f"g{i}" for i in range(137)])
    p = float(won.mean())
    lo, hi = clustered_wilson(won, games)
    assert (lo, hi) == pytest.approx(wilson_share(p, 136, t_quantile(0.975, 136)), abs=1e-12)
    plo, phi = wilson(int(won.sum()), 137)
    assert 1.0 < (hi - lo) / (phi - plo) < 1.02


def test_two_seats_that_win_together_count_as_one_result() -> None:
    rng = np.random.default_rng(2)
    per_game = rng.random(80) < 0.3
    won = pd.Series(np.repeat(per_game, 2))
    games = pd.Series(np.repeat([f"g{i}" for i in range(80)], 2))
    lo, hi = clustered_wilson(won, games)
    single = clustered_wilson(pd.Series(per_game), pd.Series(range(80)))
    assert (lo, hi) == pytest.approx(single, abs=1e-12)  # the pair is one result
    plain = wilson(int(won.sum()), 160)
    assert hi - lo > 1.35 * (plain[1] - plain[0])


def test_one_deal_has_no_interval() -> None:
    won = pd.Series([True, False, True, True])
    assert all(np.isnan(clustered_wilson(won, pd.Series(["d1"] * 4))))


def test_a_share_of_0_or_1_counts_each_deal_once() -> None:
    won = pd.Series([True] * 12)
    deals = pd.Series(np.repeat(["a", "b", "c", "d"], 3))
    assert clustered_wilson(won, deals) == pytest.approx(
        wilson_share(1.0, 4, t_quantile(0.975, 3)), abs=1e-12
    )


def test_a_paired_deal_that_cancels_out_narrows_the_interval() -> None:
    """A paired league: in each deal the player wins one seating and loses the other (the
    deal's luck swapped sides).  Its win rate of one half is certain beyond coin flips: the
    design effect is below 1 and the interval narrower than the plain one."""
    won = pd.Series([True, False] * 40 + [True, True, False, False] * 5)
    deals = pd.Series(np.repeat(np.arange(50), 2))
    lo, hi = clustered_wilson(won, deals)
    plo, phi = wilson(int(won.sum()), len(won))
    assert lo < 0.5 < hi and hi - lo < 0.7 * (phi - plo)


def test_wilson_share_matches_wilson_on_whole_numbers() -> None:
    for k, n in ((0, 10), (3, 10), (10, 10), (57, 200)):
        assert wilson_share(k / n, n) == pytest.approx(wilson(k, n), abs=1e-15)
    with pytest.raises(ValueError):
        wilson_share(1.2, 10)


def test_clustered_interval_covers_where_the_plain_one_does_not() -> None:
    """Simulated leagues: each game a player holds a pair of same-team seats (one result for
    both) and one seat of its own.  The clustered interval keeps about 95 % coverage; the plain
    Wilson interval on seat-games does not (so this check can fail)."""
    rng = np.random.default_rng(3)
    p, games, leagues = 0.35, 120, 1500
    covered = {"clustered": 0, "plain": 0}
    ids = pd.Series(np.repeat(np.arange(games), 3))
    for _ in range(leagues):
        pair = rng.random(games) < p
        single = rng.random(games) < p
        won = np.column_stack([pair, pair, single]).reshape(-1)
        lo, hi = clustered_wilson(pd.Series(won), ids)
        covered["clustered"] += lo <= p <= hi
        plo, phi = wilson(int(won.sum()), len(won))
        covered["plain"] += plo <= p <= phi
    assert 0.93 <= covered["clustered"] / leagues <= 0.97
    assert covered["plain"] / leagues < 0.91


def test_win_rates_are_clustered_by_deal() -> None:
    seats = pd.DataFrame(
        {
            "game_id": np.repeat([f"g{i}" for i in range(40)], 2),
            "player": "bot",
            "role": "raider",
            "won": np.repeat(np.arange(40) % 3 == 0, 2),
        }
    )
    row = win_rates(seats).iloc[0]
    assert row["games"] == 80
    one = clustered_wilson(pd.Series(np.arange(40) % 3 == 0), pd.Series(range(40)))
    assert (row["ci_lo"], row["ci_hi"]) == pytest.approx(one, abs=1e-12)
    # the games of one deal are one cluster: pairs of games share a deal_key
    paired = pd.concat([seats, seats.assign(game_id=seats["game_id"] + "r")])
    paired["deal_key"] = paired["game_id"].str.rstrip("r")
    row = win_rates(paired).iloc[0]
    assert row["games"] == 160
    assert (row["ci_lo"], row["ci_hi"]) == pytest.approx(one, abs=1e-12)
