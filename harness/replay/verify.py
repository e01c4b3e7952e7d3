"""Re-run a recorded game through the engine and check that it happened exactly as recorded.

A game is fully determined by its seat count, mode, seed and chosen actions (see the engine
contract), so :func:`replay_game` re-creates it with ``Game.new(seats, mode, seed)``, applies every
recorded ``chosen`` in order and checks, decision by decision, that

* the events so far equal the recorded event log, event by event;
* the pending decision's seat, kind and option list equal the record (and ``event_index`` is the
  number of events before it);
* the recorded choice is legal;

and at the end that the game is over and the whole log equals the recorded one.  Events are
checked before each decision, so a tampered event or a different choice is reported as the FIRST
event that differs (index, expected, actual); a record whose decisions no longer match is reported
as that decision.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.engine import EngineError, Game
from harness.records import DecisionLine, GameEnd, GameStart, RunStore

__all__ = [
    "Divergence",
    "ReplayResult",
    "ReplayStep",
    "normalize_event",
    "omniscient_event",
    "replay_game",
    "replay_records",
    "replay_steps",
    "seat_names",
]

DivergenceKind = Literal["event", "decision", "setup", "record"]


def normalize_event(event: dict[str, Any]) -> Any:
    """The event as it reads back from JSON (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(event, ensure_ascii=False))


def omniscient_event(event: dict[str, Any]) -> dict[str, Any]:
    """The event with its secret parts shown (what an all-seeing spectator reads)."""
    if "to" not in event:
        return event
    out = {k: v for k, v in event.items() if k not in ("to", "secret")}
    out.update(event.get("secret", {}))
    return out


def seat_names(start: GameStart) -> list[str]:
    """The table name of every seat (``GameStart.seating``), ``seat N`` when missing."""
    by_seat = {s.seat: s.name for s in start.seating}
    return [by_seat.get(i, f"seat {i}") for i in range(start.seats)]


def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Divergence:
    """The first point where the replay and the record disagree.

    ``index`` is the 0-based event index for ``kind == "event"``, the 1-based decision index for
    ``kind == "decision"``, else 0.  ``expected`` is the recorded value, ``actual`` the replay's
    (``None`` when one side has no such event).
    """

    kind: DivergenceKind
    index: int
    expected: Any
    actual: Any
    detail: str

    def message(self, game_id: str) -> str:
        """One line naming the game and the differing event or decision."""
        if self.kind == "event":
            return (
                f"game {game_id} diverges at event {self.index}: {self.detail}; "
                f"recorded {_short(self.expected)} but replay gave {_short(self.actual)}"
            )
        if self.kind == "decision":
            return f"game {game_id} diverges at decision {self.index}: {self.detail}"
        return f"game {game_id}: {self.detail}"


@dataclass
class ReplayResult:
    """Outcome of :func:`replay_game`; ``game`` is the replayed game (at the end, or where the
    replay stopped)."""

    game_id: str
    start: GameStart
    decisions: list[DecisionLine]
    end: GameEnd
    game: Game | None
    decisions_checked: int = 0
    events_checked: int = 0
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def summary(self) -> str:
        """``verified: N decisions, M events`` or the divergence line."""
        if self.divergence is not None:
            return self.divergence.message(self.game_id)
        return f"verified: {self.decisions_checked} decisions, {self.events_checked} events"


@dataclass
class _EventChecker:
    expected: list[Any]
    checked: int = 0

    def check(self, events: Sequence[dict[str, Any]]) -> Divergence | None:
        """Compare the events not yet checked with the recorded log."""
        while self.checked < len(events):
            i = self.checked
            actual = normalize_event(events[i])
            if i >= len(self.expected):
                return Divergence("event", i, None, actual, "the replay has more events")
            if actual != self.expected[i]:
                return Divergence(
                    "event", i, self.expected[i], actual, _diff_keys(self.expected[i], actual)
                )
            self.checked += 1
        return None


def _diff_keys(expected: Any, actual: Any) -> str:
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = sorted(
            k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k)
        )
        return "fields differ: " + ", ".join(keys)
    return "events differ"


