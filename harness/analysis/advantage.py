"""Luck-adjusted scores by reference-policy advantage (docs/analysis.md, "Advantage-adjusted
scores").

The reference policy is the rule bot at every seat.  ``V(s)`` is the expected result (the win
indicator of every seat) when every seat plays as the rule bot from the true state ``s`` — the
rule bots holding the picture of the table the game's bots would hold (each seat's suspicion
model fed the whole event feed so far, :func:`~.playout.fed_suspicions`) — with the unknown
future re-drawn (:func:`harness.engine.chance.resample_future`: the order of the deck cards no
seat knows, reshuffles, coins).  ``Q(s, a)`` is the same after option ``a``.

A finished game is replayed through the engine.  At every decision with more than one option a
rule bot that was shown every view of the deciding seat (its shadow) says what the reference
would choose: its exact ties.  A choice among the ties is the reference's play (advantage zero).
Any other choice is a **departure**; its advantage, a vector over the seats,

    A = Q(s, chosen) − mean over the ties t of Q(s, t)

is estimated by ``R`` paired play-outs: play-out ``j`` re-draws one future and plays both the
chosen option and a tie (drawn uniformly) on that same future with the same bots' seeds (common
random numbers), so the luck both share cancels from the difference.  The adjusted score of a
seat is ``V(deal) + Σ A`` over the departures of every seat; by the performance-difference
identity its expectation is the seat's expected result (the argument is in the docs).

A seat recorded as a rule bot (``"rulebot"``) must choose among its shadow's ties: otherwise the
table's bot is not the bot of the play-outs and the estimate would be biased, so
:class:`BotMismatch` is raised.

``R`` follows :class:`PlayoutRule`: start with ``start`` paired play-outs and double while the
standard error of the advantage (the largest over the seats) is above ``bound``, up to ``cap``
(``bound = 0``: always ``start``).  The rule reads only the spread of the paired differences,
never their mean.  ``V(deal)`` follows the same rule on single play-outs; it depends on the deal
alone (its generator is seeded by the deal, not by who played it), so it is computed once per
deal and process (:func:`deal_value_of`, kept for the last :data:`DEAL_CACHE` deals): the games of
one deal at other seatings or with other agents reuse it, with the same numbers.

Nothing here is shown to a seat: the advantage is computed offline from a finished game's full
record (every hand and the real deck), after the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

from harness.agents.rulebot import RuleBot, Suspicion
from harness.engine import Action, Game, build_view, parse_action
from harness.engine.chance import clone, resample_future

from .luck import recorded_action
from .playout import cycle_collector_paused, fed_suspicions, new_bots, play_out
from .value_model import result_values

SeatPolicy = Literal["rulebot", "unknown"]

DEFAULT_START = 8
DEFAULT_BOUND = 0.05
DEFAULT_CAP = 64
DEAL_CACHE = 256  # deals whose V(deal) a process keeps


@dataclass(frozen=True)
class PlayoutRule:
    """How many paired play-outs a departure gets: ``start``, doubled while the advantage's
    standard error is above ``bound`` (0: never), at most ``cap``."""

    start: int = DEFAULT_START
    bound: float = DEFAULT_BOUND
    cap: int = DEFAULT_CAP

    def __post_init__(self) -> None:
        if self.start < 2:
            raise ValueError("play-outs must start at 2 or more (a standard error needs two)")
        if self.cap < self.start:
            raise ValueError(f"the play-out cap {self.cap} is below the start {self.start}")
        if self.bound < 0:
            raise ValueError("the standard-error bound must be 0 or more")

    def key(self) -> str:
        return f"{self.start}:{self.bound:g}:{self.cap}"


class BotMismatch(ValueError):
    """A seat recorded as the rule bot chose an option the rule bot would not choose: the
    play-out bots are not the table's bots."""


@dataclass(frozen=True)
class Departure:
    """One decision where a seat did not play as the reference policy."""

    decision: int  # 0-based index into the game's decisions
    seat: int
    chosen: str
    reference: tuple[str, ...]  # the rule bot's exact ties
    advantage: np.ndarray  # per seat: Q(chosen) − Q(reference)
    se: float  # the largest standard error over the seats
    playouts: int  # paired play-outs
    seat_se: tuple[float, ...] = ()  # the standard error per seat


@dataclass(frozen=True)
class AdvantageResult:
    raw: np.ndarray  # win indicator per seat
    deal_value: np.ndarray  # V(deal) per seat
    deal_se: float
    deal_playouts: int
    departures: tuple[Departure, ...] = field(default_factory=tuple)
    decisions: int = 0  # decisions with more than one option

    @property
    def adjusted(self) -> np.ndarray:
        total = self.deal_value.copy()
        for d in self.departures:
            total += d.advantage
        return total

    @property
    def playouts(self) -> int:
        """Games played out: the deal's plus two per paired play-out."""
        return self.deal_playouts + 2 * sum(d.playouts for d in self.departures)


def _se(rows: list[np.ndarray]) -> float:
    a = np.asarray(rows)
    if len(a) < 2:
        return math.inf
    return float(a.std(axis=0, ddof=1).max() / math.sqrt(len(a)))


def _seat_se(rows: list[np.ndarray]) -> tuple[float, ...]:
    a = np.asarray(rows)
    return tuple(float(v) for v in a.std(axis=0, ddof=1) / math.sqrt(len(a)))


def _play(
    before: Game, option: Action | None, future: int, bots_seed: int, fed: list[Suspicion]
) -> np.ndarray:
    g = clone(before)
    resample_future(g, random.Random(future))
    seen = [len(g.events)] * g.n
    bots = new_bots(g, bots_seed, fed=fed)
    if option is not None:
        g.apply(option)
    play_out(g, bots, seen=seen)
    return result_values(g)


