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
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from harness.agents.table_signals import public_seats
from harness.engine import Game
from harness.views.names import word

from .connection import Connection
from .frames import over_frame, view_frame
from .match import Match, SeatEntry
from .person_names import name_key
from .protocol import Signal, TableSettings
from .records import write_match
from .signals import SignalRefused
from .spending import NOTICE_CODE
from .web_seat import Controller, WebSeat

if TYPE_CHECKING:
    from .registry import Registry

log = logging.getLogger(__name__)

SlotKind = Literal["empty", "person", "bot", "model"]
NoteKind = Literal["left", "back", "autopilot", "given_back", "replaced", "removed", "timeout"]
REMOVED = "the host removed you from the table"
REPLACED = "the host handed your seat to a bot for the rest of the game: you are watching"
GAME_STOPPED = (
    "the game stopped on a server error (its reason is in the server's log); the host can start "
    "a new one"
)


def note_frame(what: NoteKind, seat: int, name: str) -> dict[str, Any]:
    """A line for the feed of everyone at the table: ``what`` happened to the person ``name``."""
    return {"type": "note", "what": what, "seat": seat, "name": name}


class RoomError(Exception):
    """A request that cannot be done; ``code`` is a stable word, the message one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Slot:
    kind: SlotKind = "empty"
    name: str = ""  # a person's name at the table
    player: str = ""  # the record's player: a person's name, "bot" or a model player
    token: str | None = None
    conns: set[Connection] = field(default_factory=set)
    gone_since: float = 0.0
    address: str = ""  # a person's client address when they took the seat
    left: bool = False  # the person left during the game: the bot plays the seat till they return


def one_seat(conn: Connection, token: str | None = None) -> None:
    """A connection holds at most one seat: refused while the seat it took (other than the seat
    of ``token``) is still its own."""
    held = conn.held
    if held is None or not held[0].holds(held[1]):
        return
    if token is not None and secrets.compare_digest(held[1], token):
        return
    raise RoomError("already_seated", "this window holds a seat already: leave it first (← Back)")


class Room:
    def __init__(
        self,
        code: str,
        settings: TableSettings,
        registry: Registry,
        creator: Connection | None = None,
    ) -> None:
        self.code = code
        self.creator = creator  # the connection that created the room (per-client room limits)
        self.creator_address = creator.address if creator is not None else ""
        self.closed = False
        self.settings = settings
        self.speed = settings.speed
        self.registry = registry
        self.slots = [Slot() for _ in range(settings.seats)]
        self.host: int | None = None
        self.spectators: set[Connection] = set()
        self.match: Match | None = None
        self.games = 0
        self.idle_since = time.monotonic()
        self.lobby_since = self.idle_since  # when it last became a lobby (see Registry.tick)
        self._names: dict[str, list[str]] = {}
        # the view frames of the game's current state (see send_view)
        self._views: dict[tuple[int | None, int, str, bool], dict[str, Any]] = {}
        self._view_state: tuple[Any, ...] = ()

    # ------------------------------------------------------------------ facts
    @property
    def state(self) -> str:
        if self.match is None:
            return "lobby"
        return "over" if self.match.over else "playing"

    @property
    def playing(self) -> bool:
        return self.state == "playing"

    @property
    def has_people(self) -> bool:
        return any(s.kind == "person" for s in self.slots)

    def connections(self) -> list[Connection]:
        return [c for s in self.slots for c in s.conns] + list(self.spectators)

    def names(self, locale: str) -> list[str]:
        """Seat names as shown in ``locale``: bots and model seats are "Bot 3", "ИИ 5", "ボット 2" —
        the glossary's words ``bot`` and ``ai`` with the seat's number."""
        if locale not in self._names:
            out = []
            for i, s in enumerate(self.slots):
                if s.kind == "person":
                    out.append(s.name)
                elif s.kind == "bot":
                    out.append(f"{word('bot', locale)} {i + 1}")
                elif s.kind == "model":
                    out.append(f"{word('ai', locale)} {i + 1}")
                else:
                    out.append("—")
            self._names[locale] = out
        return self._names[locale]

    def _changed(self) -> None:
        self._names.clear()
        self._views.clear()

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

    def holds(self, token: str) -> bool:
        """Whether ``token`` still holds a person's seat in this (open) room."""
        return not self.closed and any(
            s.kind == "person" and s.token is not None and secrets.compare_digest(s.token, token)
            for s in self.slots
        )

    # ------------------------------------------------------- people and seats
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
        conn.held = (self, token)
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
                conn.held = (self, s.token)
                if s.left:
                    self._come_back(i)
                return i
        raise RoomError("bad_token", "that seat token is not valid in this room")

    def watch(self, conn: Connection) -> None:
        limit = self.registry.limits.spectators_per_room
        if conn not in self.spectators and len(self.spectators) >= limit:
            raise RoomError("too_many_spectators", f"room {self.code} has {limit} spectators")
        self._detach_elsewhere(conn)
        conn.room, conn.seat, conn.seen = self, None, 0
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
            old.room, old.seat = None, None
            old.close()
        slot.conns = {conn}
        conn.room, conn.seat, conn.seen = self, seat, 0
        self.idle_since = time.monotonic()
        if self.match is not None:
            self.match.seats[seat].set_connected(True)
        self._ensure_host()

    def detach(self, conn: Connection) -> None:
        """``conn`` is gone (closed socket, or it moved to another room)."""
        if conn.room is not self:
            return
        seat = conn.seat
        conn.room, conn.seat = None, None
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
        conn.held = None
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

    def note(self, what: NoteKind, seat: int, name: str | None = None) -> None:
        frame = note_frame(what, seat, self.slots[seat].name if name is None else name)
        for c in self.connections():
            c.send(frame)

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

    # ------------------------------------------------------------- host tools
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
            c.room, c.seat = None, None
        self.slots[seat].conns.clear()

    def _to_bot(self, seat: int, player: str) -> None:
        """During a game: the bot plays this seat to the end; the person's windows watch."""
        old = self.slots[seat]
        watching = list(old.conns)
        for c in watching:
            c.seat, c.seen, c.held = None, 0, None
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

    # ------------------------------------------------------------------- game
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
        self.match = Match(game, game_id, seats, float(self.settings.decision_seconds), entries)
        self.match.on_timeout = lambda seat: self.note("timeout", seat)
        for c in self.connections():
            c.seen = 0
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

    # ---------------------------------------------------------------- actions
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

    # ------------------------------------------------------------- broadcasts
    def send_view(self, conn: Connection) -> None:
        """Send ``conn`` its seat's view since its last one.  Views are built once per state of
        the game: connections of the same seat (spectators: the public view), feed position,
        language and question get the same frame (its timer read now)."""
        match = self.match
        if match is None:
            return
        state = (match, match.decision_no, len(match.game.events), match.action_at)
        if state != self._view_state:
            self._views.clear()
            self._view_state = state
        ask = conn.seat is not None and match.asks(conn.seat)
        key = (conn.seat, conn.seen, conn.locale, ask)
        frame = self._views.get(key)
        if frame is None:
            frame = self._views[key] = view_frame(
                match.game, conn.seat, conn.seen, self.names(conn.locale), conn.locale,
                decision=match.decision_no, timer=None, action_at=match.action_at, ask=ask,
            )  # fmt: skip
        conn.seen = frame["events"]
        conn.send({**frame, "timer": match.timer()})

    def broadcast_views(self) -> None:
        for c in self.connections():
            self.send_view(c)

    def room_frame(self, conn: Connection) -> dict[str, Any]:
        names = self.names(conn.locale)
        seats = []
        for i, s in enumerate(self.slots):
            ws = self.match.seats[i] if self.match is not None else None
            seats.append(
                {
                    "seat": i,
                    "name": names[i],
                    "kind": s.kind,
                    "model": self.registry.model_label(s.player) if s.kind == "model" else None,
                    "connected": bool(s.conns) if s.kind == "person" else None,
                    "left": s.left,
                    "autopilot": bool(ws and ws.autopilot),
                }
            )
        return {
            "type": "room",
            "code": self.code,
            "link": f"/?room={self.code}",
            "state": self.state,
            "settings": self.settings.model_dump(),
            "speed": self.speed,
            "host": self.host,
            "you": conn.seat,
            "is_host": conn.seat is not None and conn.seat == self.host,
            "seats": seats,
            "models": self.registry.model_choices(),
            "board": self.match.signals.state() if self.match is not None else None,
        }

    def broadcast_room(self) -> None:
        for c in self.connections():
            c.send(self.room_frame(c))

    def send_all(self, conn: Connection) -> None:
        """Everything a newly attached connection needs: the room, the view, the result."""
        conn.send(self.room_frame(conn))
        if self.match is not None:
            conn.seen = 0
            self.send_view(conn)
            if self.match.over and self.match.result is not None:
                conn.send(over_frame(self.match.game, self.names(conn.locale), conn.locale,
                                     self.match.summary()))  # fmt: skip

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
            c.room, c.seat = None, None
