"""A stalled event loop does not cost a self-timed seat its record (harness.agents.seat): when one
stall covers both the seat's own deadline and the table's cutoff, the cutoff waits once more for
the seat's fallback and record instead of cutting it off; the wait is bounded; bots and seats that
keep no deadline of their own are cut at the timer as before.  Ruling R-5: the fallback move is the
simplest one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from harness.agents.seat import Decided, decide
from harness.agents.seat_protocol import Agent, Choice
from harness.engine import Game, SeatView

TIMER = 1.0  # the cutoff of a self-timed seat: 2 s (timer + 1 s grace)


class StallingSeat(Agent):
    """Keeps its own deadline (0.9 s), then the loop stalls 1.6 s — past the table's cutoff — in
    its hands, then it hands in its own fallback with its record (or, ``hang``: never)."""

    self_timed = True

    def __init__(self, hang: bool = False) -> None:
        super().__init__("stalling")
        self.hang = hang

    async def choose(self, view: SeatView, options: Sequence[str]) -> str | Choice:
        await asyncio.sleep(0.9)
        time.sleep(1.6)  # the stall: nothing else runs, the cutoff falls due meanwhile
        for _ in range(3):  # cancelling its call and building its record take a few turns
            await asyncio.sleep(0)
        if self.hang:
            await asyncio.sleep(3600)
        return Choice(options[-1], fallback="timeout", error="own deadline", record={"calls": 1})


class PlainSeat(StallingSeat):
    self_timed = False


def ask(agent: Agent) -> tuple[Decided, float]:
    game = Game.new(4, "classic", 7)
    t0 = time.monotonic()
    decided = asyncio.run(decide(agent, game, timeout=TIMER))
    return decided, time.monotonic() - t0


def test_a_stall_past_the_cutoff_keeps_the_seats_own_fallback_and_record() -> None:
    decided, _ = ask(StallingSeat())
    assert decided.fallback == "timeout" and decided.error == "own deadline"
    assert decided.record == {"calls": 1}


def test_the_wait_after_a_stall_is_bounded() -> None:
    decided, took = ask(StallingSeat(hang=True))
    assert decided.fallback == "timeout" and decided.record is None
    assert decided.error == f"no answer within {TIMER:g} s"
    assert took < 60  # cut off after one more wait (at most the timer), not the agent's hour


def test_a_seat_without_its_own_deadline_is_cut_at_the_timer() -> None:
    decided, _ = ask(PlainSeat())  # the stall ends past its 1 s timer: no record to wait for
    assert decided.fallback == "timeout" and decided.record is None
