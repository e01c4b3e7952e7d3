"""Record models of a league run (``results/<run>/``).

* ``games.jsonl`` — one :class:`GameRecord` per finished game (void games included, with their
  reason), appended and flushed when the game ends; only games listed here count as finished.
* ``games/<game_id>.jsonl`` — the game's own file: a :class:`GameStart` line, one
  :class:`DecisionLine` per decision (model seats carry their full model decision record), and a
  :class:`GameEnd` line with the complete engine event log, so replay can verify every event.
  Games with model seats append each decision line as it is made (flushed), so a stopped run
  keeps every decision and ``--resume`` continues the game from the next one; the time played so
  far is kept too (each decision's ``elapsed_s``, and the start line's ``elapsed_s`` written when
  a run stops), so a resumed game's ``duration_s`` covers every session that played it.
* ``spend.jsonl`` — the spend ledger: one line per model call (see
  :mod:`harness.play.ledger`).
* ``system_prompts.jsonl`` — each distinct system prompt once, keyed by its sha256.

A **void** game (``void`` set to its reason) was ended before its result: its seats kept falling
back (a model that never answers validly) or it passed the decision limit.  Its ``winning_side``
is ``"void"`` and it has no winners; it counts as finished but not as a result.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RECORD_SCHEMA_VERSION = 1
VOID_SIDE = "void"  # the winning_side of a void game


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = RECORD_SCHEMA_VERSION


class SeatPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    player: str  # the league player (config name)
    # human: a person at the web table; agent, remote, mcp: an external agent (harness.agents)
    kind: Literal["model", "bot", "random", "human", "agent", "remote", "mcp", "inspect"]
    model: str | None = None  # provider/model for model seats
    name: str  # the name shown at the table
    history: str | None = None  # a model seat's history policy (conversation, log, since_last)


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
    # seconds this game had been played before the latest session took it up (a resumed game:
    # the time before its stop, written when the run stopped or resumed); None for a game played
    # in one go
    elapsed_s: float | None = None


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
    # sha256 chain over the engine events before this decision (see harness.records.digest);
    # set on streamed games so that a resumed game is verified event by event
    events_digest: str | None = None
    # seconds of play of the game when this decision was made, every session that played it
    # summed (streamed games): a resumed game's duration continues from it
    elapsed_s: float | None = None


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
    cached_input_tokens: int | None = 0  # None: no model call reported its cached tokens
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
    void: str | None = None  # why the game was ended without a result


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
    void: str | None = None  # why the game was ended without a result (excluded from win rates)
