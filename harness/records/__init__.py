"""Saved files of a run: versioned pydantic models written as JSON Lines."""

from .record_models import (
    RECORD_SCHEMA_VERSION,
    DecisionLine,
    GameEnd,
    GameRecord,
    GameStart,
    SeatOutcome,
)
from .store import RunStore

__all__ = [
    "RECORD_SCHEMA_VERSION",
    "DecisionLine",
    "GameEnd",
    "GameRecord",
    "GameStart",
    "RunStore",
    "SeatOutcome",
]
