"""Intervals clustered by deal hold their 95 % (docs/statistics.md).

A pool of real paired games — the rule bot against a random player at 4 seats, every deal played
in both of its distinct seatings — stands for the population: its rule bot's role-adjusted score
and win rate are the truth.  A simulated league draws whole deals from the pool with replacement;
its 95 % intervals, computed as the league report computes them, should cover the truth 95 % of
the time.  Two schedules: the distinct seatings, and a run that holds each seating twice (the
schedules of earlier releases replayed identical games), where the games of a deal are as
correlated as games can be.  Clustered by deal, the intervals cover 93–97 % in both; clustered
by game, they cover measurably less with the copies.

The coverage runs over thousands of leagues, so it is computed in numpy; the first test checks
that those numbers are the league report's own (``role_adjusted``, ``clustered_wilson``) on
sampled leagues, with the deal clusters and with each game its own cluster.
"""

from __future__ import annotations

import asyncio
import zlib
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd
import pytest

from harness.agents.table import play_game
from harness.engine import Game
from harness.league.stats_basic import t_quantile
from harness.play.game_spec import GameSpec
from harness.play.seats import non_model_agent
from harness.records.deals import deal_key
from harness.runs.stats import clustered_wilson, role_adjusted

SEATS, MODE = 4, "classic"
PLAYERS = ("rulebot", "random")
KINDS = {"rulebot": "bot", "random": "random"}
POOL_DEALS = 200  # 400 games
LEAGUE_DEALS = 30
LEAGUES = 2000
ROLES = ("marshal", "raider", "loner")


def _seatings() -> list[tuple[str, ...]]:
    """The distinct seatings of the two players at the table (rotations that repeat a seating
    skipped): ``(rulebot, random, rulebot, random)`` and the other way round."""
    base = [PLAYERS[i % len(PLAYERS)] for i in range(SEATS)]
    out: list[tuple[str, ...]] = []
    for r in range(SEATS):
        lineup = tuple(base[(i - r) % SEATS] for i in range(SEATS))
        if lineup not in out:
            out.append(lineup)
    return out


@cache
def pool() -> pd.DataFrame:
    """Every seat of the pool's games: ``deal``, ``game`` (its seating), ``player``, ``role``,
    ``won``; seats played by the league's own agents (``non_model_agent``)."""
    rows = []
    for d in range(POOL_DEALS):
        seed = zlib.crc32(f"coverage:{SEATS}:{MODE}:{d}".encode())
        for g, lineup in enumerate(_seatings()):
            spec = GameSpec(f"d{d}-{g}", SEATS, MODE, seed, d, g, lineup, lineup)
            game = Game.new(SEATS, MODE, seed)
            agents = [non_model_agent(KINDS[p], p, i, spec) for i, p in enumerate(lineup)]
            asyncio.run(play_game(game, agents, game_id=spec.game_id))
            for i, s in enumerate(game.seats):
                rows.append({"deal": d, "game": g, "seat": i, "player": lineup[i],
                             "role": s.role, "won": i in game.winners})  # fmt: skip
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Design:
    """The pool's per-deal (or per-game) sums for the rule bot, as arrays: wins ``a``, seats
    ``n``, seats per role ``nr``; and the wins ``W`` and seats ``N`` per role of every seat."""

    a: np.ndarray  # (units,)
    n: np.ndarray
    nr: np.ndarray  # (units, roles)
    W: np.ndarray
    N: np.ndarray
    deal: np.ndarray  # the deal of each unit


def _design(seats: pd.DataFrame, unit: list[str]) -> Design:
    mine = seats["player"] == "rulebot"
    groups = seats.groupby(unit if len(unit) > 1 else unit[0], sort=True)
    keys = list(groups.groups)
    role = {r: i for i, r in enumerate(ROLES)}
    a, n = np.zeros(len(keys)), np.zeros(len(keys))
    nr, W, N = (np.zeros((len(keys), len(ROLES))) for _ in range(3))
    deal = np.zeros(len(keys), dtype=int)
    for k, (key, part) in enumerate(groups):
        deal[k] = key[0] if isinstance(key, tuple) else key
        for r, won, me in zip(part["role"], part["won"], mine[part.index], strict=True):
            N[k, role[r]] += 1
            W[k, role[r]] += won
            if me:
                a[k] += won
                n[k] += 1
                nr[k, role[r]] += 1
    return Design(a, n, nr, W, N, deal)


def _with_copies(seats: pd.DataFrame) -> pd.DataFrame:
    """Each game played twice (a run of the earlier schedule: each seating's copy)."""
    copy = seats.assign(game=seats["game"] + len(_seatings()))
    return pd.concat([seats, copy], ignore_index=True)


def truth(seats: pd.DataFrame) -> tuple[float, float]:
    """The pool's rule-bot role-adjusted score and win rate."""
    d = _design(seats, ["deal"])
    base = d.W.sum(0) / d.N.sum(0)
    n = d.n.sum()
    return float((d.a.sum() - base @ d.nr.sum(0)) / n), float(d.a.sum() / n)


