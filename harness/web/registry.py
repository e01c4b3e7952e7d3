"""All rooms of one server, with what they share: the config, the run folder, model seats, the
per-address counters (:mod:`.limits`) and the housekeeping loop (the host role passes on after
:data:`HOST_GRACE_S`; rooms nobody is connected to are closed after the config's ``limits``
``lobby_idle_s`` or ``game_idle_s``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from harness.agents.base import Agent
from harness.engine import Game

from .config import WebConfig
from .connection import Connection
from .limits import Addresses
from .protocol import TableSettings
from .rebuilds import Rebuilds
from .retention import WebStore
from .rooms import Room, RoomError
from .spending import NOTICE_CODE, SpendingGuard, server_caps

log = logging.getLogger(__name__)

HOST_GRACE_S = 30.0
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 5
PAUSES = {"slow": 2.0, "normal": 1.0, "fast": 0.3}  # seconds before a bot's move


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
    def create(self, settings: TableSettings, creator: Connection | None = None) -> Room:
        lim = self.limits
        if len(self.rooms) >= lim.max_rooms:
            raise RoomError("busy", "the server has no room for another table")
        if creator is not None:
            mine = sum(1 for r in self.rooms.values() if r.creator is creator)
            if mine >= lim.rooms_per_connection:
                raise RoomError("too_many_rooms", f"a window may have {lim.rooms_per_connection} "
                                "open rooms; leave one first")  # fmt: skip
            here = sum(1 for r in self.rooms.values() if r.creator_address == creator.address)
            if creator.address and here >= lim.rooms_per_address:
                raise RoomError("too_many_rooms", f"an address may have {lim.rooms_per_address} "
                                "open rooms; leave one first")  # fmt: skip
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        while code in self.rooms:  # 32**5 codes for at most max_rooms rooms: ends at once
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        room = self.rooms[code] = Room(code, settings, self, creator)
        return room

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
        from harness.league.schedule import GameSpec

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
        from harness.league.model_seats import ModelSeats

        if self._model_seats is None:
            self.store.prepare()  # the run folder keeps the model seats' system prompts
            self._model_seats = ModelSeats(self.config.league_config(60.0), self.config.run_dir)
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
        from harness.league.agent_players import check_agent_players
        from harness.views.names import default_names

        check_agent_players(self.config.league_config(60.0))  # each agent: factory imports
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
        for code, room in list(self.rooms.items()):
            room.check_host(now, self.host_grace)
            # a table of bots only is closed as soon as nobody watches it
            if not room.has_people:
                idle = 0.0
            elif room.playing:
                idle = self.limits.game_idle_s
            else:
                idle = self.limits.lobby_idle_s
            if not room.connections() and now - room.idle_since >= idle:
                del self.rooms[code]
                room.closed = True
                asyncio.get_running_loop().create_task(room.close())
        self.addresses.prune()

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
