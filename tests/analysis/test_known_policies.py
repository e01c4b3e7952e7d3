"""Which seats and decisions of a recorded game are of known policy (harness.analysis.
known_policies; docs/analysis.md, "The rule bot's policy"): rule bots and random seats by their
kind; of the other seats only the decisions an autopilot rule bot that saw every view of the seat
made — never the evaluated player's own choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.analysis.known_policies import known_policies, table_fallback
from harness.records.record_models import DecisionLine, GameStart, SeatPlayer

KINDS = ["model", "bot", "random", "human", "agent"]


def _start(kinds: list[str] = KINDS) -> GameStart:
    seating = [
        SeatPlayer(seat=i, player=f"p{i}", kind=k, name=f"n{i}")  # type: ignore[arg-type]
        for i, k in enumerate(kinds)
    ]
    return GameStart(run="r", game_id="g", seed=1, seats=len(kinds), mode="classic", deal=0,
                     rotation=0, seating=seating)  # fmt: skip


def _line(
    seat: int,
    fallback: str | None = None,
    model: dict[str, Any] | None = None,
    options: int = 2,
) -> DecisionLine:
    opts = ["end", "play:x"][:options]
    return DecisionLine(game_id="g", index=1, event_index=0, seat=seat, player=f"p{seat}",
                        role="raider", decision_kind="play", options=opts, chosen="end",
                        fallback=fallback, latency_s=0.0, model=model)  # fmt: skip


OWN_AUTOPILOT = {"fallback": "invalid_answer", "fallback_policy": "autopilot"}
OWN_SIMPLEST = {"fallback": "invalid_answer", "fallback_policy": "simplest"}
ANSWERED = {"fallback": None, "fallback_policy": None}


def test_seat_policies_by_kind() -> None:
    assert known_policies(_start(), [], None).policies == [
        "unknown", "rulebot", "uniform", "unknown", "unknown",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "fallback", "autopilot"),
    [
        # a model or agent seat's own fallback to its autopilot
        (_line(0, "invalid_answer", OWN_AUTOPILOT), None, True),
        (_line(4, "timeout", OWN_AUTOPILOT), "simplest", True),
        # its own R-5 fallback, or its own answer: unknown policy
        (_line(0, "invalid_answer", OWN_SIMPLEST), "autopilot", False),
        (_line(0, None, ANSWERED), "autopilot", False),
        # a forced decision: nothing to correct
        (_line(0, "invalid_answer", OWN_AUTOPILOT, options=1), None, False),
        # a table fallback: the table's autopilot only when the run's config says so
        (_line(0, "timeout", ANSWERED), "autopilot", True),
        (_line(4, "error"), "autopilot", True),
        (_line(0, "timeout", ANSWERED), "simplest", False),
        (_line(0, "timeout"), None, False),
        # a web table: the seat's bot after a timeout or for the host, and after the cap
        (_line(3, "autopilot"), None, True),
        (_line(0, "spending_cap"), None, True),
        (_line(3, "timeout"), None, False),  # disconnected: the R-5 move
        # a person's seat taken over by a model: its autopilot did not see every view
        (_line(3, "invalid_answer", OWN_AUTOPILOT), "autopilot", False),
        # rule bots and random seats are known policies as a whole
        (_line(1, "autopilot"), "autopilot", False),
        (_line(2, "timeout"), "autopilot", False),
    ],
)
def test_autopilot_decisions(line: DecisionLine, fallback: str | None, autopilot: bool) -> None:
    assert known_policies(_start(), [line], fallback).autopilot == ([0] if autopilot else [])


def test_a_model_autopilot_after_the_spending_cap_is_unknown() -> None:
    lines = [_line(0, "invalid_answer", OWN_AUTOPILOT), _line(4, "invalid_answer", OWN_AUTOPILOT),
             _line(0, "spending_cap"), _line(0, "invalid_answer", OWN_AUTOPILOT),
             _line(4, "invalid_answer", OWN_AUTOPILOT)]  # fmt: skip
    assert known_policies(_start(), lines, None).autopilot == [0, 1, 2, 4]


def test_table_fallback_from_the_run_config(tmp_path: Path) -> None:
    assert table_fallback(tmp_path) is None  # no config.json
    (tmp_path / "config.json").write_text('{"fallback": "autopilot", "name": "x"}')
    assert table_fallback(tmp_path) == "autopilot"
    (tmp_path / "config.json").write_text('{"name": "x"}')
    assert table_fallback(tmp_path) == "simplest"
    for bad in ('{"fallback": "coin"}', "[1, 2]", "not json", '{"fallback": 3}'):
        (tmp_path / "config.json").write_text(bad)
        assert table_fallback(tmp_path) is None
