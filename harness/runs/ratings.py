"""Team-aware skill ratings (openskill Plackett-Luce) from a run's seat outcomes.

Each game is one team match, rated in ``game_id`` order:

* the seats that won (``won`` true — the whole winning side, dead or alive) form one team, ranked
  first;
* every other seat is grouped by its team (law, raiders; a loner plays alone, so each loner is a
  team of one, except in ``partners`` mode where the loners are partners) and all those teams
  share the second rank (the game says who won, not who came second).

**Players at several seats.**  With fewer players than seats, one player sits at several seats of a
game, sometimes on opposite sides.  Every seat is rated as its own instance that starts from the
player's rating before the game; after the match the player's new ``mu`` and ``sigma`` are the
means of its seat-instances' updated values (equivalently: the old rating plus the mean update).
So a game moves a player once, however many seats it held, and a player on both the winning and
a losing side gets roughly cancelling updates — the game says little about it.  Within a team the
instances of one player are treated as independent team-mates by the Plackett-Luce team model.

**Reading the numbers.**  Plackett-Luce gives every member of a team about the same update
whatever the team's size, and a team's strength is the sum of its members' ``mu``, so teams of
unequal size (one marshal against three raiders) are not zero-sum: with more losing than winning
seats in most games, every player's ``mu`` drifts down over a run, and a lone loner tied with a
larger losing team may gain a little.  Schedules rotate roles over players, so the drift is
shared; compare ratings only between players of the same run, and use the role-adjusted score
for role-fair comparisons.

**Intervals.**  A bootstrap resamples whole deals with replacement (``B`` times, seeded; every game
of a drawn deal comes along, since a paired league's games of one deal are not independent —
docs/statistics.md), replays the resample in ``game_id`` order and takes the 2.5 and 97.5
percentiles of each player's final ``mu`` and ordinal (``mu - 3·sigma``); with fewer than two
deals there is no interval (NaN).  Sequential ratings depend on order and on the number of
games, so the interval shows the spread of the rating procedure over plausible sets of games; it
is not a sampling distribution of a fixed parameter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .stats import deals

__all__ = ["RatedGame", "compute_ratings", "prepare_games", "rate_games"]

DEFAULT_BOOTSTRAP = 200
DEFAULT_SEED = 20240601
ORDINAL_Z = 3.0


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game as a team match: ``players[i]`` sat at instance ``i``; ``teams`` lists instance
    indices per team, winners first; ``ranks`` (1 = winners) goes with ``teams``."""

    game_id: str
    players: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


def _team_key(team: str, mode: str, seat: int) -> str:
    if team == "loners" and mode != "partners":
        return f"loner:{seat}"
    return team


def prepare_games(seats: pd.DataFrame) -> list[RatedGame]:
    """Turn a seats DataFrame (see :func:`harness.runs.stats.load_run`) into team matches, in
    ``game_id`` order.  Games without both a winner and a loser are skipped (nothing to rate)."""
    out: list[RatedGame] = []
    cols = ["game_id", "mode", "seat", "player", "team", "won"]
    for game_id, part in seats[cols].sort_values(["game_id", "seat"]).groupby("game_id", sort=True):
        players = tuple(str(p) for p in part["player"])
        winners: list[int] = []
        losers: dict[str, list[int]] = {}
        rows = zip(part["mode"], part["seat"], part["team"], part["won"], strict=True)
        for i, (mode, seat, team, won) in enumerate(rows):
            if bool(won):
                winners.append(i)
            else:
                losers.setdefault(_team_key(str(team), str(mode), int(seat)), []).append(i)
        if not winners or not losers:
            continue
        teams = (tuple(winners), *(tuple(v) for v in losers.values()))
        out.append(RatedGame(str(game_id), players, teams, (1,) + (2,) * len(losers)))
    return out


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


# openskill's PlackettLuce defaults (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300, no
# sigma limit, no balance, no weights): :func:`_rate_match` is its ``rate`` for these defaults,
# operation for operation, so the numbers are the same to the last bit (tested).
_MU0 = 25.0
_SIGMA0 = 25.0 / 3.0
_BETA_SQUARED = (25.0 / 6.0) ** 2
_KAPPA = 0.0001
_TAU_SQUARED = (25.0 / 300.0) * (25.0 / 300.0)


def _is_default(model: Any) -> bool:
    return (
        type(model).__name__ == "PlackettLuce"
        and (model.mu, model.sigma, model.beta, model.kappa, model.tau, model.margin)
        == (_MU0, _SIGMA0, 25.0 / 6.0, _KAPPA, 25.0 / 300.0, 0.0)
        and not model.limit_sigma
        and not model.balance
        and model.gamma.__name__ == "_gamma"
    )


