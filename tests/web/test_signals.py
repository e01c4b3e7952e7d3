"""Table signals (RULES.md §10): the rules of the board, their record, and the proof that bots and
model seats never see them — their inputs are identical with and without signals."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from harness.agents.rulebot import RuleBot
from harness.records import RunStore
from harness.web.records import read_signals
from harness.web.signal_board import MAX_PER_MATCH, MIN_INTERVAL_S, SignalBoard, SignalRefused
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import Client, LiveServer, drive


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def refused(board: SignalBoard, code: str, seat: int, kind: str, **kw: Any) -> None:
    before = (list(board.records), dict(board.marks), dict(board.claims))
    with pytest.raises(SignalRefused) as e:
        board.add(seat, kind, event_index=0, **{"alive": True, **kw})
    assert e.value.code == code
    assert (board.records, board.marks, board.claims) == (before[0], before[1], before[2])


def test_one_signal_per_interval_per_person() -> None:
    clock = Clock()
    board = SignalBoard(5, clock=clock)
    board.add(0, "react", alive=True, event_index=3, reaction="gg")
    clock.now += MIN_INTERVAL_S - 0.01
    refused(board, "signal_too_fast", 0, "claim", role="deputy")
    board.add(1, "react", alive=True, event_index=3, reaction="like")  # another person may
    clock.now += 0.01
    rec = board.add(0, "claim", alive=True, event_index=9, role="deputy")
    assert rec.index == 3 and rec.event_index == 9 and rec.t == pytest.approx(MIN_INTERVAL_S)
    assert board.claims == {0: "deputy"}


def test_at_most_sixty_signals_per_match() -> None:
    clock = Clock()
    board = SignalBoard(4, clock=clock)
    for _ in range(MAX_PER_MATCH):
        board.add(2, "react", alive=True, event_index=0, reaction="funny")
        clock.now += MIN_INTERVAL_S + 0.001
    refused(board, "signal_limit", 2, "react", reaction="gg")
    assert board.state()["left"] == {"2": 0}


def test_claims_and_marks_only_while_alive_reactions_always() -> None:
    clock = Clock()
    board = SignalBoard(4, clock=clock)
    refused(board, "eliminated", 1, "claim", alive=False, role="raider")
    refused(board, "eliminated", 1, "mark", alive=False, role="raider", target=2)
    board.add(1, "react", alive=False, event_index=0, reaction="gg")
    clock.now += MIN_INTERVAL_S + 0.001
    board.add(0, "mark", alive=True, event_index=0, role="loner", target=3)
    assert board.state()["marks"] == [{"seat": 0, "target": 3, "role": "loner"}]


def test_malformed_signals_are_refused() -> None:
    board = SignalBoard(4, clock=Clock())
    refused(board, "bad_signal", 0, "mark", role="raider", target=0)  # oneself
    refused(board, "bad_signal", 0, "mark", role="raider", target=7)  # not at the table
    refused(board, "bad_signal", 0, "mark", role="raider", target=2, target_alive=False)
    refused(board, "bad_signal", 0, "mark", role="raider")
    refused(board, "bad_signal", 0, "claim", role="raider", target=1)
    refused(board, "bad_signal", 0, "claim")
    refused(board, "bad_signal", 0, "react", reaction="gg", role="deputy")
    refused(board, "bad_signal", 0, "react")


def play_one(srv: LiveServer, *, signals: bool) -> list[dict[str, Any]]:
    """One 5-seat game: Ann (first option always) + a model seat + bots; with ``signals`` Ann
    claims, marks and reacts while deciding.  Returns the signal frames Ann received."""
    a = Client(srv.ws_url)
    a.send(type="create", name="Ann", settings={"seats": 5})
    a.wait_type("joined")
    a.send(type="seat_bot", seat=1, player="gpt-test")
    a.send(type="start")
    plan = [
        {"kind": "claim", "role": "deputy"},
        {"kind": "mark", "target": 1, "role": "raider"},
        {"kind": "react", "reaction": "suspect"},
    ]

    def hook(c: Client, f: dict[str, Any]) -> None:
        if signals and plan and f["type"] == "view" and f["ask"]:
            c.send(type="signal", **plan.pop(0))
            time.sleep(MIN_INTERVAL_S + 0.05)

    drive([a], hook=hook, timeout=90)
    a.close()
    return [f for f in a.frames if f["type"] == "signal"]


def test_bots_and_models_get_identical_inputs_with_and_without_signals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §10: bots and language models neither see nor send signals.  The same deal is
    played twice with the same choices, once with signals; every view a rule bot was given and
    every request the model seat sent must be the same."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    seen: list[str] = []
    real_observe, real_decide = RuleBot.observe, RuleBot.decide

    def observe(self: RuleBot, view: Any) -> None:
        seen.append(json.dumps(["observe", self.name, view.to_dict()], sort_keys=True))
        real_observe(self, view)

    def decide(self: RuleBot, view: Any, options: Any) -> str:
        seen.append(json.dumps(["decide", self.name, view.to_dict(), list(options)]))
        return real_decide(self, view, options)

    monkeypatch.setattr(RuleBot, "observe", observe)
    monkeypatch.setattr(RuleBot, "decide", decide)
    inputs = {}
    with FakeOpenAIServer() as fake:
        player = model_player("gpt-test", fake.base_url)
        for with_signals in (False, True):
            seen.clear()
            before = len(fake.script.model_requests)
            out = tmp_path / str(with_signals)
            with LiveServer(out, players=[player], seed=lambda: 4242) as srv:
                frames = play_one(srv, signals=with_signals)
            requests = [r.body["messages"] for r in fake.script.model_requests[before:]]
            inputs[with_signals] = (list(seen), requests)
            if with_signals:
                assert [f["signal"]["kind"] for f in frames] == ["claim", "mark", "react"]
    bots_plain, model_plain = inputs[False]
    bots_signals, model_signals = inputs[True]
    assert bots_plain and model_plain, "the bots and the model seat decided"
    assert bots_signals == bots_plain
    assert model_signals == model_plain
    # The signals are recorded with the game (signals.jsonl), the plain game has none.
    run = tmp_path / "True" / "web"
    (g,) = RunStore(run).games()
    recorded = read_signals(run)[g.game_id].signals
    assert [(s.seat, s.kind, s.role, s.target, s.reaction) for s in recorded] == [
        (0, "claim", "deputy", None, None),
        (0, "mark", "raider", 1, None),
        (0, "react", None, None, "suspect"),
    ]
    assert read_signals(tmp_path / "False" / "web") == {}
    for name in ("False", "True"):  # the model seat really decided, every time
        store = RunStore(tmp_path / name / "web")
        (g,) = store.games()
        mine = [d for d in store.read_game(g.game_id)[1] if d.seat == 1 and len(d.options) > 1]
        assert mine and all(d.fallback is None and d.model is not None for d in mine)
