"""The advantage-adjusted score (harness.analysis.advantage): zero departures for the rule bot,
the table's bot must be the play-outs' bot, and the mean adjusted score estimates the mean
result (the performance-difference identity, docs/analysis.md)."""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from harness.agents.rulebot import RuleBot
from harness.analysis.advantage import (
    BotMismatch,
    PlayoutRule,
    SeatPolicy,
    advantage_adjust,
)
from harness.analysis.ladder import EpsilonBot
from harness.analysis.playout import play_out
from harness.engine import Game

FAST = PlayoutRule(start=4, bound=0.0, cap=4)  # any R is unbiased; few play-outs keep it quick


def _play(n: int, seed: int, epsilons: dict[int, float]) -> Game:
    game = Game.new(n, "classic", seed)
    bots: list[RuleBot] = [
        EpsilonBot(f"e{i}", epsilons[i]) if i in epsilons else RuleBot(f"b{i}") for i in range(n)
    ]
    for i, b in enumerate(bots):
        b.new_game(f"g{seed}", i, seed)
    play_out(game, bots)
    return game


def _policies(n: int, unknown: set[int]) -> list[SeatPolicy]:
    return ["unknown" if i in unknown else "rulebot" for i in range(n)]


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_epsilon_zero_agent_has_no_departures(seed: int) -> None:
    game = _play(5, seed, {1: 0.0})
    r = advantage_adjust(5, "classic", seed, game.history, _policies(5, {1}), FAST)
    assert r.departures == ()
    assert r.decisions > 10
    np.testing.assert_array_equal(r.adjusted, r.deal_value)  # V(deal) alone


def test_epsilon_agent_departs_and_only_at_its_own_seat() -> None:
    game = _play(4, 21, {2: 0.5})
    r = advantage_adjust(4, "classic", 21, game.history, _policies(4, {2}), FAST)
    assert r.departures, "an ε = 0.5 agent leaves the rule bot's choice in a whole game"
    for d in r.departures:
        assert d.seat == 2 and d.chosen not in d.reference and d.playouts == 4
        assert all(-1.0 <= a <= 1.0 for a in d.advantage)


def test_a_table_bot_that_is_not_the_rule_bot_is_detected() -> None:
    # seat 0 recorded as the rule bot but played by a random agent: the play-outs would assume
    # a policy the table did not play, so the replay refuses
    game = _play(4, 31, {0: 1.0})
    with pytest.raises(BotMismatch, match="not the table's bots"):
        advantage_adjust(4, "classic", 31, game.history, _policies(4, set()), FAST)


def test_same_deal_same_deal_value_whoever_plays() -> None:
    a, b = _play(5, 41, {3: 0.0}), _play(5, 41, {3: 1.0})
    ra = advantage_adjust(5, "classic", 41, a.history, _policies(5, {3}), FAST, rng_seed=7)
    rb = advantage_adjust(5, "classic", 41, b.history, _policies(5, {3}), FAST, rng_seed=7)
    np.testing.assert_array_equal(ra.deal_value, rb.deal_value)


def test_adaptive_rule_doubles_until_the_bound_or_the_cap() -> None:
    game = _play(4, 51, {1: 1.0})
    rule = PlayoutRule(start=2, bound=0.0001, cap=8)
    r = advantage_adjust(4, "classic", 51, game.history, _policies(4, {1}), rule)
    assert r.departures
    for d in r.departures:  # a nonzero spread never meets 0.0001 with 8: capped; zero stops at 2
        assert d.playouts in (2, 8)
        assert (d.playouts == 2) == (d.se <= 0.0001)


@pytest.mark.parametrize(("start", "bound", "cap"), [(1, 0.1, 8), (8, -0.1, 8), (8, 0.1, 4)])
def test_bad_rules_are_refused(start: int, bound: float, cap: int) -> None:
    with pytest.raises(ValueError):
        PlayoutRule(start, bound, cap)


GAMES = 60  # scored by advantage
EIGHT = PlayoutRule(start=8, bound=0.0, cap=8)
RAW_GAMES = 400  # raw only (cheap): the mean result they estimate
EPS = {0: 0.1, 2: 0.1}  # two departing seats; rule bots at 1 and 3


@cache
def _many() -> tuple[np.ndarray, np.ndarray]:
    """Adjusted scores of the 4 seats over ``GAMES`` 4-seat games, and the raw
    results of ``RAW_GAMES`` games (the first ``GAMES`` of them the scored ones)."""
    raw, adj = [], []
    for k in range(RAW_GAMES):
        seed = 5000 + k
        game = _play(4, seed, EPS)
        if k < GAMES:
            r = advantage_adjust(4, "classic", seed, game.history, _policies(4, set(EPS)), EIGHT)
            adj.append(r.adjusted)
        raw.append([1.0 if i in game.winners else 0.0 for i in range(4)])
    return np.array(raw), np.array(adj)


def _z(adjusted: np.ndarray, raw: np.ndarray) -> tuple[float, float]:
    """The difference of the two means and its standard error."""
    se = math.sqrt(adjusted.var(ddof=1) / len(adjusted) + raw.var(ddof=1) / len(raw))
    return float(adjusted.mean() - raw.mean()), se


def test_unbiased_against_raw_means_with_two_departing_seats() -> None:
    raw, adj = _many()
    for seat in range(4):
        diff, se = _z(adj[:, seat], raw[:, seat])
        assert abs(diff) <= 3.5 * se, (seat, diff, se)
        assert se < 0.1  # the check has teeth: a bias of 0.35 or more fails it


def test_the_deal_value_is_computed_once_per_deal_with_the_same_numbers() -> None:
    """Kept per deal (harness.analysis.advantage.deal_value_of): the same numbers as computing
    it afresh from the deal's generator, and a copy each time (a caller's change stays its own)."""
    import random

    from harness.analysis.advantage import _deal_value_cached, deal_value, deal_value_of

    _deal_value_cached.cache_clear()
    v, se, k = deal_value_of(6, "classic", 77, FAST, 9)
    fresh = deal_value(
        Game.new(6, "classic", 77), FAST, random.Random("advantage:9:6:classic:77:deal")
    )
    np.testing.assert_array_equal(v, fresh[0])
    assert (se, k) == (fresh[1], fresh[2])
    v[:] = 5.0
    again = deal_value_of(6, "classic", 77, FAST, 9)
    np.testing.assert_array_equal(again[0], fresh[0])
    assert _deal_value_cached.cache_info().hits == 1
