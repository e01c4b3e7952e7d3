"""A game that stops on an error (issue 35 item 8): everyone in the room — people and
spectators — is told that it stopped, in one line that says nothing of the error itself; the
reason goes to the server's log only."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.agents.rulebot import RuleBot
from harness.agents.seat import FatalSeatError
from harness.web.room_state import GAME_STOPPED

from .server import Client, LiveServer

SECRET = "seat 3 holds bang.AS and is the Raider"


def test_a_crashed_games_reason_reaches_nobody_at_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real = RuleBot.decide
    calls = {"n": 0}

    def decide(self: RuleBot, view: Any, options: Sequence[str]) -> str:
        calls["n"] += 1
        if calls["n"] == 12:  # a seat's fatal error some way into the game
            raise FatalSeatError(SECRET)
        return real(self, view, options)

    monkeypatch.setattr(RuleBot, "decide", decide)
    caplog.set_level(logging.ERROR, logger="harness.web.room_game")
    with LiveServer(tmp_path) as srv:
        ann = Client(srv.ws_url)
        ann.send(type="create", name="Ann", settings={"seats": 4})
        code = ann.wait_type("joined")["code"]
        spectator = Client(srv.ws_url)
        spectator.send(type="watch", code=code)
        spectator.wait_type("joined")
        ann.send(type="start")
        ann.wait_type("view")
        ann.send(type="autopilot", seat=0, on=True)  # the bot plays Ann's seat too
        stopped = []
        for c in (ann, spectator):
            stopped.append(
                c.wait(lambda f: f["type"] == "error" and f["code"] == "game_stopped", 60)
            )
            # the room goes back to its lobby: the host can start again
            c.wait(lambda f: f["type"] == "room" and f["state"] == "lobby")
    assert calls["n"] >= 12
    assert [f["message"] for f in stopped] == [GAME_STOPPED, GAME_STOPPED]
    for c in (ann, spectator):
        assert SECRET not in json.dumps(c.frames, ensure_ascii=False)
    assert any(SECRET in (r.exc_text or "") or SECRET in r.getMessage() or
               (r.exc_info and SECRET in str(r.exc_info[1])) for r in caplog.records)  # fmt: skip
