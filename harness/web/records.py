"""Finished web games in the league's run-folder format, so ``league report``, ``replay``,
``inspect`` and ``report`` read them unchanged.

The game's file and its ``games.jsonl`` line come from :class:`~harness.records.RunStore`; people
are players of kind ``human`` (named as at the table) and their decision lines carry their
latency; rule bots are the player ``bot``; model seats the configured player.  A seat handed to
the bot (autopilot) keeps its player, and the bot's moves are recorded as fallbacks of kind
``autopilot``.  The table signals of each game are one line of ``signals.jsonl``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from harness.league.game_play import end_records, seat_outcome
from harness.records import RECORD_SCHEMA_VERSION, GameRecord, GameStart, RunStore
from harness.records.models import SeatPlayer
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
    outcomes = [
        seat_outcome(game, i, e.player, e.kind, e.model, match.result.stats[i], match.decisions)
        for i, e in enumerate(entries)
    ]
    end, record = end_records(ident, game, len(match.decisions), outcomes, duration_s)
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
