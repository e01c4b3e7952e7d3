"""Play one scheduled game and turn it into records.

:func:`play_scheduled` plays a game from its first decision, or continues one that a stopped run
left unfinished: the recorded decisions (``prior``) are replayed through the engine and the
seats first (same seed, same choices; each decision's seat, kind, options and event digest are
checked against the record, see :class:`harness.records.digest.EventDigest`) and play goes on
from the next decision, with no model call repeated.  ``on_line`` receives every new decision line
as it is made (the runner appends it to the game's file).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from harness.agents import Agent, Decided, RandomAgent
from harness.agents.decision_record import INVALID_KINDS, sum_reported
from harness.agents.rulebot import RuleBot
from harness.agents.seat import FallbackReason
from harness.agents.table import Recorded, ReplayMismatch, SeatStats, Table
from harness.agents.table_signals import TableSignals
from harness.engine import Game, SeatView
from harness.engine.roles import TEAM_OF
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, SeatOutcome
from harness.records.digest import EventDigest
from harness.records.models import VOID_SIDE, SeatPlayer
from harness.records.store import GameParts, game_parts, parse_game_parts

from .config import SEATED_KINDS, LeagueConfig
from .schedule import GameSpec

ModelSeatFactory = Callable[[str, int, GameSpec], Agent]
LineSink = Callable[[DecisionLine], None]


class ResumeMismatch(RuntimeError):
    """A recorded game that cannot be continued: its file does not match this run (one line)."""


@dataclass
class GameOutput:
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


def non_model_agent(kind: str, player: str, seat: int, spec: GameSpec) -> Agent:
    if kind == "bot":
        return RuleBot(player)
    return RandomAgent(player, seed=spec.seed + 7919 * seat)


def _history(config: LeagueConfig, player: str) -> str | None:
    p = config.player(player)
    return p.model.history if p.model is not None else None


def model_label(config: LeagueConfig, player: str) -> str | None:
    return config.player(player).label


def _ident(spec: GameSpec, run: str) -> dict[str, Any]:
    return {
        "run": run,
        "game_id": spec.game_id,
        "seed": spec.seed,
        "seats": spec.seats,
        "mode": spec.mode,
        "deal": spec.deal,
        "rotation": spec.rotation,
    }


def game_start(spec: GameSpec, config: LeagueConfig, run: str) -> GameStart:
    """The start line of ``spec``'s game."""
    return GameStart(
        **_ident(spec, run),
        seating=[
            SeatPlayer(
                seat=i,
                player=p,
                kind=config.player(p).kind,
                model=model_label(config, p),
                name=spec.names[i],
                history=_history(config, p),
            )
            for i, p in enumerate(spec.lineup)
        ],
    )


def _recorded(line: DecisionLine) -> Recorded:
    model_fallback = (line.model or {}).get("fallback")
    return Recorded(
        option=line.chosen,
        fallback=cast(FallbackReason | None, line.fallback),
        error=line.error,
        latency_s=line.latency_s,
        record=line.model,
        table_fallback=line.fallback is not None and model_fallback is None,
    )


def played_before(prior: Sequence[DecisionLine], start: GameStart | None = None) -> float:
    """The time a game was played before this session: its start line's ``elapsed_s`` (written
    when a run stopped) or its last recorded decision's (a killed run), whichever is later."""
    last = next((d.elapsed_s for d in reversed(prior) if d.elapsed_s is not None), None)
    return max(last or 0.0, (start.elapsed_s if start is not None else None) or 0.0)


def _check(game: Game, line: DecisionLine, n: int, digest: EventDigest, game_id: str) -> None:
    """Raise :class:`ResumeMismatch` when the replayed game is not where ``line`` was made."""
    p = game.pending
    problem = None
    if p is None:
        problem = "the replayed game is already over"
    elif line.index != n:
        problem = f"recorded index is {line.index}"
    elif line.event_index != len(game.events):
        problem = f"recorded after {line.event_index} events, the replay has {len(game.events)}"
    elif (line.seat, line.decision_kind, list(line.options)) != (p.seat, p.kind, p.option_ids):
        problem = (
            f"recorded seat {line.seat} {line.decision_kind} {line.options}, the replay has "
            f"seat {p.seat} {p.kind} {p.option_ids}"
        )
    else:
        now = digest.advance(game.events)
        if line.events_digest is not None and line.events_digest != now:
            problem = "the events before it differ from the recorded game"
    if problem is not None:
        raise ResumeMismatch(f"game {game_id} cannot be resumed at decision {n}: {problem}")


