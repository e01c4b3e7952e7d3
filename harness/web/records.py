"""Finished web games in the league's run-folder format, so ``league report``, ``replay``,
``inspect`` and ``report`` read them unchanged.

The game's file and its ``games.jsonl`` line come from :class:`~harness.records.RunStore`; people
are players of kind ``human`` (named as at the table) and their decision lines carry their
latency; rule bots are the player ``bot``; model seats the configured player.  A seat handed to
the bot (autopilot) keeps its player, and the bot's moves are recorded as fallbacks of kind
``autopilot``.  The table signals of each game are one line of ``signals.jsonl``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from harness.engine.roles import TEAM_OF
from harness.league.game_play import INVALID_KINDS
from harness.records import RECORD_SCHEMA_VERSION, GameEnd, GameRecord, GameStart, RunStore
from harness.records.models import SeatOutcome, SeatPlayer
from harness.records.store import _append_line

from .match import Match
from .signals import SignalRecord

SIGNALS_FILE = "signals.jsonl"


class GameSignals(BaseModel):
    """One line of ``signals.jsonl``: every signal of one game, in order."""

    model_config = ConfigDict(extra="forbid")
    schema_version: int = RECORD_SCHEMA_VERSION
    kind: Literal["signals"] = "signals"
    game_id: str
    signals: list[SignalRecord]


def write_match(store: RunStore, run: str, match: Match, duration_s: float) -> GameRecord:
    """Write ``match`` (finished) to ``store``; returns its ``games.jsonl`` record."""
    game, entries = match.game, match.entries
    assert game.winning_side is not None and match.result is not None
    ident: dict[str, Any] = {
        "run": run, "game_id": match.game_id, "seed": game.seed, "seats": game.n,
        "mode": game.mode, "deal": 0, "rotation": 0,
    }  # fmt: skip
    start = GameStart(
        **ident,
        seating=[
            SeatPlayer(seat=i, player=e.player, kind=e.kind, model=e.model, name=e.name)
            for i, e in enumerate(entries)
        ],
    )
    outcomes = []
    for s in game.seats:
        e, st = entries[s.index], match.result.stats[s.index]
        o = SeatOutcome(
            seat=s.index, player=e.player, kind=e.kind, model=e.model, role=s.role,
            team=TEAM_OF[s.role], won=s.index in game.winners, alive=s.alive,
            decisions=st.decisions, fallbacks=dict(st.fallbacks),
            latency_s=round(st.latency_s, 6),
        )  # fmt: skip
        for d in match.decisions:
            if d.seat != s.index or d.model is None:
                continue
            m = d.model
            o.input_tokens += m.get("input_tokens", 0)
            o.cached_input_tokens += m.get("cached_input_tokens", 0)
            o.output_tokens += m.get("output_tokens", 0)
            o.reasoning_tokens += m.get("reasoning_tokens", 0)
            o.cost_usd += m.get("cost_usd") or 0.0
            attempts = m.get("attempts", [])
            o.model_calls += len(attempts)
            o.invalid_answers += sum(1 for a in attempts if a.get("error_kind") in INVALID_KINDS)
        o.cost_usd = round(o.cost_usd, 6)
        outcomes.append(o)
    end = GameEnd(
        game_id=match.game_id,
        winning_side=game.winning_side,
        winners=list(game.winners),
        rounds=game.round,
        decisions=len(match.decisions),
        events=game.events,
    )
    record = GameRecord(
        **ident,
        winning_side=game.winning_side,
        winners=list(game.winners),
        rounds=game.round,
        high_noon=game.high_noon,
        decisions=len(match.decisions),
        seat_outcomes=outcomes,
        fallbacks=sum(sum(o.fallbacks.values()) for o in outcomes),
        cost_usd=round(sum(o.cost_usd for o in outcomes), 6),
        input_tokens=sum(o.input_tokens for o in outcomes),
        output_tokens=sum(o.output_tokens for o in outcomes),
        duration_s=round(duration_s, 3),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    store.prepare()
    if match.signals.records:
        line = GameSignals(game_id=match.game_id, signals=match.signals.records)
        _append_line(store.root / SIGNALS_FILE, line.model_dump_json())
    store.write_game(start, match.decisions, end, record)
    return record


def read_signals(run_dir: Path) -> dict[str, GameSignals]:
    """The signals of every game of a run folder, by game id."""
    path = Path(run_dir) / SIGNALS_FILE
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            g = GameSignals.model_validate_json(line)
            out[g.game_id] = g
    return out
