"""A web seat takes its time by one rule whatever its number of options (issue 35 item 9,
:mod:`harness.web.pacing`): a bot's forced decision waits the table's pause like a real one, and
a model seat's forced decision (answered without a model call) waits as long as one of its real
ones.  Only lower bounds are asserted: a loaded machine makes every wait longer, never shorter."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence

from harness.agents.seat_protocol import Agent
from harness.engine import Game, SeatView, build_view
from harness.web.pacing import Pace
from harness.web.web_seat import WebSeat

MODEL_S = 0.25
PAUSE = 0.15


class SlowModel(Agent):
    """A model seat that takes :data:`MODEL_S` per real decision and answers a forced one at once,
    as a language model seat does (no call for a single option)."""

    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        if len(options) > 1:
            await asyncio.sleep(MODEL_S)
        return options[0]


def forced_and_real(seed: int) -> tuple[tuple[SeatView, list[str]], tuple[SeatView, list[str]]]:
    """A view and options of a forced decision and of a real one, from one random playout."""
    game = Game.new(5, "classic", seed)
    rng = random.Random(seed)
    found: dict[bool, tuple[SeatView, list[str]]] = {}
    while game.pending is not None and len(found) < 2:
        d = game.pending
        found.setdefault(len(d.option_ids) == 1, (build_view(game, d.seat), list(d.option_ids)))
        game.apply(rng.choice(d.option_ids))
    return found[True], found[False]


async def no_views(seat: int) -> None:
    await asyncio.sleep(0)


async def timed(seat: WebSeat, view: SeatView, options: list[str]) -> float:
    t0 = time.monotonic()
    await seat.choose(view, options)
    return time.monotonic() - t0


def test_a_bots_forced_decision_waits_the_pause_like_a_real_one() -> None:
    (fv, fo), (rv, ro) = forced_and_real(4)

    async def play() -> list[float]:
        seat = WebSeat(0, "bot", "bot", no_views, pause=lambda: PAUSE)
        seat.new_game("g", 0, 4)
        return [await timed(seat, fv, fo), await timed(seat, rv, ro)]

    forced, real = asyncio.run(play())
    assert forced >= 0.9 * PAUSE and real >= 0.9 * PAUSE, (forced, real)


def test_a_model_seats_forced_decision_waits_like_its_real_ones() -> None:
    (fv, fo), (rv, ro) = forced_and_real(6)

    async def play() -> list[float]:
        seat = WebSeat(0, "model", "m", no_views, SlowModel("m"), pause=lambda: 0.0)
        seat.new_game("g", 0, 6)
        return [await timed(seat, rv, ro), await timed(seat, fv, fo)]

    real, forced = asyncio.run(play())
    assert real >= 0.9 * MODEL_S and forced >= 0.9 * MODEL_S, (real, forced)


def test_the_draws_are_the_seats_own_and_repeat_with_the_seed() -> None:
    """A forced decision's wait is drawn from a generator of the seat's own, seeded by the game's
    seed and the seat: the same game draws the same waits, another seat other ones."""

    def draws(seed: int, seat: int) -> list[float]:
        pace = Pace(lambda: 0.0)
        pace.new_game(seed, seat)
        now = time.monotonic()
        for k in range(1, 21):  # twenty real decisions of 0.1 … 2.0 s
            pace.model_decided(now - 0.1 * k)
        return [round(pace.model_time(), 1) for _ in range(12)]

    mine = draws(9, 2)
    assert len(set(mine)) > 1 and all(0.1 <= t <= 2.0 for t in mine)
    assert draws(9, 2) == mine
    assert draws(9, 2) != draws(9, 3) and draws(9, 2) != draws(10, 2)
    state = random.getstate()
    draws(9, 2)
    assert random.getstate() == state  # the module's generator is untouched
