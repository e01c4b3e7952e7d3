"""Play one scheduled game and turn it into records.

:func:`play_scheduled` plays a game from its first decision, or continues one that a stopped run
left unfinished: the recorded decisions (``prior``) are replayed through the engine and the
seats first (same seed, same choices; each decision's seat, kind, options and event digest are
checked against the record, see :class:`harness.records.digest.EventDigest`) and play goes on
from the next decision, with no model call repeated.  ``on_line`` receives every new decision line
as it is made (the runner appends it to the game's file).  The seats come from
:func:`harness.play.seats.seat_lineup` and the records from the one game recorder
(:class:`harness.play.recorder.GameRecorder`), which consumes the table's walk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from harness.agents.rulebot import RuleBot
from harness.agents.seat import FallbackReason
from harness.agents.table import Recorded, ReplayMismatch, Table
from harness.agents.table_signals import TableSignals
from harness.engine import Game
from harness.play.game_spec import GameSpec
from harness.play.players import SEATED_KINDS
from harness.play.recorder import GameIdent, GameOutput, GameRecorder, LineSink, start_line
from harness.play.seats import ModelSeatFactory, seat_lineup
from harness.records import DecisionLine, GameStart
from harness.records.digest import EventDigest
from harness.records.record_models import SeatPlayer

from .league_config import LeagueConfig

__all__ = [
    "GameOutput",
    "ResumeMismatch",
    "game_start",
    "play_scheduled",
    "played_before",
    "seating",
]


class ResumeMismatch(RuntimeError):
    """A recorded game that cannot be continued: its file does not match this run (one line)."""


def _ident(spec: GameSpec, run: str) -> GameIdent:
    return GameIdent(run, spec.game_id, spec.seed, spec.seats, spec.mode, spec.deal, spec.rotation)


def seating(spec: GameSpec, config: LeagueConfig) -> list[SeatPlayer]:
    """Who sits where in ``spec``'s game: each seat's player, kind, label, name and history."""
    out = []
    for i, p in enumerate(spec.lineup):
        player = config.player(p)
        out.append(
            SeatPlayer(
                seat=i,
                player=p,
                kind=player.kind,
                model=player.label,
                name=spec.names[i],
                history=player.model.history if player.model is not None else None,
            )
        )
    return out


def game_start(spec: GameSpec, config: LeagueConfig, run: str) -> GameStart:
    """The start line of ``spec``'s game."""
    return start_line(_ident(spec, run), seating(spec, config))


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
    if elapsed_s is None:
        elapsed_s = played_before(prior)
    kinds = {p.name: p.kind for p in config.players}
    agents = seat_lineup(spec, kinds, model_seat)
    autopilots = (
        [RuleBot(f"autopilot {i}") for i in range(spec.seats)]
        if config.fallback == "autopilot"
        else None
    )
    game = Game.new(spec.seats, spec.mode, spec.seed)
    recorder = GameRecorder(
        _ident(spec, run),
        seating(spec, config),
        game,
        digest=digest or bool(prior),
        elapsed_s=elapsed_s,
    )
    has_model = any(a.kind in SEATED_KINDS for a in agents)
    table = Table(
        game,
        agents,
        game_id=spec.game_id,
        timeout=config.decision_seconds if has_model else None,
        policy=config.fallback,
        autopilots=autopilots,
        max_model_fallbacks=config.max_consecutive_fallbacks,
        signals=TableSignals(spec.seats) if config.signals else None,
    )
    if prior:
        assert recorder.events is not None
        for n, line in enumerate(prior, 1):
            _check(game, line, n, recorder.events, spec.game_id)
            try:
                await table.replay(_recorded(line))
            except ReplayMismatch as e:
                raise ResumeMismatch(
                    f"game {spec.game_id} cannot be resumed at decision {n}: {e}"
                ) from None
            recorder.replayed(line)
    result = await recorder.walk(table, on_line)
    return recorder.finish(result)
