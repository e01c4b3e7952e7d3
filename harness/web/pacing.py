"""When a web seat's decision is applied: the same rule whatever its number of options.

How many options a seat has is its own knowledge (RULES.md §9): a seat that is shot and has a
single option holds no Missed!.  So a forced decision (one option) must look to everyone else
exactly like a real one — the same frames (:meth:`harness.web.match.Match.asks`: a person is
asked it and the timer shows) and the same time before it is applied:

- a bot's decision (a bot seat, a person's seat on autopilot or settled by a timeout, a model seat
  whose spending cap was reached) is applied the table's pause after it began, the bot deciding
  during the pause, so neither the number of options nor the bot's thinking time shows;
- a model seat's decision is applied no sooner than that pause either; a real one takes the
  model's time, a forced one (no model call) waits as long as one of the seat's real decisions of
  this game, drawn at random (the time of the pause alone before its first real decision);
- a person is asked every decision with the table's timer (:mod:`harness.web.web_seat`): what the
  others can still tell apart is the person's own speed, as at any card table.

The draws come from a generator of the seat's own, seeded from the game's seed and the seat; the
game's generator is never touched, so config + seed + choices still reproduce the game.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Callable

MODEL_TIMES_KEPT = 256  # a model seat's latest real decision times a forced one is drawn from


class Pace:
    """One seat's pace; ``pause()`` gives the table's pause now (the host may change the speed)."""

    def __init__(self, pause: Callable[[], float]) -> None:
        self.pause = pause
        self._rng = random.Random(0)
        self._model_times: deque[float] = deque(maxlen=MODEL_TIMES_KEPT)

    def new_game(self, seed: int, seat: int) -> None:
        self._rng = random.Random(f"pace:{seed}:{seat}")
        self._model_times.clear()

    async def hold(self, started: float, at_least: float = 0.0) -> None:
        """Wait until the table's pause (or ``at_least`` seconds, when longer) has passed since
        ``started`` (a ``time.monotonic()`` reading)."""
        wait = started + max(self.pause(), at_least) - time.monotonic()
        await asyncio.sleep(max(0.0, wait))

    def model_decided(self, started: float) -> None:
        """A model seat's real decision that began at ``started`` has just been answered."""
        self._model_times.append(time.monotonic() - started)

    def model_time(self) -> float:
        """How long a forced decision of a model seat takes: one of its real decisions' times,
        drawn at random (0 before the first)."""
        if not self._model_times:
            return 0.0
        return self._model_times[self._rng.randrange(len(self._model_times))]
