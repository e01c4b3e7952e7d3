"""The one game recorder: a played game as the records of a run folder, for league games, web games
and Inspect samples alike.

A :class:`GameRecorder` is made when a game is dealt, with the game's identity (:class:`GameIdent`)
and who sits where (its ``seating``: the start line's :class:`~harness.records.record_models.SeatPlayer`
list).  It consumes the table's walk (:meth:`GameRecorder.walk`, or :meth:`GameRecorder.record`
for each :class:`~harness.agents.table.Step` the table yields) — the table never calls it — and
when the game is over :meth:`GameRecorder.finish` builds the end records: each seat's outcome
(with the tokens, cost, calls and invalid answers of its model records) and the game's
``games.jsonl`` line.  A continued game (a stopped league run) adds its recorded lines with
:meth:`GameRecorder.replayed`.

With ``digest`` every decision line carries the digest of the events before it and the time the
game was played so far (streamed league games; see :class:`harness.records.digest.EventDigest`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from harness.agents.decision_record import INVALID_KINDS, sum_reported
from harness.agents.seat import Decided
from harness.agents.table import SeatStats, Step, Table, TableResult
from harness.engine import Game
from harness.engine.roles import TEAM_OF
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, SeatOutcome
from harness.records.digest import EventDigest
from harness.records.record_models import VOID_SIDE, SeatPlayer
from harness.records.store import GameParts, game_parts, parse_game_parts

__all__ = [
    "GameIdent",
    "GameOutput",
    "GameRecorder",
    "LineSink",
    "decision_line",
    "end_records",
    "seat_outcome",
    "start_line",
]

LineSink = Callable[[DecisionLine], None]


@dataclass(frozen=True, slots=True)
class GameIdent:
    """What names a game in its records: the run, the game id, the deal (seed, seats, mode, deal
    number) and the rotation of the lineup."""

    run: str
    game_id: str
    seed: int
    seats: int
    mode: str
    deal: int = 0
    rotation: int = 0

    def fields(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "game_id": self.game_id,
            "seed": self.seed,
            "seats": self.seats,
            "mode": self.mode,
            "deal": self.deal,
            "rotation": self.rotation,
        }


@dataclass
class GameOutput:
    """A recorded game: its start line, decision lines, end line and ``games.jsonl`` line."""

    start: GameStart
    decisions: list[DecisionLine]
    end: GameEnd
    record: GameRecord

    def parts(self) -> GameParts:
        """The records as JSON text, to send to the process that writes the run."""
        return game_parts(self.start, self.decisions, self.end, self.record)

    @classmethod
    def from_parts(cls, parts: GameParts) -> GameOutput:
        return cls(*parse_game_parts(parts))


class GameRecorder:
    """The records of one game (see the module docstring)."""

    def __init__(
        self,
        ident: GameIdent,
        seating: Sequence[SeatPlayer],
        game: Game,
        *,
        digest: bool = False,
        elapsed_s: float = 0.0,
    ) -> None:
        """``elapsed_s``: the time the game was played before this session (a continued game);
        the game's ``duration_s`` adds this session's time to it."""
        self.ident = ident
        self.seating = list(seating)
        self.players = [s.player for s in self.seating]
        self.roles = [s.role for s in game.seats]
        self.decisions: list[DecisionLine] = []
        self.events = EventDigest() if digest else None
        self.elapsed_s = elapsed_s
        self.t0 = time.monotonic()

    @property
    def start(self) -> GameStart:
        """The start line of the game's file."""
        return start_line(self.ident, self.seating)

    def record(self, step: Step, players: Sequence[str] | None = None) -> DecisionLine:
        """The decision line of ``step`` (kept); ``players`` by seat when they changed since the
        game was dealt (a web seat a person took over), else the seating's."""
        digest = self.events.advance(step.game.events) if self.events is not None else None
        line = decision_line(
            self.ident.game_id,
            len(self.decisions) + 1,
            step.game,
            step.decided,
            self.players if players is None else players,
            self.roles,
            digest,
        )
        if self.events is not None:
            line.elapsed_s = round(self.elapsed_s + time.monotonic() - self.t0, 3)
        self.decisions.append(line)
        return line

    def replayed(self, line: DecisionLine) -> None:
        """Keep a recorded decision the table replayed (a continued game)."""
        self.decisions.append(line)

    async def walk(self, table: Table, on_line: LineSink | None = None) -> TableResult:
        """Consume ``table``'s walk to its end: each step recorded (and handed to ``on_line``)."""
        async for step in table.steps():
            line = self.record(step)
            if on_line is not None:
                on_line(line)
        return table.result()

    def finish(
        self, result: TableResult, duration_s: float | None = None, *, run: str | None = None
    ) -> GameOutput:
        """The game's records once ``result`` is final.  ``duration_s`` defaults to the time
        played (before this session and in it); ``run`` names the run when it was not known
        as the game was dealt."""
        if duration_s is None:
            duration_s = self.elapsed_s + time.monotonic() - self.t0
        ident = self.ident if run is None else replace(self.ident, run=run)
        outcomes = [
            seat_outcome(
                result.game, s.seat, s.player, s.kind, s.model, result.stats[i], self.decisions
            )
            for i, s in enumerate(self.seating)
        ]
        end, record = end_records(
            ident.fields(), result.game, len(self.decisions), outcomes, duration_s, result.void
        )
        return GameOutput(start_line(ident, self.seating), self.decisions, end, record)


