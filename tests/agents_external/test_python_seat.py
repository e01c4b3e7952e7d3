"""A Python agent's seat: the protocol it is spoken to in, its records and usage, and every way
it can misbehave becoming a recorded fallback with its reason."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from harness.agents.python_agent import AgentPathError, PythonBackend, load_factory
from harness.agents.wire_protocol import MAX_ANSWER_BYTES, DecisionMessage, GameStartMessage
from harness.engine import build_view

from . import agents
from .conftest import play_with


def backend(factory: Any, **options: Any) -> PythonBackend:
    return PythonBackend(factory, options)


class Recorder:
    """Keeps every message it gets; answers the first option."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    def start(self, message: GameStartMessage) -> None:
        self.log.append(message)

    def decide(self, message: DecisionMessage) -> str:
        self.log.append(message)
        return message.options[0].id


def test_the_agent_gets_its_game_then_each_decision_and_its_choices_are_played() -> None:
    log: list[Any] = []
    played = asyncio.run(play_with(backend(lambda: Recorder(log))))
    start, *decisions = log
    assert isinstance(start, GameStartMessage) and start.protocol_version == 1
    assert start.seat == 0 and start.role == played.game.seats[0].role  # type: ignore[union-attr]
    assert start.goal and start.role in start.you["role"] and len(start.seats) == 4
    assert "# Your game" in start.markdown
    assert all(isinstance(d, DecisionMessage) for d in decisions)
    assert [d.decision_index for d in decisions] == list(range(1, len(decisions) + 1))
    mine = played.seat_decisions(0)
    assert len(mine) == len(decisions) > 3
    for message, decided in zip(decisions, mine, strict=True):
        assert len(message.options) >= 2 and 0 < message.deadline_s <= 5.0
        assert decided.option == message.options[0].id and decided.fallback is None
        assert message.view["decision"]["options"][0]["id"] == message.options[0].id
        assert message.view_markdown.strip()
    # the events reach the agent once each, in order, with none left out: the ones of forced
    # (single-option) decisions arrive with the next message
    seen = [json.dumps(e, sort_keys=True) for d in decisions for e in d.events]
    everything = build_view(played.game, 0).events  # type: ignore[arg-type]
    assert len(seen) > len(decisions)
    assert seen == [json.dumps(e, sort_keys=True) for e in everything[: len(seen)]]
    last = decisions[-1]
    assert "seed" not in json.dumps(start.model_dump()) and "seed" not in last.model_dump_json()


def test_each_decision_is_recorded_like_a_model_seat_s_with_usage() -> None:
    played = asyncio.run(play_with(backend(agents.seeded, salt="x", cost_usd=0.002)))
    mine = played.seat_decisions(0)
    for d in mine:
        r = d.record
        assert r.provider == "agent" and r.model == "seeded-1" and r.fallback is None
        assert r.chosen == d.option == r.parsed_choice and r.options
        assert r.view["decision"]["kind"] == r.decision_kind and r.reason.startswith("as the ")
        assert r.input_tokens == 100 and r.output_tokens == 10 and r.cost_usd == 0.002
        assert len(r.attempts) == 1 and r.attempts[0].tokens.input == 100
        assert r.latency_s >= r.attempts[0].latency_s >= 0
        assert r.system_prompt_sha256 in played.prompts  # the start message, stored once
    assert json.loads(played.prompts[mine[0].record.system_prompt_sha256])["type"] == "game_start"
    # the seat's first message delivered the start: one spend line per decision message
    assert len(played.spend) == len(mine)
    assert {(s[1], s[2], s[3].cost_usd, s[4]) for s in played.spend} == {
        ("agent", "seeded-1", 0.002, None)
    }


