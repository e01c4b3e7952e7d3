"""Table signals in a run folder (RULES.md §10, docs/signals.md).

People's signals at the web table are written per game as one :class:`GameSignals` line of
``signals.jsonl``; a model seat's signal (a league with ``signals: true``) is kept in its decision's
model record (``signal``, or ``signal_refused`` with the reason).  :func:`game_signals` reads both
into one list per game, in the order they were sent, for the report's metrics.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .record_models import RECORD_SCHEMA_VERSION, DecisionLine
from .store import read_records

SIGNALS_FILE = "signals.jsonl"


class SignalRecord(BaseModel):
    """One accepted signal as recorded with the game."""

    model_config = ConfigDict(extra="forbid")

    index: int  # 1-based, in the order accepted
    seat: int
    kind: str  # claim | mark | react
    role: str | None = None
    target: int | None = None
    reaction: str | None = None
    event_index: int  # engine events before the signal
    t: float  # seconds since the game started


class GameSignals(BaseModel):
    """One line of ``signals.jsonl``: every signal of one game, in order."""

    model_config = ConfigDict(extra="forbid")
    schema_version: int = RECORD_SCHEMA_VERSION
    kind: Literal["signals"] = "signals"
    game_id: str
    signals: list[SignalRecord]


def read_signals(run_dir: Path) -> dict[str, GameSignals]:
    """The signals of every game of a run folder's ``signals.jsonl``, by game id.  Raises
    :class:`~harness.records.store.RecordError` for a line that is not a game's signals."""
    lines = read_records(Path(run_dir) / SIGNALS_FILE, GameSignals, "a game's signals")
    return {g.game_id: g for g in lines}


def game_signals(
    decisions: list[DecisionLine], people: GameSignals | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every accepted signal of one game (``seat``, ``kind``, ``role``, ``target``,
    ``reaction``, ``at`` = engine events before it), people's and models', in the order sent;
    and every refused model signal (``seat``, ``reason``)."""
    accepted: list[tuple[int, int, dict[str, Any]]] = []
    refused: list[dict[str, Any]] = []
    for d in decisions:
        m = d.model or {}
        if m.get("signal_refused"):
            refused.append({"seat": d.seat, "reason": str(m["signal_refused"])})
        elif isinstance(m.get("signal"), dict):
            s = m["signal"]
            accepted.append((d.event_index, 0, _signal(d.seat, s, d.event_index)))
    for r in people.signals if people is not None else ():
        accepted.append((r.event_index, 1, _signal(r.seat, r.model_dump(), r.event_index)))
    accepted.sort(key=lambda x: (x[0], x[1]))
    return [a[2] for a in accepted], refused


def _signal(seat: int, s: dict[str, Any], at: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "kind": s.get("kind"),
        "role": s.get("role"),
        "target": s.get("target"),
        "reaction": s.get("reaction"),
        "at": at,
    }