def replay_records(start: GameStart, decisions: list[DecisionLine], end: GameEnd) -> ReplayResult:
    """Verify one game's records (see the module docstring)."""
    result = ReplayResult(start.game_id, start, decisions, end, None)
    try:
        game = Game.new(start.seats, start.mode, start.seed)
    except EngineError as e:
        result.divergence = Divergence("setup", 0, None, None, f"cannot deal the game: {e}")
        return result
    result.game = game
    checker = _EventChecker([normalize_event(e) for e in end.events])

    def fail(div: Divergence) -> ReplayResult:
        result.divergence = div
        result.events_checked = checker.checked
        return result

    for n, d in enumerate(decisions, 1):
        div = checker.check(game.events)
        if div is not None:
            return fail(div)
        p = game.pending
        if p is None:
            return fail(
                Divergence(
                    "decision", n, d.decision_kind, None, "the replayed game is already over"
                )
            )
        if d.index != n:
            return fail(Divergence("decision", n, n, d.index, f"recorded index is {d.index}"))
        checks = (
            ("event_index", d.event_index, len(game.events)),
            ("seat", d.seat, p.seat),
            ("kind", d.decision_kind, p.kind),
            ("options", list(d.options), list(p.option_ids)),
        )
        for what, expected, actual in checks:
            if expected != actual:
                return fail(
                    Divergence(
                        "decision",
                        n,
                        expected,
                        actual,
                        f"{what}: recorded {_short(expected)}, replay has {_short(actual)}",
                    )
                )
        try:
            game.apply(d.chosen)
        except EngineError as e:
            return fail(
                Divergence(
                    "decision",
                    n,
                    d.chosen,
                    None,
                    f"recorded choice {d.chosen!r} cannot be applied: {e}",
                )
            )
        result.decisions_checked = n
    div = checker.check(game.events)
    if div is not None:
        return fail(div)
    if checker.checked < len(checker.expected):
        i = checker.checked
        return fail(
            Divergence("event", i, checker.expected[i], None, "the recorded log has more events")
        )
    result.events_checked = checker.checked
    if game.pending is not None and not end.void:
        return fail(
            Divergence(
                "decision",
                len(decisions) + 1,
                None,
                game.pending.kind,
                f"the game is not over after the last recorded decision: "
                f"seat {game.pending.seat} must decide {game.pending.kind}",
            )
        )
    if end.decisions != len(decisions):
        return fail(
            Divergence(
                "record",
                0,
                end.decisions,
                len(decisions),
                f"game end says {end.decisions} decisions, the file has {len(decisions)}",
            )
        )
    if end.void:  # ended without a result: the replay must still be mid-game
        if game.pending is None:
            return fail(
                Divergence(
                    "record",
                    0,
                    end.void,
                    game.winning_side,
                    f"the game is recorded void ({end.void}) but the replay ended with a result",
                )
            )
        return result
    if game.winning_side != end.winning_side or list(game.winners) != list(end.winners):
        return fail(
            Divergence(
                "record",
                0,
                end.winning_side,
                game.winning_side,
                f"recorded result {end.winning_side} {end.winners}, replay "
                f"{game.winning_side} {list(game.winners)}",
            )
        )
    return result


def replay_game(store: RunStore, game_id: str) -> ReplayResult:
    """Replay ``game_id`` of ``store`` and verify every decision and event.

    Raises :class:`harness.records.store.RecordError` when the game's file is missing or broken.
    """
    start, decisions, end = store.read_game(game_id)
    return replay_records(start, decisions, end)


@dataclass
class ReplayStep:
    """The game just before decision ``decision`` (``None`` for the final, game-over step).

    ``game`` is the live replayed game: read it before advancing the iterator.  ``seen[s]`` is
    the event count of seat ``s``'s previous view, so ``build_view(game, s, since=seen[s])``
    is exactly the view the seat was given (the feed since its last decision).
    """

    index: int  # 0-based step number
    game: Game
    decision: DecisionLine | None
    prev_event_count: int  # events before the previous step (the feed of this step starts here)
    seen: list[int] = field(default_factory=list)


def replay_steps(start: GameStart, decisions: list[DecisionLine]) -> Iterator[ReplayStep]:
    """Walk a recorded game: one step before each decision, then a final step.

    Stops early (without the final step) when a recorded choice cannot be applied; use
    :func:`replay_records` to find out why.
    """
    game = Game.new(start.seats, start.mode, start.seed)
    seen = [0] * game.n
    prev = 0
    for i, d in enumerate(decisions):
        if game.pending is None:
            return
        step = ReplayStep(i, game, d, prev, list(seen))
        yield step
        prev = len(game.events)
        seen[game.pending.seat] = len(game.events)
        try:
            game.apply(d.chosen)
        except EngineError:
            return
    yield ReplayStep(len(decisions), game, None, prev, list(seen))
