"""A room's game: start it with a seat for every slot (a person, the rule bot or a model seat),
run it, record it when it ends (:func:`~harness.web.records.write_match`), and take the seated
people's answers and table signals.  A game that stops on a server error says so to everyone in
the room; its reason goes to the server's log only.
"""

from __future__ import annotations

import asyncio
import logging
import time

from harness.agents.table_signals import public_seats
from harness.engine import Game

from .connection import Connection
from .frames import over_frame
from .match import Match, SeatEntry
from .protocol import Signal
from .records import write_match
from .room_host import RoomHostTools
from .room_state import GAME_STOPPED, RoomError, Slot
from .signal_board import SignalRefused
from .web_seat import Controller, WebSeat

log = logging.getLogger(__name__)


class RoomGame(RoomHostTools):
    """A room's game (see the module docstring)."""

    def start(self) -> None:
        if self.playing:
            raise RoomError("started", "the game is already running")
        if self.match is not None and self.match.task is not None and not self.match.task.done():
            # the last game is over but still being recorded, and its result not yet sent
            raise RoomError("started", "the last game is being recorded: start again in a moment")
        for i, s in enumerate(self.slots):  # a person who left the last game gives up the seat
            if s.kind == "person" and s.left:
                self.slots[i] = Slot()
                self._changed()
        empty = [i for i, s in enumerate(self.slots) if s.kind == "empty"]
        self.fill_bots()
        seed = self.registry.new_seed()
        game = Game.new(self.settings.seats, self.settings.mode, seed)
        game_id = self.registry.game_id(self.code, self.games + 1)
        try:
            seats = [self._web_seat(i, game, game_id) for i in range(len(self.slots))]
        except Exception as e:  # a model seat that cannot be built (no API key): nothing starts
            for i in empty:
                self.slots[i] = Slot()
            self._changed()
            if isinstance(e, RoomError):  # a spending cap was reached
                raise
            raise RoomError("model_unavailable", f"a model seat cannot play: {e}") from None
        self.games += 1
        entries = [self._entry(i) for i in range(len(self.slots))]
        self.match = Match(
            game, game_id, seats, float(self.settings.decision_seconds), entries,
            run=self.registry.config.name,
        )  # fmt: skip
        self.match.on_timeout = lambda seat: self.note("timeout", seat)
        for c in self.connections():
            c.rewind()
        self.match.task = asyncio.get_running_loop().create_task(self._run(self.match))
        self.broadcast_room()

    def _web_seat(self, i: int, game: Game, game_id: str) -> WebSeat:
        s = self.slots[i]
        model = None
        if s.kind == "model":
            model = self.registry.model_agent(s.player, i, game, game_id, self.names("en"),
                                              self.settings.decision_seconds)  # fmt: skip
        controller: Controller = "person" if s.kind == "person" else s.kind  # type: ignore[assignment]
        seat = WebSeat(i, controller, s.player, self.before_decision, model,
                       capped=lambda: self.registry.spending.reason,
                       pause=lambda: self.registry.pauses[self.speed])  # fmt: skip
        seat.connected = bool(s.conns) if s.kind == "person" else True
        return seat

    def _entry(self, seat: int) -> SeatEntry:
        s = self.slots[seat]
        kind = "human" if s.kind == "person" else s.kind
        label = self.registry.model_label(s.player) if s.kind == "model" else None
        if s.kind == "model":  # a model or an external agent player: its own kind in records
            kind = self.registry.config.model_players()[s.player].kind
        return SeatEntry(s.player, kind, label, self.names("en")[seat])  # type: ignore[arg-type]

    async def _run(self, match: Match) -> None:
        t0 = time.monotonic()
        try:
            await match.play(self._ended)
        except asyncio.CancelledError:
            raise
        except Exception:  # a model seat's fatal error, a game that never ends
            # The reason goes to the server's log only: an exception's text may name anything
            # (a card in a hand, a provider's answer), and spectators are in the room too.
            log.exception("game %s stopped", match.game_id)
            self.match = None
            self.lobby_since = time.monotonic()
            for c in self.connections():
                c.send({"type": "error", "code": "game_stopped", "message": GAME_STOPPED})
            self.broadcast_room()
            return
        # Model seats share their provider with every table (the registry closes it).
        log.info("game %s finished in %.1f s", match.game_id, time.monotonic() - t0)

    async def _ended(self, match: Match) -> None:
        self.lobby_since = time.monotonic()
        self.broadcast_views()
        duration = time.time() - match.started_wall
        await asyncio.to_thread(
            write_match, self.registry.store, self.registry.config.name, match, duration
        )
        summary = match.summary()
        for c in self.connections():
            c.send(over_frame(match.game, self.names(c.locale), c.locale, summary))
        self.broadcast_room()

    async def before_decision(self, seat: int) -> None:
        """Called by a seat before it decides: push every connection its new view (the seat then
        takes its time: :mod:`harness.web.pacing`)."""
        assert self.match is not None
        self.match.started(seat)
        self.broadcast_views()
        await asyncio.sleep(0)

    def act(self, conn: Connection, decision: int, option: str) -> None:
        match = self.match
        if conn.seat is None:
            raise RoomError("not_seated", "spectators cannot act")
        if match is None or match.over:
            raise RoomError("not_started", "no game is in progress")
        if decision != match.decision_no:
            raise RoomError("stale_decision", f"decision {decision} is not the current one "
                            f"({match.decision_no})")  # fmt: skip
        seat = match.seats[conn.seat]
        if not seat.waiting:
            raise RoomError("not_your_turn", "it is not your decision")
        if not seat.answer(option):
            raise RoomError("unknown_option", f"{option[:64]!r} is not one of your options")

    def signal(self, conn: Connection, msg: Signal) -> None:
        match = self.match
        if conn.seat is None or self.slots[conn.seat].kind != "person":
            raise RoomError("not_seated", "only people at the table send signals")
        if match is None:
            raise RoomError("not_started", "signals are for a game")
        game = match.game
        alive = game.seats[conn.seat].alive and not match.over
        target_alive = msg.target is None or (
            0 <= msg.target < game.n and game.seats[msg.target].alive
        )
        try:
            rec = match.signals.add(
                conn.seat, msg.kind, alive=alive, event_index=len(game.events), role=msg.role,
                target=msg.target, reaction=msg.reaction, target_alive=target_alive,
                public=public_seats(game),
            )  # fmt: skip
        except SignalRefused as e:
            raise RoomError(e.code, str(e)) from None
        frame = {"type": "signal", "signal": rec.model_dump(), "board": match.signals.state()}
        for c in self.connections():
            c.send(frame)
