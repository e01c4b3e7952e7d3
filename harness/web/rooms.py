"""A room: its seats (people, bots, model seats), its host, its connections and its game.

Seed 001, "Настройки и комната": the host fills free seats with bots, seats a bot or a configured
model in one seat, replaces a person by a bot or removes them, and during a game hands a vanished
person's seat to the bot (autopilot) and gives it back; the host changes the speed at any time.
A person holds their seat with a token (kept by the browser), so reloading the page or coming
back after a lost connection restores the seat and the whole view.

A person who leaves during a game (← Back, after the page asks) keeps their seat: the bot plays
it on autopilot, and the token (the room's link in the same browser) gives it back until the next
game starts — then a seat still left is freed.  The host's "replace" hands a seat to the bot for
good (the token no longer holds it; that person watches, told why by a ``notice`` frame), and the
host's "remove" in the lobby frees it (told by the ``left`` frame's ``message``).  Everyone at the
table gets a ``note`` frame (:func:`note_frame`) when a person leaves, comes back, is handed to the
bot, replaced or removed, or runs out of time (the bot then finishes their turn): public facts, shown as a line of the page's feed in its own words
(live lines: the feed a reload rebuilds from the view holds the game's events only).

Every method that a client message triggers either does what it says or raises
:class:`RoomError` — and then changes nothing.

This module is the lobby part of a room (people taking, leaving and getting back their seats, the
host role passing on); the rest comes in layers, one job to a module (:mod:`.room_state`).
"""

from __future__ import annotations

import asyncio
import secrets
import time

from .connection import Connection
from .person_names import name_key
from .room_game import RoomGame
from .room_state import RoomError, Slot


def one_seat(conn: Connection, token: str | None = None) -> None:
    """A connection holds at most one seat: refused while the seat it took (other than the seat
    of ``token``) is still its own."""
    held = conn.held
    if held is None or not held[0].holds(held[1]):
        return
    if token is not None and secrets.compare_digest(held[1], token):
        return
    raise RoomError("already_seated", "this window holds a seat already: leave it first (← Back)")


