"""A room's state and what its parts share: its seats (:class:`Slot`), host, connections and game,
the facts read from them, :class:`RoomError`, and what a room needs from the server that holds it
(:class:`TableServices`, which :class:`~harness.web.room_registry.Registry` provides).

A room is one :class:`~harness.web.rooms.Room` built in layers, one job to a module, each using
only the layers below it: this state, the broadcasts (:mod:`.room_broadcast`), the host's tools
(:mod:`.room_host`), the game (:mod:`.room_game`) and the lobby — people taking, leaving and
getting back their seats (:mod:`.rooms`).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from harness.agents.seat_protocol import Agent
from harness.engine import Game
from harness.views.names import word

from .connection import Connection
from .limits import WebLimits
from .match import Match
from .protocol import TableSettings
from .retention import WebStore
from .spending import SpendingGuard
from .web_config import WebConfig

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


class TableServices(Protocol):
    """What a room asks of the server holding it: limits, seeds and game ids, the model seats
    (shared by every table, behind the spending caps) and the run folder."""

    config: WebConfig
    limits: WebLimits
    pauses: dict[str, float]
    store: WebStore
    spending: SpendingGuard

    def check_seats(self, address: str) -> None: ...

    def new_seed(self) -> int: ...

    def game_id(self, code: str, n: int) -> str: ...

    def model_choices(self) -> list[dict[str, str]]: ...

    def model_label(self, player: str) -> str: ...

    def model_refusal(self) -> str | None: ...

    def model_agent(
        self,
        player: str,
        seat: int,
        game: Game,
        game_id: str,
        names: list[str],
        decision_seconds: float,
    ) -> Agent: ...


class RoomState:
    """A room's fields and the facts read from them."""

    def __init__(
        self,
        code: str,
        settings: TableSettings,
        registry: TableServices,
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

    def holds(self, token: str) -> bool:
        """Whether ``token`` still holds a person's seat in this (open) room."""
        return not self.closed and any(
            s.kind == "person" and s.token is not None and secrets.compare_digest(s.token, token)
            for s in self.slots
        )