def _rate_match(
    teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """New ``(mu, sigma)`` of every player of ``teams`` (ranked by ``ranks``, non-decreasing:
    winners first) — openskill's ``PlackettLuce().rate(teams, ranks=ranks)``."""
    sqrt, exp = math.sqrt, math.exp
    players = [[(mu, sqrt(sigma * sigma + _TAU_SQUARED)) for mu, sigma in team] for team in teams]
    team_mu: list[float] = []
    team_ss: list[float] = []
    for team in players:  # team sums over the players by ordinal, best first (openskill's order)
        mu_summed = 0.0
        ss_summed = 0.0
        for mu, sigma in sorted(team, key=lambda p: p[0] - 3.0 * p[1], reverse=True):
            mu_summed += mu * 1.0
            ss_summed += (sigma * 1.0) ** 2
        team_mu.append(mu_summed)
        team_ss.append(ss_summed)
    k = len(players)
    collective = 0.0
    for ss in team_ss:
        collective += ss + _BETA_SQUARED
    c = sqrt(collective)
    sum_q = [0.0] * k
    started = [False] * k
    for i in range(k):
        summed = exp(team_mu[i] / c)
        for q in range(k):
            if ranks[i] >= ranks[q]:
                sum_q[q] = sum_q[q] + summed if started[q] else summed
                started[q] = True
    a = [sum(1 for r in ranks if r == ranks[i]) for i in range(k)]
    out = []
    for i in range(k):
        omega = 0.0
        delta = 0.0
        i_mu_over_c = exp(team_mu[i] / c)
        for q in range(k):
            x = i_mu_over_c / sum_q[q]
            if ranks[q] <= ranks[i]:
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        ss_i = team_ss[i]
        omega *= ss_i / c
        delta *= ss_i / c**2
        delta *= sqrt(ss_i) / c
        rated = []
        for mu, sigma in players[i]:
            share = sigma**2 / ss_i
            if omega >= 0:
                mu += share * omega * 1.0
                sigma *= sqrt(max(1 - share * delta * 1.0, _KAPPA))
            else:
                mu += share * omega / 1.0
                sigma *= sqrt(max(1 - share * delta / 1.0, _KAPPA))
            rated.append((mu, sigma))
        out.append(rated)
    return out


def rate_games(
    games: Sequence[RatedGame], model: Any = None
) -> dict[str, tuple[float, float, int]]:
    """Rate ``games`` in the given order; return ``player -> (mu, sigma, games rated)``.

    With openskill's default ``PlackettLuce`` (or no ``model``) the match updates are computed by
    :func:`_rate_match`, without openskill's rating objects; any other model is asked itself."""
    m = model if model is not None else _model()
    fast = _is_default(m)
    default = m.rating()
    mu0, sigma0 = float(default.mu), float(default.sigma)
    state: dict[str, tuple[float, float, int]] = {}
    for g in games:
        if fast and all(a <= b for a, b in zip(g.ranks, g.ranks[1:], strict=False)):
            inst = [state.get(p, (mu0, sigma0, 0))[:2] for p in g.players]
            new: Any = _rate_match([[inst[i] for i in team] for team in g.teams], g.ranks)
        else:
            objs = []
            for p in g.players:
                mu, sigma, _ = state.get(p, (mu0, sigma0, 0))
                objs.append(m.rating(mu=mu, sigma=sigma))
            rated_objs = m.rate([[objs[i] for i in team] for team in g.teams], ranks=list(g.ranks))
            new = [[(float(r.mu), float(r.sigma)) for r in team] for team in rated_objs]
        acc: dict[str, list[tuple[float, float]]] = {}
        for team, rated in zip(g.teams, new, strict=True):
            for i, r in zip(team, rated, strict=True):
                acc.setdefault(g.players[i], []).append(r)
        for p, values in acc.items():
            n = state.get(p, (mu0, sigma0, 0))[2]
            state[p] = (
                sum(v[0] for v in values) / len(values),
                sum(v[1] for v in values) / len(values),
                n + 1,
            )
    return state


def compute_ratings(
    seats: pd.DataFrame,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> pd.DataFrame:
    """Ratings per player with bootstrap 95 % intervals (see the module docstring).

    Columns: ``player``, ``games`` (games rated), ``mu``, ``sigma``, ``ordinal`` (``mu - 3·sigma``),
    ``mu_lo``, ``mu_hi``, ``ordinal_lo``, ``ordinal_hi`` (NaN when ``bootstrap`` is 0 or the
    games are of one deal).  Sorted by ordinal, best first.
    """
    columns = ["player", "games", "mu", "sigma", "ordinal", "mu_lo", "mu_hi", "ordinal_lo",
               "ordinal_hi"]  # fmt: skip
    games = prepare_games(seats)
    if not games:
        return pd.DataFrame(columns=columns)
    model = _model()
    point = rate_games(games, model)
    players = sorted(point)
    # the games (indices into ``games``, in game order) of each deal
    deal_of = dict(zip(seats["game_id"].astype(str), deals(seats).astype(str), strict=True))
    by_deal: dict[str, list[int]] = {}
    for i, g in enumerate(games):
        by_deal.setdefault(deal_of[g.game_id], []).append(i)
    groups = list(by_deal.values())
    if len(groups) < 2:
        bootstrap = 0
    mus = np.full((bootstrap, len(players)), np.nan)
    ords = np.full((bootstrap, len(players)), np.nan)
    rng = np.random.default_rng(seed)
    for b in range(bootstrap):
        drawn = rng.integers(0, len(groups), size=len(groups))
        idx = sorted(i for d in drawn for i in groups[d])
        res = rate_games([games[i] for i in idx], model)
        for j, p in enumerate(players):
            if p in res:
                mu, sigma, _ = res[p]
                mus[b, j] = mu
                ords[b, j] = mu - ORDINAL_Z * sigma
    rows = []
    for j, p in enumerate(players):
        mu, sigma, k = point[p]
        row = {"player": p, "games": k, "mu": mu, "sigma": sigma, "ordinal": mu - ORDINAL_Z * sigma}
        for name, arr in (("mu", mus[:, j]), ("ordinal", ords[:, j])):
            ok = arr[~np.isnan(arr)]
            lo, hi = np.percentile(ok, [2.5, 97.5]) if len(ok) else (np.nan, np.nan)
            row[f"{name}_lo"], row[f"{name}_hi"] = float(lo), float(hi)
        rows.append(row)
    out = pd.DataFrame(rows, columns=columns)
    return out.sort_values(["ordinal", "player"], ascending=[False, True]).reset_index(drop=True)
