"""One game at a web table, played by the league's table runner.

Every seat is a :class:`~harness.web.web_seat.WebSeat`; the table
(:class:`~harness.agents.table.Table`) asks them in turn with the table's decision timer and the R-5
fallback, exactly as in a league game.
Before each decision the room pushes every connection its new view (so views follow every applied
action); the seat then takes its time by a rule that does not depend on its number of options
(:mod:`harness.web.pacing`): a person is asked every decision of theirs, forced ones included,
with the timer shown to everyone, and a bot's or model's move comes after the table's pause (the
speed setting).
Each decision is kept as a league :class:`~harness.records.DecisionLine`, with a person's latency,
by the one game recorder (:class:`~harness.play.recorder.GameRecorder`), which consumes the
table's walk (:meth:`~harness.agents.table.Table.steps`).
A person's timeout settles the rest of their turn (see :mod:`harness.web.web_seat`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.agents.table import GameDidNotEnd, Step, Table, TableResult
from harness.engine import Game
from harness.play.ledger import current_game
from harness.play.recorder import GameIdent, GameRecorder
from harness.records import DecisionLine
from harness.records.record_models import SeatPlayer

from .match_stats import player_stats
from .signal_board import SignalBoard
from .web_seat import WebSeat

RecordKind = Literal["human", "bot", "model", "random", "agent", "remote", "mcp", "inspect"]


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """Who sat in a seat when the game started, as the record names them."""

    player: str
    kind: RecordKind
    model: str | None
    name: str


@dataclass
class Match:
    game: Game
    game_id: str
    seats: list[WebSeat]
    decision_seconds: float
    entries: list[SeatEntry]
    run: str = "web"  # the run folder's name (the config's)
    started_wall: float = field(default_factory=time.time)
    recorder: GameRecorder = field(init=False)
    signals: SignalBoard = field(init=False)
    decision_started: float = 0.0
    deciding: int = -1
    action_at: float = 0.0  # wall clock of the last applied action
    result: TableResult | None = None
    task: asyncio.Task[None] | None = None
    on_timeout: Callable[[int], None] | None = None  # a person's turn was settled by a timeout

    def __post_init__(self) -> None:
        self.signals = SignalBoard(self.game.n)
        g = self.game
        seating = [
            SeatPlayer(seat=i, player=e.player, kind=e.kind, model=e.model, name=e.name)
            for i, e in enumerate(self.entries)
        ]
        self.recorder = GameRecorder(
            GameIdent(self.run, self.game_id, g.seed, g.n, g.mode), seating, g
        )
        self.started_kinds = [s.controller for s in self.seats]
        self.started_players = [s.player for s in self.seats]

    @property
    def decisions(self) -> list[DecisionLine]:
        """The game's decision lines so far."""
        return self.recorder.decisions

    @property
    def decision_no(self) -> int:
        """The 1-based number of the pending decision (what an ``act`` message names)."""
        return len(self.decisions) + 1

    @property
    def over(self) -> bool:
        return self.game.winning_side is not None

    def asks(self, seat: int) -> bool:
        """Whether the person in ``seat`` is asked the pending decision: every decision of a
        person's seat that the bot does not play, whatever its number of options (a forced
        decision is asked too, so nobody else learns that the seat had no choice)."""
        d = self.game.pending
        return d is not None and d.seat == seat == self.deciding and not self.seats[seat].automated

    def timer(self) -> dict[str, Any] | None:
        """The pending decision's timer, shown to everyone at the portrait of a person who must
        decide (the same for a forced decision as for any other)."""
        if self.over or self.deciding < 0 or not self.asks(self.deciding):
            return None
        left = self.decision_seconds - (time.monotonic() - self.decision_started)
        return {"seat": self.deciding, "left": round(max(0.0, left), 2),
                "total": self.decision_seconds}  # fmt: skip

    def started(self, seat: int) -> None:
        self.deciding = seat
        self.decision_started = time.monotonic()

    def _recorded(self, step: Step) -> None:
        """Keep ``step``'s decision line (the seats' players now: a person may have taken a seat
        over) and settle a person's turn after a timeout."""
        self.recorder.record(step, [s.player for s in self.seats])
        game, decided = step.game, step.decided
        if decided.fallback == "timeout" and game.pending is not None:
            seat = game.pending.seat
            if self.seats[seat].timed_out() and self.on_timeout is not None:
                self.on_timeout(seat)  # the bot plays the rest of the turn
        self.deciding = -1
        self.action_at = time.time()

    async def play(self, on_end: Callable[[Match], Awaitable[None]]) -> None:
        current_game.set(self.game_id)  # the spend ledger's lines of this game's model calls
        table = Table(
            self.game,
            self.seats,
            game_id=self.game_id,
            timeout=self.decision_seconds,
            policy="simplest",
        )
        async for step in table.steps():
            self._recorded(step)
        self.result = table.result()
        if self.result.void is not None:
            raise GameDidNotEnd(self.result.void)
        self.action_at = time.time()
        await on_end(self)

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: who played it and how (for the game-over screen)."""
        out = []
        assert self.result is not None
        counted = player_stats(self.game.events, self.game.n)
        for i, st in enumerate(self.result.stats):
            out.append(
                {
                    "kind": self.started_kinds[i],
                    "player": self.started_players[i],
                    "decisions": st.decisions,
                    "fallbacks": sum(st.fallbacks.values()),
                    "seconds": round(st.latency_s, 1),
                    "stats": counted[i].as_dict(),
                }
            )
        return out
