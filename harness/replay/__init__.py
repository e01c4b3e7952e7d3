"""Replay and inspection of recorded games.

* :func:`replay_game` re-runs a recorded game through the engine and verifies every decision and
  event (:mod:`harness.replay.verify`);
* :func:`replay_steps` walks a recorded game one decision at a time (viewers, reports);
* :func:`inspect_decisions` filters the decisions of a run and shows what each seat saw, the exact
  prompt and the model's raw answers (:mod:`harness.replay.decision_browser`).
"""

from .decision_browser import (
    DecisionDetail,
    DecisionFilter,
    decision_json,
    find_decisions,
    inspect_decisions,
    is_invalid,
    render_decisions_text,
)
from .verify import (
    Divergence,
    ReplayResult,
    ReplayStep,
    normalize_event,
    omniscient_event,
    replay_game,
    replay_records,
    replay_steps,
    seat_names,
)

__all__ = [
    "DecisionDetail",
    "DecisionFilter",
    "Divergence",
    "ReplayResult",
    "ReplayStep",
    "decision_json",
    "find_decisions",
    "inspect_decisions",
    "is_invalid",
    "normalize_event",
    "omniscient_event",
    "render_decisions_text",
    "replay_game",
    "replay_records",
    "replay_steps",
    "seat_names",
]
