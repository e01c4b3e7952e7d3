"""Games saved, measured: paired games of a ladder of agents of graded strength, raw and
luck-adjusted (``bangarena bench variance``).

Deal ``k`` seats ``seats[k % len(seats)]`` players in ``mode``; the agent under test sits at seat
``k % seats`` and rule bots play the others.  Every agent of the ladder plays the same deals at the
same seat (paired), and each is a seat of unknown policy: its choices are never corrected.  The
rule bots at the other seats are a known policy (their ties are corrected); ``before`` scores the
same games with them as unknown policy, the estimator of the previous release.  For a pair of
agents the per-deal difference of their scores gives the standard deviation and the number of deals
needed to tell them apart (two-sided 95 % confidence, 80 % power).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, TypeVar

import numpy as np

from harness.agents.rulebot import RuleBot
from harness.engine import Game

from .fitted import FittedValue
from .ladder import AgentKey, EpsilonBot, label
from .luck import Policy, luck_adjust
from .playout import play_out

T = TypeVar("T")

Z_ALPHA = 1.959964  # two-sided 95 %
Z_POWER = 0.841621  # 80 % power
SEATS: tuple[int, ...] = (4, 5, 6, 7, 8)
MODE = "classic"
SEED = 30_000_000


@dataclass(frozen=True, slots=True)
class Scored:
    epsilon: float
    deal: int
    raw: float
    adjusted: float
    before: float  # adjusted with the rule bots as unknown policy


def ladder_game(epsilon: float, deal: int, seed: int = SEED) -> tuple[Game, int, list[Policy]]:
    """Deal ``deal`` played with the ladder agent ``epsilon`` at the seat under test: the
    finished game, that seat, and every seat's policy for the luck adjustment (the agent
    unknown, the rule bots known)."""
    n = SEATS[deal % len(SEATS)]
    s = seed + deal
    game = Game.new(n, MODE, s)
    me = deal % n
    bots: list[RuleBot] = [
        EpsilonBot(f"eps{i}", epsilon) if i == me else RuleBot(f"bot{i}") for i in range(n)
    ]
    for i, b in enumerate(bots):
        b.new_game(f"var-{deal}", i, s)
    play_out(game, bots)
    return game, me, ["unknown" if i == me else "rulebot" for i in range(n)]


def play_deal(epsilon: float, deal: int, samples: int, seed: int = SEED) -> Scored:
    """One deal with the ladder agent ``epsilon`` at the seat under test, scored."""
    game, me, known = ladder_game(epsilon, deal, seed)
    n, s = game.n, seed + deal
    r = luck_adjust(n, MODE, s, game.history, known, _model(), samples, rng_seed=deal)
    old = luck_adjust(n, MODE, s, game.history, ["unknown"] * n, _model(), samples, rng_seed=deal)
    return Scored(epsilon, deal, float(r.raw[me]), float(r.adjusted[me]), float(old.adjusted[me]))


@cache
def _model() -> FittedValue:
    """The shipped value model, loaded once per process."""
    return FittedValue()


def _chunk(job: tuple[Sequence[tuple[float, int]], int]) -> list[Scored]:
    items, samples = job
    return [play_deal(e, d, samples) for e, d in items]


def play_ladder(
    epsilons: Sequence[float],
    deals: int,
    samples: int,
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> list[Scored]:
    items = [(e, d) for d in range(deals) for e in epsilons]
    size = max(1, min(40, len(items) // max(1, 4 * workers)))
    chunks = [(items[i : i + size], samples) for i in range(0, len(items), size)]
    return map_chunks(_chunk, chunks, workers, on_done)


def map_chunks(
    fn: Callable[[Any], list[T]],
    chunks: list[Any],
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> list[T]:
    """``fn`` over ``chunks`` (each a tuple whose first item is its list of work items), here
    or on ``workers`` processes, results in chunk order; ``on_done`` is told how many results
    each finished chunk gave."""
    out: list[T] = []
    if workers <= 1:
        for c in chunks:
            part = fn(c)
            out += part
            if on_done:
                on_done(len(part))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(fn, chunks):
            out += part
            if on_done:
                on_done(len(part))
    return out


def games_needed(sd: float, delta: float) -> float | None:
    """Paired deals to detect a true difference ``delta`` with per-deal difference SD ``sd``."""
    if delta == 0:
        return None
    return ((Z_ALPHA + Z_POWER) * sd / delta) ** 2


def mean_ci(x: np.ndarray) -> dict[str, float]:
    """The mean of ``x`` with its normal 95 % interval, rounded for a bench's JSON."""
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")
    return {"mean": round(m, 4), "lo": round(m - Z_ALPHA * se, 4), "hi": round(m + Z_ALPHA * se, 4)}