class Room(RoomGame):
    """One table: its seats, host, connections and game (see the module docstring)."""

    def _unique_name(self, name: str) -> str:
        """``name``, or "name (k)" when a person here already has it or a name that looks
        like it (a checked name: see :func:`harness.web.person_names.person_name`; compared by
        :func:`~harness.web.person_names.name_key`).  At most ``len(slots) - 1`` names are
        taken, so one of the ``len(slots)`` candidates is free."""
        taken = {name_key(s.name) for s in self.slots if s.kind == "person"}
        if name_key(name) not in taken:
            return name
        for k in range(2, len(self.slots) + 2):
            candidate = f"{name[:20]} ({k})"
            if name_key(candidate) not in taken:
                return candidate
        raise RoomError("room_full", f"room {self.code} is full")  # pragma: no cover

    def join(self, conn: Connection, name: str) -> str:
        """Seat a new person in the first free seat; returns their seat token."""
        if self.playing:
            raise RoomError("started", "the game has started: watch it, or come back with your "
                            "seat's link")  # fmt: skip
        free = [i for i, s in enumerate(self.slots) if s.kind == "empty"]
        if not free:
            raise RoomError("room_full", f"room {self.code} is full")
        one_seat(conn)
        self.registry.check_seats(conn.address)
        seat = free[0]
        name = self._unique_name(name)
        token = secrets.token_urlsafe(18)
        self.slots[seat] = Slot("person", name, name, token, address=conn.address)
        self._changed()
        if self.host is None or self.slots[self.host].kind != "person":
            self.host = seat
        self._attach(conn, seat)
        conn.hold(self, token)
        return token

    def rejoin(self, conn: Connection, token: str) -> int:
        """Take back the seat that ``token`` holds (a reload or a new connection)."""
        for i, s in enumerate(self.slots):
            if (
                s.kind == "person"
                and s.token is not None
                and secrets.compare_digest(s.token, token)
            ):
                one_seat(conn, s.token)
                self._attach(conn, i)
                conn.hold(self, s.token)
                if s.left:
                    self._come_back(i)
                return i
        raise RoomError("bad_token", "that seat token is not valid in this room")

    def watch(self, conn: Connection) -> None:
        limit = self.registry.limits.spectators_per_room
        if conn not in self.spectators and len(self.spectators) >= limit:
            raise RoomError("too_many_spectators", f"room {self.code} has {limit} spectators")
        self._detach_elsewhere(conn)
        conn.enter(self, None)
        self.spectators.add(conn)
        self.idle_since = time.monotonic()

    def _detach_elsewhere(self, conn: Connection) -> None:
        if conn.room is not None:
            conn.room.detach(conn)

    def _attach(self, conn: Connection, seat: int) -> None:
        self._detach_elsewhere(conn)
        slot = self.slots[seat]
        for old in list(slot.conns):  # one live connection per seat: the newest wins
            old.send({"type": "error", "code": "replaced",
                      "message": "this seat was opened in another window"})  # fmt: skip
            old.vacate()
            old.close()
        slot.conns = {conn}
        conn.enter(self, seat)
        self.idle_since = time.monotonic()
        if self.match is not None:
            self.match.seats[seat].set_connected(True)
        self._ensure_host()

    def detach(self, conn: Connection) -> None:
        """``conn`` is gone (closed socket, or it moved to another room)."""
        if conn.room is not self:
            return
        seat = conn.seat
        conn.vacate()
        self.spectators.discard(conn)
        if seat is not None:
            slot = self.slots[seat]
            slot.conns.discard(conn)
            if not slot.conns:
                slot.gone_since = time.monotonic()
                if self.match is not None and slot.kind == "person":
                    self.match.seats[seat].set_connected(False)
        if not self.connections():
            self.idle_since = time.monotonic()
        self.broadcast_room()

    def leave(self, conn: Connection) -> None:
        """A person leaves the room (← Back): before a game their seat is freed; during one the
        bot plays it until they come back with its token (see the module doc)."""
        seat, held = conn.seat, conn.held
        conn.let_go()
        self.detach(conn)  # first: the lines about it go to the others only
        if seat is not None and self.slots[seat].kind == "person":
            self._release(seat)
            self.broadcast_room()
        elif held is not None and held[0] is self:  # it left its seat to watch this room
            self.release(held[1])

    def release(self, token: str) -> None:
        """The seat ``token`` holds is given up (its connection left it from another room)."""
        for i, s in enumerate(self.slots):
            if (
                s.kind == "person"
                and s.token is not None
                and secrets.compare_digest(s.token, token)
            ):
                if not self.playing:
                    self._evict(i)
                self._release(i)
                self.broadcast_room()
                return

    def _release(self, seat: int) -> None:
        if self.playing:
            self._step_out(seat)
        else:
            self.slots[seat] = Slot()
            self._changed()
        if self.host == seat:
            self.host = self._next_host(exclude=seat)

    def _step_out(self, seat: int) -> None:
        """During a game: the person leaves; the bot plays their seat until they come back."""
        slot = self.slots[seat]
        slot.left = True
        assert self.match is not None
        self.match.seats[seat].set_autopilot(True)
        self.note("left", seat)

    def _come_back(self, seat: int) -> None:
        slot = self.slots[seat]
        slot.left = False
        if self.playing and self.match is not None:
            self.match.seats[seat].set_autopilot(False)
            self.broadcast_views()  # the person is asked again
        self.note("back", seat)

    def _next_host(self, exclude: int | None = None) -> int | None:
        for i, s in enumerate(self.slots):
            if i != exclude and s.kind == "person" and s.conns:
                return i
        return None

    def _ensure_host(self) -> None:
        """A room without a host (or whose host seat is no longer a person's) gets a connected
        person as host as soon as there is one."""
        if self.host is None or self.slots[self.host].kind != "person":
            nxt = self._next_host()
            if nxt is not None:
                self.host = nxt

    def check_host(self, now: float, grace: float) -> bool:
        """Pass the host role on when the host has been gone ``grace`` seconds (at once when
        the room has no host)."""
        if self.host is None or self.slots[self.host].kind != "person":
            before = self.host
            self._ensure_host()
            if self.host != before:
                self.broadcast_room()
                return True
            return False
        slot = self.slots[self.host]
        if slot.kind == "person" and (slot.conns or now - slot.gone_since < grace):
            return False
        nxt = self._next_host(exclude=self.host)
        if nxt is None:
            return False
        self.host = nxt
        self.broadcast_room()
        return True

    async def close(self, reason: str = "closed", message: str = "") -> None:
        """Close the room: its game stops, and everyone in it gets a ``left`` frame with
        ``reason`` (and ``message``, when there is one to read)."""
        self.closed = True
        if self.match is not None and self.match.task is not None:
            self.match.task.cancel()
            await asyncio.gather(self.match.task, return_exceptions=True)
        frame = {"type": "left", "reason": reason, **({"message": message} if message else {})}
        for c in self.connections():
            c.send(frame)
            c.vacate()