def test_a_deterministic_agent_plays_the_same_game_from_the_same_seed() -> None:
    a = asyncio.run(play_with(backend(agents.seeded, salt="s"), seed=5))
    b = asyncio.run(play_with(backend(agents.seeded, salt="s"), seed=5))
    c = asyncio.run(play_with(backend(agents.seeded, salt="other"), seed=5))
    assert a.game.events == b.game.events  # type: ignore[union-attr]
    assert [d.option for *_, d in a.decided] == [d.option for *_, d in b.decided]
    assert a.game.events != c.game.events  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "mode, reason, kind",
    [
        ("raise", "error", "agent_error"),
        ("hang", "timeout", "timeout"),
        ("garbage", "invalid_answer", "unparseable"),
        ("huge", "invalid_answer", "oversized"),
        ("unknown", "invalid_answer", "illegal_option"),
        ("long_reasoning", "invalid_answer", "oversized"),
    ],
)
def test_a_misbehaving_agent_falls_back_with_its_reason_and_the_game_ends(
    mode: str, reason: str, kind: str
) -> None:
    timer = 2.0 if mode == "hang" else 5.0  # room for a loaded machine to cut the hang
    played = asyncio.run(
        play_with(backend(agents.Misbehaving, mode=mode, every=4), timer=timer, seed=3)
    )
    assert played.game.pending is None and played.void is None  # type: ignore[union-attr]
    mine = played.seat_decisions(0)
    bad = [d for i, d in enumerate(mine, 1) if i % 4 == 1]
    good = [d for i, d in enumerate(mine, 1) if i % 4 != 1]
    assert bad and good
    for d in bad:
        assert d.fallback == reason and d.error.startswith(kind)
        assert d.record.fallback == reason and d.record.attempts[-1].error_kind == kind
        assert d.record.fallback_policy == "simplest" and d.record.parsed_choice is None
        stored = d.record.attempts[-1].raw_text
        assert stored is None or len(stored) <= 16 * 1024 + 1  # a 10 MB answer is not stored
        if mode == "hang":  # cut by the seat's own deadline, before the table's timer
            assert d.latency_s < timer
    assert all(d.fallback is None for d in good)


def test_a_plain_agent_that_hangs_costs_its_seat_timeouts_not_the_table_its_loop() -> None:
    t0 = time.monotonic()
    played = asyncio.run(
        play_with(backend(agents.SyncHang, seconds=0.6), timer=0.3, max_fallbacks=6)
    )
    mine = played.seat_decisions(0)
    assert played.void is not None and "fell back 6 times in a row" in played.void
    assert mine[0].fallback == "timeout"
    # the thread of the first call is still sleeping at the next decision: no second thread
    assert any("previous call has not returned" in (d.error or "") for d in mine[1:])
    assert time.monotonic() - t0 < 6 * 0.3 + 3


def test_a_factory_that_raises_makes_every_decision_a_recorded_error() -> None:
    played = asyncio.run(play_with(backend(agents.broken_factory), max_fallbacks=3))
    mine = played.seat_decisions(0)
    assert played.void is not None and len(mine) == 3
    assert all(d.fallback == "error" and "factory raised ValueError" in d.error for d in mine)


def test_plain_functions_async_objects_and_bare_ids_are_agents() -> None:
    first = asyncio.run(play_with(backend(agents.first_factory)))
    assert all(d.fallback is None for d in first.seat_decisions(0))
    last = asyncio.run(play_with(backend(agents.AsyncFirst)))
    assert all(d.fallback is None for d in last.seat_decisions(0))
    assert [d.option for d in first.seat_decisions(0)] != [d.option for d in last.seat_decisions(0)]


def test_autopilot_policy_falls_back_to_the_rule_bot() -> None:
    played = asyncio.run(
        play_with(backend(agents.Misbehaving, mode="raise", every=2), policy="autopilot")
    )
    bad = [d for d in played.seat_decisions(0) if d.fallback]
    assert bad and all(d.record.fallback_policy == "autopilot" for d in bad)


@pytest.mark.parametrize(
    "path, message",
    [
        ("no_colon", "is not of the form 'package.module:factory'"),
        ("no.such.module:f", "cannot import 'no.such.module'"),
        ("tests.agents_external.agents:nope", "has no attribute 'nope'"),
        ("tests.agents_external.agents:NOT_CALLABLE", "is not callable"),
    ],
)
def test_a_bad_agent_path_is_one_line(path: str, message: str) -> None:
    with pytest.raises(AgentPathError, match=message) as e:
        load_factory(path)
    assert "\n" not in str(e.value)


def test_answer_size_cap_is_bytes_of_the_answer() -> None:
    from harness.agents.external_seat import AgentFault, parse_answer

    ok, _ = parse_answer({"option": "end", "reasoning": "r" * 1000})
    assert ok.option == "end"
    with pytest.raises(AgentFault) as e:
        parse_answer(b"{" + b" " * MAX_ANSWER_BYTES + b"}")
    assert e.value.kind == "oversized"
    for raw, kind in [
        (b"[1, 2]", "unparseable"),
        (b'{"option": "end", "extra": 1}', "unparseable"),
        (b'{"option": 3}', "unparseable"),
        (b"\xff\xfe", "unparseable"),
        (b"[" * 30_000 + b"]" * 30_000, "unparseable"),
        ({"option": "end", "usage": {"input_tokens": -1}}, "unparseable"),
    ]:
        with pytest.raises(AgentFault) as e:
            parse_answer(raw)
        assert e.value.kind == kind, raw
