"""Bad input over the WebSocket: each bad message gets an error on that connection only, changes
nothing, and the game goes on (issue 12, "Tests in a real browser" — bad input)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.records import RunStore

from .server import Client, LiveServer, drive


def expect_error(c: Client, code: str) -> dict[str, Any]:
    f = c.wait_type("error")
    assert f["code"] == code, f
    assert f["message"] and "\n" not in f["message"]
    return f


def first_ask(people: list[Client]) -> tuple[Client, Client, dict[str, Any]]:
    """Wait until one of two people is asked a decision: (asked, the other, the frame)."""
    for _ in range(2000):
        for i, c in enumerate(people):
            try:
                f = c.recv(timeout=0.02)
            except TimeoutError:
                continue
            if f["type"] == "view" and f["ask"]:
                return c, people[1 - i], f
    raise TimeoutError("nobody was asked")


def errors(c: Client) -> list[str]:
    return [f["code"] for f in c.frames if f["type"] == "error"]


def test_bad_messages_are_refused_on_their_connection_only(tmp_path: Path) -> None:
    with LiveServer(tmp_path, seed=lambda: 7) as srv:
        a, b, stranger = Client(srv.ws_url), Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 4})
        code = a.wait_type("joined")["code"]
        b.send(type="join", code=code, name="Bob")
        b.wait_type("joined")
        cases: list[tuple[Client, str | bytes | dict[str, Any], str]] = [
            (a, "{not json", "bad_json"),
            (a, b"\x00\x01binary", "bad_frame"),
            (a, "[1, 2]", "bad_message"),
            (a, {"type": "fly"}, "unknown_type"),
            (a, {"type": "create", "name": "X", "extra": 1}, "bad_message"),
            (a, {"type": "create", "name": "<script>"}, "bad_name"),
            (a, {"type": "create", "name": "X", "settings": {"seats": 9}}, "bad_message"),
            (
                a,
                {"type": "create", "name": "X", "settings": {"decision_seconds": 45}},
                "bad_message",
            ),
            (a, json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
            (b, {"type": "start"}, "not_host"),
            (b, {"type": "fill_bots"}, "not_host"),
            (b, {"type": "seat_bot", "seat": 2, "player": "bot"}, "not_host"),
            (a, {"type": "seat_bot", "seat": 1, "player": "bot"}, "seat_taken"),
            (a, {"type": "seat_bot", "seat": 2, "player": "gpt-nowhere"}, "unknown_player"),
            (a, {"type": "seat_bot", "seat": 6, "player": "bot"}, "bad_seat"),
            (a, {"type": "autopilot", "seat": 1, "on": True}, "not_started"),
            (a, {"type": "act", "decision": 1, "option": "end"}, "not_started"),
            (
                stranger,
                {"type": "join", "code": code, "token": "forged-token-1234567"},
                "bad_token",
            ),
            (stranger, {"type": "join", "code": "ZZZZZ", "name": "Eve"}, "no_room"),
            (stranger, {"type": "act", "decision": 1, "option": "end"}, "no_room"),
            (stranger, {"type": "signal", "kind": "react", "reaction": "gg"}, "no_room"),
        ]
        for client, msg, code_ in cases:
            if isinstance(msg, dict):
                client.send(**msg)
            else:
                client.send_raw(msg)
            expect_error(client, code_)
        # A full room: the host fills it with bots, then a third person cannot join.
        a.send(type="fill_bots")
        a.wait(lambda f: f["type"] == "room" and all(s["kind"] != "empty" for s in f["seats"]))
        stranger.send(type="join", code=code, name="Eve")
        expect_error(stranger, "room_full")
        room = srv.registry.rooms[code]
        assert [s.kind for s in room.slots] == ["person", "person", "bot", "bot"]

        a.send(type="start")
        asked, other, ask = first_ask([a, b])
        game = room.match.game  # type: ignore[union-attr]
        before = (list(game.history), len(game.events), game.pending)
        n = ask["decision"]
        option = ask["ctx"]["decision"]["options"][0]["id"]
        other.send(type="act", decision=n, option=option)  # not their decision
        expect_error(other, "not_your_turn")
        asked.send(type="act", decision=n + 3, option=option)
        expect_error(asked, "stale_decision")
        asked.send(type="act", decision=n, option="play:shot@9")
        expect_error(asked, "unknown_option")
        asked.send(type="act", decision=n, option="x" * 65)
        expect_error(asked, "bad_message")
        a.send(type="remove", seat=2)
        expect_error(a, "started")
        a.send(type="replace", seat=2, player="gpt-nowhere")
        expect_error(a, "unknown_player")
        spectator = Client(srv.ws_url)
        spectator.send(type="watch", code=code)
        spectator.wait_type("joined")
        spectator.send(type="act", decision=n, option=option)
        expect_error(spectator, "not_seated")
        spectator.send(type="signal", kind="react", reaction="gg")
        expect_error(spectator, "not_seated")
        # Signal flooding: one signal per 1.2 s (RULES.md §10).
        b.send(type="signal", kind="react", reaction="like")
        b.wait_type("signal")
        b.send(type="signal", kind="react", reaction="gg")
        expect_error(b, "signal_too_fast")
        b.send(type="signal", kind="claim", role="deputy")
        expect_error(b, "signal_too_fast")
        assert (list(game.history), len(game.events), game.pending) == before

        # Each error went to the connection that caused it, and to no other.
        got = {id(c): errors(c) for c in (a, b, spectator, stranger)}
        assert got[id(other)].count("not_your_turn") == 1
        assert got[id(asked)].count("not_your_turn") == 0
        assert got[id(spectator)] == ["not_seated", "not_seated"]
        assert got[id(b)].count("not_host") == 3 and "bad_json" not in got[id(b)]
        assert got[id(b)].count("signal_too_fast") == 2 and "signal_too_fast" not in got[id(a)]
        assert got[id(stranger)] == ["bad_token", "no_room", "no_room", "no_room", "room_full"]

        # The game goes on: the pending decision is answered and everyone plays to the end.
        asked.send(type="act", decision=n, option=option)
        drive([a, b, spectator])
    games = RunStore(tmp_path / "web").games()
    assert len(games) == 1 and games[0].winning_side


def test_a_newer_window_takes_the_seat_and_the_older_is_told(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        a = Client(srv.ws_url)
        a.send(type="create", name="Ann")
        joined = a.wait_type("joined")
        a2 = Client(srv.ws_url)
        a2.send(type="join", code=joined["code"], token=joined["token"])
        assert a2.wait_type("joined")["seat"] == 0
        expect_error(a, "replaced")
        room = a2.wait_type("room")
        assert room["you"] == 0 and room["is_host"]
