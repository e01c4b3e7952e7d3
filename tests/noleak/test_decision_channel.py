"""The decision-channel check (:mod:`tests.noleak.decision_channel`) is not vacuous: it catches
frames and timings that tell forced decisions from real ones, as the web table's were before
issue 35 item 9, and passes ones that do not."""

from __future__ import annotations

import random
from typing import Any

from harness.engine import Game

from .decision_channel import Decision, decisions_of, field_leaks, separability


def frame(decision: int, *, timer_seat: int | None, ask: bool = False) -> dict[str, Any]:
    timer = None if timer_seat is None else {"seat": timer_seat, "left": 3.2, "total": 30}
    return {"type": "view", "decision": decision, "ask": ask, "timer": timer, "events": 9,
            "ctx": {"decision": {"seat": 1, "kind": "respond_shot", "options": []}}}  # fmt: skip


DECISIONS = [Decision(1, 1, 1, "respond_shot"), Decision(2, 1, 3, "respond_shot")]


def test_a_timer_shown_only_for_real_decisions_is_caught() -> None:
    leaky = [frame(1, timer_seat=None), frame(2, timer_seat=1)]
    (line,) = field_leaks(leaky, DECISIONS, "spectator")
    assert line.startswith("spectator: seat 1's forced decisions")
    same = [frame(1, timer_seat=1), frame(2, timer_seat=1)]
    assert field_leaks(same, DECISIONS, "spectator") == []


def test_asking_a_person_only_their_real_decisions_is_caught() -> None:
    leaky = [frame(1, timer_seat=1, ask=False), frame(2, timer_seat=1, ask=True)]
    assert field_leaks(leaky, DECISIONS, "seat 1")


def test_a_pause_only_before_real_decisions_is_caught() -> None:
    rng = random.Random(7)
    forced = [rng.uniform(0.0, 0.004) for _ in range(30)]  # applied at once
    real = [0.3 + rng.uniform(0.0, 0.01) for _ in range(120)]  # after the table's pause
    assert separability(forced, real) == 1.0
    same = [0.3 + rng.uniform(0.0, 0.01) for _ in range(30)]
    assert separability(same, real) < 0.8


def test_decisions_are_counted_by_replaying_the_rules() -> None:
    game = Game.new(5, "classic", 11)
    rng = random.Random(11)
    chosen, counts = [], []
    while game.pending is not None:
        ids = game.pending.option_ids
        counts.append(len(ids))
        chosen.append(rng.choice(ids))
        game.apply(chosen[-1])
    decisions = decisions_of(5, "classic", 11, chosen)
    assert [d.options for d in decisions] == counts
    assert any(d.forced for d in decisions) and not all(d.forced for d in decisions)
    assert any(d.forced and d.kind == "respond_shot" for d in decisions)  # shot, no Missed!
