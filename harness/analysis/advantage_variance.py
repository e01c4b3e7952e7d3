"""Games saved by the advantage-adjusted score, measured on paired deals
(``bangarena bench variance --advantage``).

Deal ``k`` seats ``seats[k % len(seats)]`` players in ``mode``; the agent under test sits at seat
``k % n`` and rule bots play the others.  The rule bot (ε = 0) and each ε-agent of the pairs play
the same deals at the same seat (so do the model agents of :data:`.ladder.MODEL_AGENTS`: a
model seat answered by the test server); every game is scored raw (the win indicator) and by
reference-policy advantage (:mod:`.advantage`), the agent's seat of unknown policy.  ``V(deal)``
is drawn from generators seeded by the deal only, so the two agents of a deal share it exactly.
For each pair the factor is Var(raw difference) / Var(adjusted difference) over the deals: how
many times fewer paired deals the adjusted score needs for the same precision, with a
percentile bootstrap interval over the deals.  The play-out noise of the advantages (the mean
over the deals of Σ se² of the agent's departures, unbiased for the variance it adds) is reported
beside it, and so is the factor the same deals would give with exact advantages
(Var(raw) / (Var(adjusted) − noise)): the most that more play-outs per departure could reach.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from harness.agents.rulebot import RuleBot
from harness.engine import Game

from .advantage import PlayoutRule, SeatPolicy, advantage_adjust
from .ladder import AgentKey, label, make_agent
from .playout import play_out
from .variance import SEED, games_needed, map_chunks, mean_ci, paired_by_deal

BOOTSTRAP = 2000


@dataclass(frozen=True, slots=True)
class AdvScored:
    epsilon: AgentKey  # an ε, or a model agent (ladder.MODEL_AGENTS)
    deal: int
    raw: float
    adjusted: float
    departures: int
    playouts: int
    cpu: float = 0.0  # CPU seconds of the scoring (V(deal) is paid by the deal's first agent)
    noise: float = 0.0  # Σ over the departures of the seat's squared standard error


def deal_game(
    epsilon: AgentKey, deal: int, seats: Sequence[int], mode: str, seed: int = SEED
) -> tuple[Game, int]:
    """Deal ``deal`` played by the agent ``epsilon`` at the seat under test and rule bots."""
    n = seats[deal % len(seats)]
    s = seed + deal
    game = Game.new(n, mode, s)
    me = deal % n
    bots: list[RuleBot] = [
        make_agent(epsilon, f"eps{i}") if i == me else RuleBot(f"bot{i}") for i in range(n)
    ]
    for i, b in enumerate(bots):
        b.new_game(f"var-{deal}", i, s)
    play_out(game, bots)
    return game, me


def score_deal(
    epsilon: AgentKey, deal: int, seats: Sequence[int], mode: str, rule: PlayoutRule
) -> AdvScored:
    t0 = time.process_time()
    game, me = deal_game(epsilon, deal, seats, mode)
    policies: list[SeatPolicy] = ["unknown" if i == me else "rulebot" for i in range(game.n)]
    r = advantage_adjust(game.n, mode, game.seed, game.history, policies, rule, rng_seed=deal)
    return AdvScored(
        epsilon, deal, float(r.raw[me]), float(r.adjusted[me]), len(r.departures), r.playouts,
        time.process_time() - t0,
        sum(d.seat_se[me] ** 2 for d in r.departures),
    )  # fmt: skip


def _chunk(
    job: tuple[list[tuple[AgentKey, int]], tuple[int, ...], str, PlayoutRule],
) -> list[AdvScored]:
    items, seats, mode, rule = job
    return [score_deal(e, d, seats, mode, rule) for e, d in items]


def play_pairs(
    epsilons: Sequence[AgentKey],
    deals: int,
    seats: Sequence[int],
    mode: str,
    rule: PlayoutRule,
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> list[AdvScored]:
    """Every agent of ``epsilons`` on deals ``0 .. deals-1``, scored (``workers`` processes).
    A chunk holds whole deals (every agent of each), so a deal's ``V(deal)`` is computed once."""
    per = max(1, min(max(1, 8 // len(epsilons)), deals // max(1, 4 * workers)))
    chunks = [
        (
            [(e, d) for d in range(i, min(deals, i + per)) for e in epsilons],
            tuple(seats),
            mode,
            rule,
        )
        for i in range(0, deals, per)
    ]
    return map_chunks(_chunk, chunks, workers, on_done)


def _needed(sd: float, delta: float) -> int | None:
    n = games_needed(sd, delta)
    return None if n is None else math.ceil(n)


def _factor_interval(d_raw: np.ndarray, d_adj: np.ndarray, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap (over the deals) 95 % interval of Var(raw) / Var(adjusted)."""
    rng = np.random.default_rng(seed)
    n = len(d_raw)
    out = []
    for _ in range(BOOTSTRAP):
        i = rng.integers(0, n, n)
        va = d_adj[i].var(ddof=1)
        if va > 0:
            out.append(d_raw[i].var(ddof=1) / va)
    if not out:
        return math.nan, math.nan
    lo, hi = np.percentile(out, [2.5, 97.5])
    return round(float(lo), 2), round(float(hi), 2)


def summarize(scored: Sequence[AdvScored], epsilons: Sequence[AgentKey]) -> dict[str, Any]:
    """Per agent the raw and adjusted means; per pair (the rule bot against each other agent)
    the SDs of the per-deal differences, the factor with its bootstrap interval and the deals
    needed to detect the difference (95 % confidence, 80 % power)."""
    by, deals, raw, adj = paired_by_deal(scored, epsilons)
    agents = [
        {
            "agent": label(e),
            "epsilon": e,
            "raw": mean_ci(raw[e]),
            "adjusted": mean_ci(adj[e]),
            "departures_per_game": round(float(np.mean([by[e][d].departures for d in deals])), 2),
            "playouts_per_game": round(float(np.mean([by[e][d].playouts for d in deals])), 1),
            "cpu_seconds_per_game": round(float(np.mean([by[e][d].cpu for d in deals])), 2),
        }
        for e in epsilons
    ]
    ref = epsilons[0]
    pairs = []
    for e in epsilons[1:]:
        d_raw, d_adj = raw[ref] - raw[e], adj[ref] - adj[e]
        sd_r, sd_a = float(d_raw.std(ddof=1)), float(d_adj.std(ddof=1))
        delta = float(d_adj.mean())
        lo, hi = _factor_interval(d_raw, d_adj)
        # the play-out noise of the two sides' advantages (unbiased for its variance): what
        # more play-outs per departure could remove at most
        noise = float(np.mean([by[ref][d].noise + by[e][d].noise for d in deals]))
        exact = sd_a**2 - noise
        pairs.append(
            {
                "pair": f"{label(ref)} vs {label(e)}",
                "epsilon": e,
                "raw_diff": mean_ci(d_raw),
                "adjusted_diff": mean_ci(d_adj),
                "sd_raw": round(sd_r, 4),
                "sd_adjusted": round(sd_a, 4),
                "factor": round(sd_r**2 / sd_a**2, 2) if sd_a > 0 else None,
                "factor_lo": lo,
                "factor_hi": hi,
                "sd_playout_noise": round(math.sqrt(noise), 4),
                "factor_exact_advantages": round(sd_r**2 / exact, 2) if exact > 0 else None,
                "games_raw": _needed(sd_r, delta),
                "games_adjusted": _needed(sd_a, delta),
                "ordered": delta > 0,
            }
        )
    return {"deals": len(deals), "agents": agents, "pairs": pairs}