class _ByDeal(Protocol):
    @property
    def epsilon(self) -> AgentKey: ...
    @property
    def deal(self) -> int: ...
    @property
    def raw(self) -> float: ...
    @property
    def adjusted(self) -> float: ...


S = TypeVar("S", bound=_ByDeal)


def paired_by_deal(
    scored: Sequence[S], epsilons: Sequence[AgentKey]
) -> tuple[
    dict[AgentKey, dict[int, S]], list[int], dict[AgentKey, np.ndarray], dict[AgentKey, np.ndarray]
]:
    """Scores by agent and deal, the deals every agent played, and per agent the raw and the
    adjusted results on those deals (in deal order, so agents pair deal by deal)."""
    by: dict[AgentKey, dict[int, S]] = {e: {} for e in epsilons}
    for s in scored:
        by[s.epsilon][s.deal] = s
    deals = sorted(set.intersection(*(set(v) for v in by.values())))
    raw = {e: np.array([by[e][d].raw for d in deals]) for e in epsilons}
    adj = {e: np.array([by[e][d].adjusted for d in deals]) for e in epsilons}
    return by, deals, raw, adj


def summarize(scored: Sequence[Scored], epsilons: Sequence[float]) -> dict[str, Any]:
    by, deals, raw, adj = paired_by_deal(scored, epsilons)
    old = {e: np.array([by[e][d].before for d in deals]) for e in epsilons}
    agents = [
        {
            "agent": label(e),
            "epsilon": e,
            "raw": mean_ci(raw[e]),
            "adjusted": mean_ci(adj[e]),
            "sd_raw": round(float(raw[e].std(ddof=1)), 4),
            "sd_adjusted": round(float(adj[e].std(ddof=1)), 4),
        }
        for e in epsilons
    ]
    pairs = []
    steps = list(zip(epsilons, epsilons[1:], strict=False))
    if len(epsilons) > 2 and (epsilons[0], 0.15) not in steps and 0.15 in epsilons:
        steps.insert(0, (epsilons[0], 0.15))
    for a, b in steps:
        d_raw, d_adj = raw[a] - raw[b], adj[a] - adj[b]
        sd_r, sd_a = float(d_raw.std(ddof=1)), float(d_adj.std(ddof=1))
        sd_b = float((old[a] - old[b]).std(ddof=1))
        delta = float(d_adj.mean())
        n_raw, n_adj = games_needed(sd_r, delta), games_needed(sd_a, delta)
        ci = mean_ci(d_adj)
        pairs.append(
            {
                "pair": f"{label(a)} vs {label(b)}",
                "raw_diff": mean_ci(d_raw),
                "adjusted_diff": ci,
                "sd_raw": round(sd_r, 4),
                "sd_adjusted": round(sd_a, 4),
                "games_raw": None if n_raw is None else math.ceil(n_raw),
                "games_adjusted": None if n_adj is None else math.ceil(n_adj),
                "factor": round(sd_r**2 / sd_a**2, 2) if sd_a > 0 else None,
                "sd_before": round(sd_b, 4),
                "factor_before": round(sd_r**2 / sd_b**2, 2) if sd_b > 0 else None,
                "ordered": delta > 0,
                "significant": ci["lo"] > 0,
            }
        )
    return {"deals": len(deals), "agents": agents, "pairs": pairs}
