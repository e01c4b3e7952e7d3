"""Finished web games in the league's run-folder format, so ``league report``, ``replay``,
``inspect`` and ``report`` read them unchanged.

The game's file and its ``games.jsonl`` line come from :class:`~harness.records.RunStore`; people
are players of kind ``human`` (named as at the table) and their decision lines carry their
latency; rule bots are the player ``bot``; model seats the configured player.  A seat handed to
the bot (autopilot) keeps its player, and the bot's moves are recorded as fallbacks of kind
``autopilot``.  The table signals of each game are one line of ``signals.jsonl``.  The folder
keeps the config's ``records`` limits (:mod:`.retention`).
"""

from __future__ import annotations

from typing import Any

from harness.league.game_play import end_records, seat_outcome
from harness.records import GameRecord, GameStart
from harness.records.models import SeatPlayer
from harness.records.signals import SIGNALS_FILE, GameSignals, read_signals

from .match import Match
from .retention import WebStore

__all__ = ["SIGNALS_FILE", "GameSignals", "read_signals", "write_match"]


def write_match(store: WebStore, run: str, match: Match, duration_s: float) -> GameRecord:
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
    signals = None
    if match.signals.records:
        signals = GameSignals(game_id=match.game_id, signals=match.signals.records)
    store.write_game(start, match.decisions, end, record, signals)
    return record
