"""Win-rate intervals clustered by game (docs/statistics.md): a player who holds several seats of
one game has fewer independent results than seat-games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.league.stats import clustered_wilson, win_rates
from harness.league.stats_basic import wilson, wilson_share


def test_one_seat_per_game_is_the_plain_wilson_interval() -> None:
    rng = np.random.default_rng(1)
    won = pd.Series(rng.random(137) < 0.4)
    games = pd.Series([f"g{i}" for i in range(137)])
    assert clustered_wilson(won, games) == pytest.approx(wilson(int(won.sum()), 137), abs=1e-12)


def test_two_seats_that_win_together_count_as_one_result() -> None:
    rng = np.random.default_rng(2)
    per_game = rng.random(80) < 0.3
    won = pd.Series(np.repeat(per_game, 2))
    games = pd.Series(np.repeat([f"g{i}" for i in range(80)], 2))
    lo, hi = clustered_wilson(won, games)
    assert (lo, hi) == pytest.approx(wilson(int(per_game.sum()), 80), abs=1e-12)
    plain = wilson(int(won.sum()), 160)
    assert hi - lo > 1.35 * (plain[1] - plain[0])


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


def test_win_rates_are_clustered_by_game() -> None:
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
    assert (row["ci_lo"], row["ci_hi"]) == pytest.approx(wilson(14, 40), abs=1e-12)
