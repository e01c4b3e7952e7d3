"""Record models of a league run (``results/<run>/``).

* ``games.jsonl`` — one :class:`GameRecord` per finished game, appended and flushed when the game
  ends (a crash loses at most the games in flight).
* ``games/<game_id>.jsonl`` — the game's own file: a :class:`GameStart` line, one
  :class:`DecisionLine` per decision (model seats carry their full model decision record), and a
  :class:`GameEnd` line with the complete engine event log, so replay can verify every event.
* ``system_prompts.jsonl`` — each distinct system prompt once, keyed by its sha256.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RECORD_SCHEMA_VERSION = 1


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = RECORD_SCHEMA_VERSION


class SeatPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    player: str  # the league player (config name)
    kind: Literal["model", "bot", "random"]
    model: str | None = None  # provider/model for model seats
    name: str  # the name shown at the table


class GameStart(_Record):
    kind: Literal["game_start"] = "game_start"
    run: str
    game_id: str
    seed: int
    seats: int
    mode: str
    deal: int  # index of the deal (paired play replays a deal with players rotated)
    rotation: int
    seating: list[SeatPlayer]


class DecisionLine(_Record):
    kind: Literal["decision"] = "decision"
    game_id: str
    index: int  # 1-based, in game order
    event_index: int  # number of engine events before this decision
    seat: int
    player: str
    role: str
    decision_kind: str
    options: list[str]
    chosen: str
    fallback: str | None = None
    error: str | None = None
    latency_s: float
    model: dict[str, Any] | None = None  # ModelDecisionRecord (model seats)


class SeatOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    player: str
    kind: str
    model: str | None = None
    role: str
    team: str
    won: bool
    alive: bool
    decisions: int
    fallbacks: dict[str, int] = Field(default_factory=dict)
    invalid_answers: int = 0  # model answers that were unparseable or illegal (before fallback)
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    model_calls: int = 0


class GameEnd(_Record):
    kind: Literal["game_end"] = "game_end"
    game_id: str
    winning_side: str
    winners: list[int]
    rounds: int
    decisions: int
    events: list[dict[str, Any]]


class GameRecord(_Record):
    """One line of ``games.jsonl``."""

    run: str
    game_id: str
    seed: int
    seats: int
    mode: str
    deal: int
    rotation: int
    winning_side: str
    winners: list[int]
    rounds: int
    high_noon: bool
    decisions: int
    seat_outcomes: list[SeatOutcome]
    fallbacks: int
    cost_usd: float
    input_tokens: int
    output_tokens: int
    duration_s: float
    finished_at: str