def start_line(ident: GameIdent, seating: Sequence[SeatPlayer]) -> GameStart:
    """The start line of a game's file (written as a streamed game starts, and with its end)."""
    return GameStart(**ident.fields(), seating=list(seating))


def decision_line(
    game_id: str,
    index: int,
    game: Game,
    decided: Decided,
    players: Sequence[str],
    roles: Sequence[str],
    events_digest: str | None = None,
) -> DecisionLine:
    """The record of ``game``'s pending decision (the ``index``-th of the game) as ``decided``,
    made before the choice is applied; ``players`` and ``roles`` are by seat."""
    d = game.pending
    assert d is not None
    return DecisionLine(
        game_id=game_id,
        index=index,
        event_index=len(game.events),
        seat=d.seat,
        player=players[d.seat],
        role=roles[d.seat],
        decision_kind=d.kind,
        options=d.option_ids,
        chosen=decided.option,
        fallback=decided.fallback,
        error=decided.error,
        latency_s=round(decided.latency_s, 6),
        model=decided.record.model_dump(mode="json") if decided.record else None,
        events_digest=events_digest,
    )


def seat_outcome(
    game: Game,
    seat: int,
    player: str,
    kind: str,
    model: str | None,
    stats: SeatStats,
    decisions: Sequence[DecisionLine],
) -> SeatOutcome:
    """How ``seat`` ended the game, with the tokens, cost, calls and invalid answers of its
    model records among ``decisions``."""
    s = game.seats[seat]
    o = SeatOutcome(
        seat=seat,
        player=player,
        kind=kind,
        model=model,
        role=s.role,
        team=TEAM_OF[s.role],
        won=seat in game.winners,
        alive=s.alive,
        decisions=stats.decisions,
        fallbacks=dict(stats.fallbacks),
        latency_s=round(stats.latency_s, 6),
    )
    cached: list[int | None] = []
    for d in decisions:
        if d.seat != seat or d.model is None:
            continue
        m = d.model
        o.input_tokens += m.get("input_tokens", 0)
        cached.append(m.get("cached_input_tokens"))
        o.output_tokens += m.get("output_tokens", 0)
        o.reasoning_tokens += m.get("reasoning_tokens", 0)
        o.cost_usd += m.get("cost_usd") or 0.0
        attempts = m.get("attempts", [])
        o.model_calls += len(attempts)
        o.invalid_answers += sum(1 for a in attempts if a.get("error_kind") in INVALID_KINDS)
    o.cost_usd = round(o.cost_usd, 6)
    o.cached_input_tokens = sum_reported(cached) if cached else 0
    return o


def end_records(
    ident: dict[str, Any],
    game: Game,
    decisions: int,
    outcomes: list[SeatOutcome],
    duration_s: float,
    void: str | None = None,
) -> tuple[GameEnd, GameRecord]:
    """The end line of a game's file and its ``games.jsonl`` line; ``ident`` holds the run,
    game id, seed, seats, mode, deal and rotation.  A ``void`` game has no winners."""
    side = VOID_SIDE if void is not None else game.winning_side
    assert side is not None
    winners = [] if void is not None else list(game.winners)
    end = GameEnd(
        game_id=ident["game_id"],
        winning_side=side,
        winners=winners,
        rounds=game.round,
        decisions=decisions,
        events=game.events,
        void=void,
    )
    record = GameRecord(
        **ident,
        winning_side=side,
        winners=winners,
        rounds=game.round,
        high_noon=game.high_noon,
        decisions=decisions,
        seat_outcomes=outcomes,
        fallbacks=sum(sum(o.fallbacks.values()) for o in outcomes),
        cost_usd=round(sum(o.cost_usd for o in outcomes), 6),
        input_tokens=sum(o.input_tokens for o in outcomes),
        output_tokens=sum(o.output_tokens for o in outcomes),
        duration_s=round(duration_s, 3),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        void=void,
    )
    return end, record