def intervals(
    seats: pd.DataFrame, draws: np.ndarray, by_deal: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For leagues of the deals ``draws`` (leagues × deals, indices into the pool's deals): the
    rule bot's role-adjusted 95 % interval (lo, hi) and its win rate's Wilson interval, each
    clustered by deal (``by_deal``) or by game, as ``role_adjusted`` and ``clustered_wilson``
    compute them."""
    unit = _design(seats, ["deal"] if by_deal else ["deal", "game"])
    deals = _design(seats, ["deal"])
    counts = np.zeros((len(draws), POOL_DEALS))
    for row, drawn in enumerate(draws):
        np.add.at(counts[row], drawn, 1)
    c = counts[:, unit.deal]  # each unit weighted by its deal's draws
    base = (counts @ deals.W) / (counts @ deals.N)  # leagues × roles
    n = c @ unit.n
    score = (c @ unit.a - np.einsum("lr,lr->l", base, c @ unit.nr)) / n
    resid = unit.a[None, :] - base @ unit.nr.T - score[:, None] * unit.n[None, :]
    g = draws.shape[1] * (1 if by_deal else len(unit.a) // POOL_DEALS)  # clusters per league
    t = t_quantile(0.975, g - 1)
    se = np.sqrt(g / (g - 1) * (c * resid**2).sum(1) / n**2)
    p = (c @ unit.a) / n
    spread = (c * (unit.a[None, :] - p[:, None] * unit.n[None, :]) ** 2).sum(1)
    m = n / (g / (g - 1) * spread / (n * p * (1 - p)))  # the effective sample size
    centre = (p + t * t / (2 * m)) / (1 + t * t / m)
    half = t * np.sqrt(p * (1 - p) / m + t * t / (4 * m * m)) / (1 + t * t / m)
    return score - t * se, score + t * se, centre - half, centre + half


def _league_seats(seats: pd.DataFrame, drawn: np.ndarray) -> pd.DataFrame:
    """The seats frame of one simulated league, as ``load_run`` gives it: each draw a deal of
    its own (``deal_key``), each game its own ``game_id``."""
    parts = []
    for k, d in enumerate(drawn):
        part = seats[seats["deal"] == d]
        parts.append(part.assign(game_id=[f"{k}-{g}" for g in part["game"]],
                                 deal_key=deal_key(SEATS, MODE, k)))  # fmt: skip
    return pd.concat(parts, ignore_index=True).assign(seats=SEATS, mode=MODE)


def _draws(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, POOL_DEALS, size=(LEAGUES, LEAGUE_DEALS))


def coverage(seats: pd.DataFrame, by_deal: bool, seed: int) -> tuple[float, float]:
    """Share of the leagues whose role-adjusted and win-rate intervals cover the truth."""
    score, rate = truth(seats)
    lo, hi, wlo, whi = intervals(seats, _draws(seed), by_deal)
    return float(np.mean((lo <= score) & (score <= hi))), float(
        np.mean((wlo <= rate) & (rate <= whi))
    )


@pytest.mark.parametrize("copies", [False, True])
def test_the_vectorised_intervals_are_the_league_reports(copies: bool) -> None:
    seats = _with_copies(pool()) if copies else pool()
    draws = _draws(1)[:3]
    for by_deal in (True, False):
        lo, hi, wlo, whi = intervals(seats, draws, by_deal)
        for k, drawn in enumerate(draws):
            league = _league_seats(seats, drawn)
            if not by_deal:
                league = league.drop(columns="deal_key")  # each game its own cluster
            row = role_adjusted(league).set_index("player").loc["rulebot"]
            assert (row["ci_lo"], row["ci_hi"]) == pytest.approx((lo[k], hi[k]), abs=1e-9)
            mine = league[league["player"] == "rulebot"]
            clusters = mine["deal_key"] if by_deal else mine["game_id"]
            bounds = clustered_wilson(mine["won"], clusters)
            assert bounds == pytest.approx((wlo[k], whi[k]), abs=1e-9)


def test_deal_clustered_intervals_cover_the_truth_95_percent_of_the_time() -> None:
    adjusted, raw = coverage(pool(), by_deal=True, seed=2)
    assert 0.93 <= adjusted <= 0.97
    assert 0.93 <= raw <= 0.97


def test_with_copies_only_the_deal_clustered_intervals_keep_their_95_percent() -> None:
    seats = _with_copies(pool())
    adjusted, raw = coverage(seats, by_deal=True, seed=3)
    assert 0.93 <= adjusted <= 0.97 and 0.93 <= raw <= 0.97
    old_adjusted, old_raw = coverage(seats, by_deal=False, seed=3)
    assert old_adjusted < 0.90 and old_raw < 0.90  # the copies counted as independent games


if __name__ == "__main__":  # the figures of docs/statistics.md
    designs = (("distinct seatings", pool(), 2), ("each seating twice", _with_copies(pool()), 3))
    for name, frame, seed in designs:
        for by_deal in (True, False):
            adj, raw = coverage(frame, by_deal, seed)
            unit = "deal" if by_deal else "game"
            print(f"{name}, clustered by {unit}: role-adjusted {adj:.3f}, win rate {raw:.3f}")
        dlo, dhi, dwlo, dwhi = intervals(frame, _draws(seed), True)
        glo, ghi, gwlo, gwhi = intervals(frame, _draws(seed), False)
        print(f"{name}: deal/game interval width, median over leagues: role-adjusted "
              f"{np.median((dhi - dlo) / (ghi - glo)):.2f}, "
              f"win rate {np.median((dwhi - dwlo) / (gwhi - gwlo)):.2f}")  # fmt: skip
    score, rate = truth(pool())
    print(f"truth: role-adjusted {score:+.4f}, win rate {rate:.4f}")
