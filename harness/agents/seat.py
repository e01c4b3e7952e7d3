"""One decision of one seat under a deadline, with the fallback of Ruling R-5 or autopilot.

:func:`decide` asks the agent, and if it times out, raises, or answers something that is not one
of the options, the seat makes the fallback move instead: the R-5 simplest move (policy
``simplest``) or the rule bot's choice (policy ``autopilot``).  The result says which, and why.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

from harness.engine import Game, SeatView, build_view, simplest_action

from .deadline import LAG_FACTOR, loop_lag
from .seat_protocol import Agent, Choice

FallbackPolicy = Literal["simplest", "autopilot"]
FallbackReason = Literal["timeout", "error", "invalid_answer"]


class FatalSeatError(Exception):
    """An error that must stop the run instead of becoming a fallback (bad API key, unknown
    model).  Agents raise subclasses of it; :func:`decide` lets them through."""


@dataclass(frozen=True, slots=True)
class Decided:
    option: str
    fallback: FallbackReason | None
    error: str | None
    latency_s: float
    record: Any = None  # a model seat's decision record


AutopilotFactory = Callable[[], Agent]

# A model seat keeps its own deadline, a margin before the table's timer that grows with the event
# loop's lag (harness.agents.deadline), and returns its decision record by then.  When the loop
# stalls, that deadline fires late too; the table then waits a short grace past its timer for the
# seat to hand in its own fallback and record, instead of cutting it off and losing the record of
# calls already made.  Other seats (bots, people) are cut off at the timer exactly.
# Such seats say so with ``Agent.self_timed`` (model seats; external agents, remote agents and
# MCP clients: harness.agents.external_seat).
# A stall can be longer than the grace: both the seat's deadline and the table's cutoff then fall
# due in it and run one after the other when the loop wakes, before the seat could hand anything
# in.  So a self-timed seat's cutoff that finds the loop stalled (it runs more than STALL_S late,
# or the loop's recent lag is that long: harness.agents.deadline) waits once more, the grace plus
# LAG_FACTOR times the stall from then (at most the timer), for the seat's own fallback and record.
GRACE_MIN_S = 1.0
GRACE_FRACTION = 0.1
STALL_S = 0.25


def cutoff(agent: Agent, timeout: float | None) -> float | None:
    """Seconds the table waits for ``agent`` when its decision timer is ``timeout`` (a stall
    excepted: :func:`_cut_or_wait`)."""
    if timeout is None or not agent.self_timed:
        return timeout
    return timeout + max(GRACE_MIN_S, GRACE_FRACTION * timeout)


def _cut_or_wait(limit: asyncio.Timeout, due: float, grace: float, timer: float) -> None:
    """The cutoff of a self-timed seat, run by the loop at ``due``: cut now, or — when the loop
    is stalled — once more ``grace`` plus the stall's multiple (see :data:`STALL_S`)."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    monitor = loop_lag()
    lag = max(now - due, *((monitor.recent_max(), monitor.stalled_for()) if monitor else ()))
    if lag > STALL_S:
        limit.reschedule(now + min(max(grace, timer), grace + LAG_FACTOR * lag))
    else:
        limit.reschedule(now)


async def _choose(
    agent: Agent, view: SeatView, options: list[str], timeout: float | None
) -> str | Choice:
    """``agent``'s answer within its cutoff; ``TimeoutError`` past it.  ``asyncio.timeout`` runs
    the agent in this task: a cancellation of the game (a stopping run) always reaches it, and an
    agent's error is never left in an orphaned task."""
    limit = cutoff(agent, timeout)
    if limit is None:
        return await agent.choose(view, options)
    if timeout is None or not agent.self_timed:
        async with asyncio.timeout(limit):
            return await agent.choose(view, options)
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(None) as cm:  # set by the cutoff below
        due = loop.time() + limit
        handle = loop.call_at(due, _cut_or_wait, cm, due, limit - timeout, timeout)
        try:
            return await agent.choose(view, options)
        finally:
            handle.cancel()


async def decide(
    agent: Agent,
    game: Game,
    view: SeatView | None = None,
    timeout: float | None = None,
    policy: FallbackPolicy = "simplest",
    autopilot: Agent | None = None,
) -> Decided:
    """Ask ``agent`` for the pending decision of ``game`` within ``timeout`` seconds."""
    d = game.pending
    if d is None:
        raise ValueError("the game is over")
    view = view or build_view(game, d.seat)
    options = d.option_ids
    t0 = time.monotonic()
    reason: FallbackReason | None = None
    error: str | None = None
    try:
        answer = await _choose(agent, view, options, timeout)
    except TimeoutError:
        reason, error = "timeout", f"no answer within {timeout:g} s"
    except FatalSeatError:
        raise
    except Exception as e:  # an agent's bug must not end the game: the seat falls back
        reason, error = "error", f"{type(e).__name__}: {e}"
    else:
        record = None
        if isinstance(answer, Choice):
            record = answer.record
            if answer.fallback is not None and answer.option in options:
                return Decided(
                    answer.option,
                    cast(FallbackReason, answer.fallback),
                    answer.error,
                    time.monotonic() - t0,
                    record,
                )
            answer = answer.option
        if answer in options:
            return Decided(answer, None, None, time.monotonic() - t0, record)
        reason, error = "invalid_answer", f"answer {answer!r} is not one of the options"
    option = await _fallback(game, view, options, policy, autopilot)
    return Decided(option, reason, error, time.monotonic() - t0)


async def _fallback(
    game: Game,
    view: SeatView,
    options: list[str],
    policy: FallbackPolicy,
    autopilot: Agent | None,
) -> str:
    if policy == "autopilot" and autopilot is not None:
        try:
            choice = await autopilot.choose(view, options)
            if choice in options:
                return choice
        except Exception:  # the autopilot failing still leaves the R-5 move
            pass
    return simplest_action(game).id