async def play_scheduled(
    spec: GameSpec,
    config: LeagueConfig,
    run: str,
    model_seat: ModelSeatFactory | None = None,
    *,
    prior: Sequence[DecisionLine] = (),
    on_line: LineSink | None = None,
    digest: bool = False,
    elapsed_s: float | None = None,
) -> GameOutput:
    """Play ``spec`` to the end (or until it is void).  ``model_seat(player, seat, spec)``
    builds model seats; ``prior`` are the recorded decisions of the game so far; ``digest``
    stores the event digest and the time played so far on every decision line (streamed games).
    ``elapsed_s`` is the time the game was played before this session (default: the last prior
    decision's ``elapsed_s``); the game's ``duration_s`` adds this session's time to it."""
    t0 = time.monotonic()
    if elapsed_s is None:
        elapsed_s = played_before(prior)
    agents: list[Agent] = []
    for seat, player in enumerate(spec.lineup):
        kind = config.player(player).kind
        if kind in SEATED_KINDS:
            if model_seat is None:
                raise ValueError("a model seat needs a model seat factory")
            agents.append(model_seat(player, seat, spec))
        else:
            agents.append(non_model_agent(kind, player, seat, spec))
    autopilots = (
        [RuleBot(f"autopilot {i}") for i in range(spec.seats)]
        if config.fallback == "autopilot"
        else None
    )
    game = Game.new(spec.seats, spec.mode, spec.seed)
    decisions: list[DecisionLine] = []
    roles = [s.role for s in game.seats]
    events = EventDigest() if digest or prior else None

    def on_decision(g: Game, view: SeatView, decided: Decided) -> None:
        digest = events.advance(g.events) if events is not None else None
        line = decision_line(
            spec.game_id, len(decisions) + 1, g, decided, spec.lineup, roles, digest
        )
        if events is not None:
            line.elapsed_s = round(elapsed_s + time.monotonic() - t0, 3)
        decisions.append(line)
        if on_line is not None:
            on_line(line)

    has_model = any(a.kind in SEATED_KINDS for a in agents)
    table = Table(
        game,
        agents,
        game_id=spec.game_id,
        timeout=config.decision_seconds if has_model else None,
        policy=config.fallback,
        autopilots=autopilots,
        on_decision=on_decision,
        max_model_fallbacks=config.max_consecutive_fallbacks,
        signals=TableSignals(spec.seats) if config.signals else None,
    )
    if prior:
        assert events is not None
        for n, line in enumerate(prior, 1):
            _check(game, line, n, events, spec.game_id)
            try:
                await table.replay(_recorded(line))
            except ReplayMismatch as e:
                raise ResumeMismatch(
                    f"game {spec.game_id} cannot be resumed at decision {n}: {e}"
                ) from None
            decisions.append(line)
    result = await table.play()
    return _output(spec, config, run, game, result.stats, decisions, result.void, t0 - elapsed_s)


def _output(
    spec: GameSpec,
    config: LeagueConfig,
    run: str,
    game: Game,
    stats: list[SeatStats],
    decisions: list[DecisionLine],
    void: str | None,
    t0: float,
) -> GameOutput:
    outcomes = [
        seat_outcome(
            game,
            i,
            player,
            config.player(player).kind,
            model_label(config, player),
            stats[i],
            decisions,
        )
        for i, player in enumerate(spec.lineup)
    ]
    end, record = end_records(
        _ident(spec, run), game, len(decisions), outcomes, time.monotonic() - t0, void
    )
    return GameOutput(game_start(spec, config, run), decisions, end, record)


# ---------------------------------------------------------------------------- records
# League games and web games (harness.web.records) are recorded by the same functions.


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
