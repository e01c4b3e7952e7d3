"""All rooms of one server, with what they share: the config, the run folder, model seats, the
per-address counters and room shares (:mod:`.limits`) and the housekeeping loop (the host role
passes on after :data:`HOST_GRACE_S`; rooms nobody is connected to are closed after the config's
``limits`` ``lobby_idle_s`` or ``game_idle_s``, and every lobby after ``lobby_max_s``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from harness.agents.seat_protocol import Agent
from harness.engine import Game

from .connection import Connection
from .limits import Addresses, room_share
from .protocol import TableSettings
from .rebuilds import Rebuilds
from .retention import WebStore
from .room_state import RoomError
from .rooms import Room
from .spending import NOTICE_CODE, SpendingGuard, server_caps
from .web_config import WebConfig

log = logging.getLogger(__name__)

HOST_GRACE_S = 30.0
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 5
PAUSES = {"slow": 2.0, "normal": 1.0, "fast": 0.3}  # seconds before a bot's move


def lobby_expired(seconds: float) -> str:
    """What the people in a lobby read when it closes after ``seconds`` without a game."""
    return (
        f"this table waited {seconds / 60:g} minutes without a game and is closed; create a new one"
    )


class Registry:
    def __init__(
        self,
        config: WebConfig | None = None,
        *,
        pauses: dict[str, float] | None = None,
        host_grace: float = HOST_GRACE_S,
        seed: Callable[[], int] | None = None,
    ) -> None:
        self.config = config or WebConfig()
        self.pauses = {**PAUSES, **(pauses or {})}
        self.limits = self.config.limits
        self.addresses = Addresses(self.limits)
        self.rebuilds = Rebuilds()
        self.host_grace = host_grace
        self.store = WebStore(self.config.run_dir, self.config.records)
        self.rooms: dict[str, Room] = {}
        self._seed = seed or (lambda: secrets.randbelow(2**31))
        self._model_seats: Any = None
        # the caps with their dollar part are settled in start() (the price look-up is slow)
        self.spending = SpendingGuard(server_caps(self.config, prices=False), self._spending_notice)
        self._ids: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    # ----------------------------------------------------------------- rooms
    def create(
        self, settings: TableSettings, creator: Connection | None = None, *, play: bool = False
    ) -> Room:
        """A new room; ``play``: a table that starts at once against bots, which may take the
        rooms kept for them (see :mod:`.limits`)."""
        lim = self.limits
        open_rooms = len(self.rooms)
        if open_rooms >= lim.max_rooms:
            raise RoomError("busy", "the server has no room for another table")
        if not play and open_rooms >= lim.lobby_rooms:
            raise RoomError("busy", "the server has no room for another lobby; Play (a table "
                            "against bots) still starts")  # fmt: skip
        if creator is not None:
            mine = sum(1 for r in self.rooms.values() if r.creator is creator)
            if mine >= lim.rooms_per_connection:
                raise RoomError("too_many_rooms", f"a window may have {lim.rooms_per_connection} "
                                "open rooms; leave one first")  # fmt: skip
            here = sum(1 for r in self.rooms.values() if r.creator_address == creator.address)
            share = room_share(lim, open_rooms)
            if creator.address and here >= share:
                busy = "" if share == lim.rooms_per_address else " while the server is busy"
                raise RoomError("too_many_rooms", f"an address may have {share} open rooms{busy}"
                                "; leave one first")  # fmt: skip
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        while code in self.rooms:  # 32**5 codes for at most max_rooms rooms: ends at once
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        room = self.rooms[code] = Room(code, settings, self, creator)
        return room

    def create_seated(
        self, settings: TableSettings, creator: Connection, name: str, *, play: bool = False
    ) -> tuple[Room, str]:
        """A new room (:meth:`create`) with ``creator`` seated in it as its host, and the seat's
        token; when the creator may not sit (:meth:`check_seats`, :meth:`Room.join`) nothing is
        created."""
        self.check_seats(creator.address)
        room = self.create(settings, creator, play=play)
        try:
            token = room.join(creator, name)
        except RoomError:
            self._discard(room)
            raise
        return room, token

    def _discard(self, room: Room) -> None:
        """Forget a room nobody ever entered."""
        self.rooms.pop(room.code, None)
        room.closed = True

    def check_bot_match(self) -> None:
        """Refuse another bot match while the server plays its limit of them."""
        playing = sum(1 for r in self.rooms.values() if r.playing and not r.has_people)
        if playing >= self.limits.bot_matches:
            raise RoomError("busy", f"the server is showing {self.limits.bot_matches} bot "
                            "matches already: try again in a few minutes")  # fmt: skip

    def check_seats(self, address: str) -> None:
        """Refuse another person's seat for ``address`` when it holds its limit already."""
        if not address:
            return
        n = sum(
            1
            for r in self.rooms.values()
            for s in r.slots
            if s.kind == "person" and s.address == address
        )
        if n >= self.limits.seats_per_address:
            raise RoomError("too_many_seats", f"an address may hold {self.limits.seats_per_address}"
                            " seats")  # fmt: skip

    def get(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise RoomError("no_room", f"no room {code[:8]!r}")
        return room

    def new_seed(self) -> int:
        return self._seed()

    def game_id(self, code: str, n: int) -> str:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        gid = f"web-{stamp}-{code}-{n}"
        while gid in self._ids:
            gid += "x"
        self._ids.add(gid)
        return gid

    # ----------------------------------------------------------- model seats
    def model_choices(self) -> list[dict[str, str]]:
        return [
            {"player": name, "model": self.model_label(name)}
            for name in self.config.model_players()
        ]

    def model_label(self, player: str) -> str:
        return self.config.model_players()[player].label or player

    def model_agent(
        self,
        player: str,
        seat: int,
        game: Game,
        game_id: str,
        names: list[str],
        decision_seconds: float,
    ) -> Agent:
        """A model seat for ``player``, sharing its provider (and limits) with every table."""
        from harness.play.game_spec import GameSpec

        refused = self.model_refusal()
        if refused is not None:
            raise RoomError(NOTICE_CODE, refused)
        spec = GameSpec(game_id, game.n, game.mode, game.seed, 0, 0, (player,) * game.n,
                        tuple(names))  # fmt: skip
        agent = self._seats().seat(player, seat, spec)
        agent.decision_seconds = decision_seconds  # the table's timer, as for every seat
        return agent  # type: ignore[no-any-return]

    def _seats(self) -> Any:
        """The model seats of every table (built on first use, with the spend ledger)."""
        from harness.play.model_seats import ModelSeats

        if self._model_seats is None:
            self.store.prepare()  # the run folder keeps the model seats' system prompts
            self._model_seats = ModelSeats(self.config.seating(60.0), self.config.run_dir)
            self.spending.attach(self._model_seats)
        return self._model_seats

    def model_refusal(self) -> str | None:
        """Why no model can be seated now (a spending cap was reached), or ``None``."""
        self._seats()
        return self.spending.refusal()

    def _spending_notice(self, message: str) -> None:
        """A cap was reached: tables with a model seat hear it (one line)."""
        log.warning("%s", message)
        frame = {"type": "error", "code": NOTICE_CODE, "message": message}
        for room in self.rooms.values():
            if any(s.kind == "model" for s in room.slots):
                for c in room.connections():
                    c.send(frame)

    def check_models(self) -> None:
        """Build (and close) each model player's provider and seat once: this imports the SDKs
        and helpers a model seat needs (slow, so never on the event loop) and checks the API
        key.  Raises the provider's :class:`~harness.agents.llm_agent.FatalModelError` (one
        line) when a key is missing."""
        from harness.agents.model_spec import build_model_seat, build_provider
        from harness.play.agent_players import check_agent_players
        from harness.views.names import default_names

        check_agent_players(self.config.players)  # each agent: factory imports
        for name, p in self.config.model_players().items():
            if p.model is None:
                continue
            provider = build_provider(p.model)
            build_model_seat(p.model, name, default_names(4), self.config.locale, provider=provider)
            asyncio.run(provider.aclose())

    # ---------------------------------------------------------- housekeeping
    async def start(self) -> None:
        await asyncio.to_thread(self.store.trim)  # a lowered ``records`` limit applies at once
        try:
            await asyncio.to_thread(self.check_models)
            if self.config.model_players():
                self.spending.caps = await asyncio.to_thread(server_caps, self.config)
        except Exception as e:  # the table still works with bots; the seat's start will say why
            log.warning("model seats unavailable: %s", e)
        self._task = asyncio.get_running_loop().create_task(self._housekeeping())

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.tick(time.monotonic())

    def tick(self, now: float) -> None:
        lim = self.limits
        for code, room in list(self.rooms.items()):
            room.check_host(now, self.host_grace)
            # a table of bots only is closed as soon as nobody watches it
            if not room.has_people:
                idle = 0.0
            elif room.playing:
                idle = lim.game_idle_s
            else:
                idle = lim.lobby_idle_s
            if not room.playing and now - room.lobby_since >= lim.lobby_max_s:
                self._close(code, room, "expired", lobby_expired(lim.lobby_max_s))
            elif not room.connections() and now - room.idle_since >= idle:
                self._close(code, room)
        self.addresses.prune()

    def _close(self, code: str, room: Room, reason: str = "closed", message: str = "") -> None:
        del self.rooms[code]
        room.closed = True
        asyncio.get_running_loop().create_task(room.close(reason, message))

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.rebuilds.aclose()
        for room in list(self.rooms.values()):
            await room.close()
        self.rooms.clear()
        if self._model_seats is not None:
            await self._model_seats.aclose()
