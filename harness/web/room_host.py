"""The host's tools: fill free seats with bots, seat a bot or a configured model, replace a
person by a bot or remove them, hand a seat to the bot (autopilot) and back during a game, and
change the speed.  Each either does what it says or raises :class:`RoomError` and changes nothing.
"""

from __future__ import annotations

from .connection import Connection
from .room_broadcast import RoomBroadcast
from .room_state import REMOVED, REPLACED, RoomError, Slot, SlotKind
from .spending import NOTICE_CODE


class RoomHostTools(RoomBroadcast):
    """What the host of a room may do (see the module docstring)."""

    def require_host(self, conn: Connection) -> None:
        if conn.seat is None or conn.seat != self.host:
            raise RoomError("not_host", "only the host of the table can do that")

    def _lobby_only(self) -> None:
        if self.playing:
            raise RoomError("started", "not during a game")

    def _seat(self, seat: int) -> Slot:
        if not 0 <= seat < len(self.slots):
            raise RoomError("bad_seat", f"this table has seats 1–{len(self.slots)}")
        return self.slots[seat]

    def _automated(self, player: str) -> tuple[SlotKind, str]:
        if player == "bot":
            return "bot", "bot"
        if player in self.registry.config.model_players():
            refused = self.registry.model_refusal()
            if refused is not None:
                raise RoomError(NOTICE_CODE, refused)
            return "model", player
        raise RoomError("unknown_player", f"no bot or configured model called {player[:64]!r}")

    def fill_bots(self) -> None:
        self._lobby_only()
        for i, s in enumerate(self.slots):
            if s.kind == "empty":
                self.slots[i] = Slot("bot", player="bot")
        self._changed()

    def seat_bot(self, seat: int, player: str) -> None:
        self._lobby_only()
        if self._seat(seat).kind != "empty":
            raise RoomError("seat_taken", f"seat {seat + 1} is taken")
        kind, player = self._automated(player)
        self.slots[seat] = Slot(kind, player=player)
        self._changed()

    def replace(self, seat: int, player: str) -> None:
        slot = self._seat(seat)
        if slot.kind == "empty":
            raise RoomError("seat_empty", f"seat {seat + 1} is free")
        if seat == self.host:
            raise RoomError("bad_seat", "the host cannot replace themselves; use ← Back")
        kind, player = self._automated(player)
        if self.playing:
            if kind != "bot":
                raise RoomError("started", "during a game a seat can only go to the bot")
            self._to_bot(seat, player)
            return
        name = slot.name if slot.kind == "person" else None
        self._evict(seat)
        self.slots[seat] = Slot(kind, player=player)
        self._changed()
        if name is not None:
            self.note("removed", seat, name)

    def remove(self, seat: int) -> None:
        self._lobby_only()
        slot = self._seat(seat)
        if seat == self.host:
            raise RoomError("bad_seat", "the host cannot remove themselves; use ← Back")
        if slot.kind == "empty":
            raise RoomError("seat_empty", f"seat {seat + 1} is free")
        name = slot.name if slot.kind == "person" else None
        self._evict(seat)
        self.slots[seat] = Slot()
        self._changed()
        if name is not None:
            self.note("removed", seat, name)

    def _evict(self, seat: int) -> None:
        for c in list(self.slots[seat].conns):
            c.send({"type": "left", "reason": "removed", "message": REMOVED})
            c.vacate()
        self.slots[seat].conns.clear()

    def _to_bot(self, seat: int, player: str) -> None:
        """During a game: the bot plays this seat to the end; the person's windows watch."""
        old = self.slots[seat]
        watching = list(old.conns)
        for c in watching:
            c.to_spectator()
            self.spectators.add(c)
            c.send({"type": "notice", "code": "replaced", "message": REPLACED})
            c.send({"type": "joined", "code": self.code, "seat": None, "token": None})
        self.slots[seat] = Slot("bot", player="bot")
        self._changed()
        assert self.match is not None
        self.match.seats[seat].hand_to("bot", "bot")
        for c in watching:  # the public view at once, whoever is to act now
            self.send_view(c)
        if old.kind == "person":
            self.note("replaced", seat, old.name)

    def autopilot(self, seat: int, on: bool) -> None:
        if not self.playing or self.match is None:
            raise RoomError("not_started", "autopilot is for a game in progress")
        if self._seat(seat).kind != "person":
            raise RoomError("bad_seat", f"seat {seat + 1} is not a person's")
        if self.match.seats[seat].autopilot != on:
            self.note("autopilot" if on else "given_back", seat)
        self.match.seats[seat].set_autopilot(on)
        self.broadcast_views()  # the person is asked again, or no longer

    def set_speed(self, speed: str) -> None:
        self.speed = speed  # type: ignore[assignment]