def deal_value(game: Game, rule: PlayoutRule, rng: random.Random) -> tuple[np.ndarray, float, int]:
    """``V`` of ``game``'s state (not played yet, or any state): mean, standard error and
    play-outs, following ``rule``."""
    fed = fed_suspicions(game)
    rows: list[np.ndarray] = []
    target = rule.start
    with cycle_collector_paused():
        while True:
            while len(rows) < target:
                rows.append(_play(game, None, rng.getrandbits(64), rng.getrandbits(32), fed))
            se = _se(rows)
            if se <= rule.bound or target >= rule.cap:
                break
            target = min(rule.cap, 2 * target)
    return np.mean(rows, axis=0), se, len(rows)


def deal_value_of(
    seats: int, mode: str, seed: int, rule: PlayoutRule, rng_seed: int
) -> tuple[np.ndarray, float, int]:
    """:func:`deal_value` of the deal ``(seats, mode, seed)`` before any decision, from the
    generator that :func:`advantage_adjust` seeds for it; kept per deal (a copy is returned)."""
    v, se, k = _deal_value_cached(seats, mode, seed, rule, rng_seed)
    return v.copy(), se, k


@lru_cache(maxsize=DEAL_CACHE)
def _deal_value_cached(
    seats: int, mode: str, seed: int, rule: PlayoutRule, rng_seed: int
) -> tuple[np.ndarray, float, int]:
    base = _base(seats, mode, seed, rng_seed)
    return deal_value(Game.new(seats, mode, seed), rule, random.Random(f"{base}:deal"))


def _base(seats: int, mode: str, seed: int, rng_seed: int) -> str:
    return f"advantage:{rng_seed}:{seats}:{mode}:{seed}"


def advantage(
    before: Game, chosen: Action, reference: Sequence[Action], rule: PlayoutRule, rng: random.Random
) -> tuple[np.ndarray, float, int, tuple[float, ...]]:
    """``Q(chosen) − mean Q(reference)`` at ``before`` (a state whose pending decision has both
    among its options) by paired play-outs: mean, standard error (the largest over the seats),
    pairs and the standard error per seat."""
    fed = fed_suspicions(before)
    rows: list[np.ndarray] = []
    target = rule.start
    with cycle_collector_paused():
        while True:
            while len(rows) < target:
                future, seed = rng.getrandbits(64), rng.getrandbits(32)
                ref = (
                    reference[rng.randrange(len(reference))] if len(reference) > 1 else reference[0]
                )
                a = _play(before, chosen, future, seed, fed)
                b = _play(before, ref, future, seed, fed)
                rows.append(a - b)
            se = _se(rows)
            if se <= rule.bound or target >= rule.cap:
                break
            target = min(rule.cap, 2 * target)
    return np.mean(rows, axis=0), se, len(rows), _seat_se(rows)


def _shadows(n: int, seed: int) -> list[RuleBot]:
    bots = [RuleBot(f"shadow{s}") for s in range(n)]
    for s, b in enumerate(bots):
        b.new_game("advantage", s, seed)
    return bots


def advantage_adjust(
    seats: int,
    mode: str,
    seed: int,
    actions: Sequence[str],
    policies: Sequence[SeatPolicy],
    rule: PlayoutRule | None = None,
    rng_seed: int = 0,
) -> AdvantageResult:
    """Replay the game ``(seats, mode, seed)`` with ``actions``; every seat's raw result, its
    ``V(deal)`` and the departures with their advantages.  ``policies[s]`` is ``"rulebot"``
    for a seat the table's rule bot played (its choices must be among the rule bot's ties:
    else :class:`BotMismatch`), else ``"unknown"``.  The play-outs draw from generators seeded
    by ``rng_seed``, the game and the decision only, so the same deal gets the same ``V(deal)``
    whoever plays it (paired deals share it exactly).  Raises ``ValueError`` when the actions
    do not finish the game."""
    rule = rule or PlayoutRule()
    base = _base(seats, mode, seed, rng_seed)
    game = Game.new(seats, mode, seed)
    n = game.n
    if len(policies) != n:
        raise ValueError(f"{len(policies)} policies for {n} seats")
    v0, se0, k0 = deal_value_of(seats, mode, seed, rule, rng_seed)
    shadows = _shadows(n, seed)
    seen = [0] * n
    departures: list[Departure] = []
    decided = 0
    for i, text in enumerate(actions):
        d, action = recorded_action(game, i, text)
        if len(d.options) == 1:
            game.apply(action)
            continue
        decided += 1
        view = build_view(game, d.seat, since=seen[d.seat])
        seen[d.seat] = view.event_count
        shadow = shadows[d.seat]
        shadow.decide(view, d.option_ids)
        ties = [parse_action(t) for t in shadow.last_ties]
        if action in ties:
            game.apply(action)
            continue
        if policies[d.seat] == "rulebot":
            raise BotMismatch(
                f"decision {i + 1}: seat {d.seat} is recorded as the rule bot but chose "
                f"{text!r}, not the rule bot's {' or '.join(shadow.last_ties)}: the play-out "
                "bots are not the table's bots"
            )
        before = clone(game)
        a, se, k, seat_se = advantage(before, action, ties, rule, random.Random(f"{base}:{i}"))
        departures.append(Departure(i, d.seat, text, tuple(shadow.last_ties), a, se, k, seat_se))
        game.apply(action)
    if game.pending is not None:
        raise ValueError(f"the game is not over after {len(actions)} decisions")
    return AdvantageResult(result_values(game), v0, se0, k0, tuple(departures), decided)
