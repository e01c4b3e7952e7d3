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

from harness.records import GameRecord
from harness.records.signal_records import SIGNALS_FILE, GameSignals, read_signals

from .match import Match
from .retention import WebStore

__all__ = ["SIGNALS_FILE", "GameSignals", "read_signals", "write_match"]


def write_match(store: WebStore, run: str, match: Match, duration_s: float) -> GameRecord:
    """Write ``match`` (finished) to ``store``; returns its ``games.jsonl`` record (built by the
    match's recorder, :class:`~harness.play.recorder.GameRecorder`)."""
    assert match.game.winning_side is not None and match.result is not None
    out = match.recorder.finish(match.result, duration_s, run=run)
    signals = None
    if match.signals.records:
        signals = GameSignals(game_id=match.game_id, signals=match.signals.records)
    store.write_game(out.start, out.decisions, out.end, out.record, signals)
    return out.record
