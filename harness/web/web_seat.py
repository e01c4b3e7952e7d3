"""A seat at a web table as one :class:`~harness.agents.seat_protocol.Agent`, whoever controls it.

The table runner (:func:`harness.agents.table.play_game`) asks a :class:`WebSeat` exactly as the
league asks any seat, with the same timer and the same Ruling R-5 fallback.  Behind it sits a
person (answers arrive over the WebSocket), the rule bot, or a model seat; the host can switch
a person's seat to the bot (autopilot) and back, or replace the person by a bot.  The seat's own
:class:`~harness.agents.rulebot.RuleBot` sees every view the seat gets, so it can take over at
any moment with a current picture of the table.

A model seat asks its model until the server's spending cap is reached (``capped()`` gives the
reason, see :mod:`harness.web.spending`); from then on its bot decides, each decision recorded as
a fallback of reason ``spending_cap`` — also a decision whose model call the stopping provider
refused.

A disconnected person's decision gets :data:`DISCONNECTED_SECONDS` (counted from the decision or
the disconnection, whichever is later), then the seat makes the R-5 move.  A person is asked
every decision, also one with a single option (a forced decision: taking a hit with no Missed!
in hand), and it waits for them like any other — their confirmation, the timer or the
disconnected grace — so nobody else learns that the seat had no choice.  Bots and model seats
take their time by the same rule whatever the number of options (:mod:`harness.web.pacing`).

One timeout settles the whole turn: once a person's decision has timed out (the table's timer, or
the disconnected grace), the seat's bot makes the person's other decisions of that same turn at
bot speed (recorded as fallbacks ``autopilot``, error :data:`AFTER_TIMEOUT`), so nobody waits a
whole timer for every discard.  The person is asked again from the next turn on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

from harness.agents.rulebot import RuleBot
from harness.agents.seat_protocol import Agent, Choice
from harness.engine import SeatView, simplest_for_view
from harness.play.ledger import SPENDING_CAP_FALLBACK

from .pacing import Pace

DISCONNECTED_SECONDS = 8.0
AFTER_TIMEOUT = "the rest of a turn after a timeout"
Controller = Literal["person", "bot", "model"]
BeforeDecision = Callable[[int], Awaitable[None]]
TurnKey = tuple[int, int]  # (round, seat whose turn it is)


def turn_key(round_no: int, turn: int) -> TurnKey:
    return (round_no, turn)


class WebSeat(Agent):
    kind = "web"

    def __init__(
        self,
        seat: int,
        controller: Controller,
        player: str,
        before_decision: BeforeDecision,
        model: Agent | None = None,
        capped: Callable[[], str | None] | None = None,
        pause: Callable[[], float] = lambda: 0.0,
    ) -> None:
        """``before_decision(seat)`` pushes the table its views; ``pause()`` is the table's pause
        before an automated decision is applied (:mod:`harness.web.pacing`)."""
        super().__init__(player)
        self.seat = seat
        self.controller: Controller = controller
        self.player = player  # the record's player: a person's name, "bot" or a model player
        self.model = model
        self.capped = capped or (lambda: None)
        self.bot = RuleBot(f"bot {seat}")
        self.autopilot = False
        self.connected = controller == "person"
        self.disconnected_at = 0.0
        self.turn: TurnKey | None = None  # the turn of the seat's latest decision
        self.settled: TurnKey | None = None  # the turn a timeout settled (see the module doc)
        self._before = before_decision
        self.pace = Pace(pause)
        self._answer: asyncio.Future[str] | None = None
        self._options: tuple[str, ...] = ()
        self._changed = asyncio.Event()

    # ---------------------------------------------------------------- control
    @property
    def automated(self) -> bool:
        return self.controller != "person" or self.autopilot or self.settling

    @property
    def settling(self) -> bool:
        """Whether the bot plays the rest of this turn for the person (a timeout settled it)."""
        return self.settled is not None and self.settled == self.turn

    def timed_out(self) -> bool:
        """The person's decision of the current turn timed out: the turn is settled (True)."""
        if self.controller == "person" and not self.autopilot:
            self.settled = self.turn
            return True
        return False

    @property
    def waiting(self) -> tuple[str, ...]:
        """The options the person is asked now (empty when not asked): every decision of theirs,
        a single option included, while the bot does not play the seat."""
        asked = self._answer is not None and not self._answer.done() and not self.automated
        return self._options if asked else ()

    def answer(self, option: str) -> bool:
        """A person's answer; False when the seat is not waiting for it or it is not an option."""
        if option not in self.waiting:
            return False
        assert self._answer is not None
        self._answer.set_result(option)
        return True

    def set_connected(self, connected: bool) -> None:
        if connected != self.connected:
            self.connected = connected
            self.disconnected_at = time.monotonic()
            self._changed.set()

    def set_autopilot(self, on: bool) -> None:
        self.autopilot = on
        self._changed.set()

    def hand_to(self, controller: Controller, player: str, model: Agent | None = None) -> None:
        """Replace the seat's controller for the rest of the game (a person by a bot)."""
        self.controller, self.player, self.model = controller, player, model
        self.autopilot = False
        self._changed.set()

    # --------------------------------------------------------------- protocol
    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        self.bot.new_game(game_id, seat, seed)
        self.pace.new_game(seed, seat)
        if self.model is not None:
            self.model.new_game(game_id, seat, seed)

    async def choose(self, view: SeatView, options: Sequence[str]) -> str | Choice:
        started = time.monotonic()
        self._answer = answer = asyncio.get_running_loop().create_future()
        self._options = tuple(options)
        self.turn = turn_key(view.round, view.turn)
        try:
            await self._before(self.seat)
            if self.controller == "model" and self.model is not None:
                return await self._ask_model(self.model, view, options, started)
            if self.controller == "bot":
                pick = self.bot.decide(view, options)
                await self.pace.hold(started)
                return pick
            self.bot.observe(view)
            return await self._ask_person(view, options, answer, started)
        finally:
            self._answer = None
            self._options = ()

    async def _ask_model(
        self, model: Agent, view: SeatView, options: Sequence[str], started: float
    ) -> str | Choice:
        """The model's answer, at the pace of :mod:`harness.web.pacing`: a forced decision is
        answered without a model call and waits as long as a real one."""
        forced = len(options) == 1
        if not forced and (reason := self.capped()) is not None:
            return await self._bot_for_cap(view, options, reason, started)
        capped = self.capped() is not None  # a forced decision under the cap: a bot's pace
        self.bot.observe(view)
        try:
            answer = await model.choose(view, options)
        except asyncio.CancelledError:
            # The provider refused the call (the cap was reached meanwhile): not a cancellation
            # of this game's task, which goes on with the bot's move.
            task = asyncio.current_task()
            reason = self.capped()
            if reason is None or task is None or task.cancelling():
                raise
            return await self._bot_for_cap(view, options, reason, started)
        if not forced:
            self.pace.model_decided(started)
        await self.pace.hold(started, self.pace.model_time() if forced and not capped else 0.0)
        return answer

    async def _bot_for_cap(
        self, view: SeatView, options: Sequence[str], reason: str, started: float
    ) -> Choice:
        pick = self.bot.decide(view, options)
        await self.pace.hold(started)
        return Choice(pick, fallback=SPENDING_CAP_FALLBACK, error=reason)

    async def _ask_person(
        self, view: SeatView, options: Sequence[str], answer: asyncio.Future[str], started: float
    ) -> str | Choice:
        while True:
            if self.automated:
                pick = self.bot.decide(view, options)
                await self.pace.hold(started)
                if not self.automated:  # the host gave the seat back during the pause
                    continue
                if self.autopilot:
                    return Choice(pick, fallback="autopilot")
                if self.settling and self.controller == "person":
                    return Choice(pick, fallback="autopilot", error=AFTER_TIMEOUT)
                return pick
            if answer.done():
                return str(answer.result())
            wait: float | None = None
            if not self.connected:
                since = max(started, self.disconnected_at)
                wait = DISCONNECTED_SECONDS - (time.monotonic() - since)
                if wait <= 0:
                    return Choice(
                        simplest_for_view(view, options),
                        fallback="timeout",
                        error=f"disconnected: no answer within {DISCONNECTED_SECONDS:g} s",
                    )
            self._changed.clear()
            changed = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait((answer, changed), timeout=wait,
                                   return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
            finally:
                changed.cancel()
