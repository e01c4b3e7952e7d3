"""Rooms over the WebSocket: host tools, reconnecting with a seat token, autopilot hand-over and
give-back, a vanished person's 8 s (Ruling R-5), the host role passing on, spectators."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from harness.engine.cards import CARD_FACE
from harness.records import RunStore
from harness.web import web_seat
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import Client, LiveServer, drive, no_timeouts, start_room

MODEL_PLAYER = {
    "name": "gpt-test",
    "kind": "model",
    "model": {"provider": "openai", "model": "gpt-test", "base_url": "http://127.0.0.1:9/v1"},
}


def kinds(frame: dict[str, Any]) -> list[str]:
    return [s["kind"] for s in frame["seats"]]


def test_host_tools_before_the_game(tmp_path: Path) -> None:
    with LiveServer(tmp_path, players=[MODEL_PLAYER]) as srv:
        a, b = Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 5})
        code = a.wait_type("joined")["code"]
        a.send(type="seat_bot", seat=1, player="bot")
        a.send(type="seat_bot", seat=2, player="gpt-test")
        room = a.wait(lambda f: f["type"] == "room" and f["seats"][2]["kind"] == "model")
        assert kinds(room) == ["person", "bot", "model", "empty", "empty"]
        assert room["seats"][2]["model"] == "openai/gpt-test" and room["is_host"]
        assert room["models"] == [{"player": "gpt-test", "model": "openai/gpt-test"}]
        b.send(type="join", code=code.lower(), name="Ann")  # codes ignore case; names are unique
        joined = b.wait_type("joined")
        assert joined["seat"] == 3 and joined["token"]
        room_b = b.wait_type("room")
        assert room_b["seats"][3]["name"] == "Ann (2)" and not room_b["is_host"]
        a.send(type="replace", seat=3, player="bot")  # the person is replaced by a bot
        assert b.wait_type("left")["reason"] == "removed"
        a.send(type="remove", seat=2)
        room = a.wait(lambda f: f["type"] == "room" and f["seats"][2]["kind"] == "empty")
        assert kinds(room) == ["person", "bot", "empty", "bot", "empty"]
        a.send(type="fill_bots")
        room = a.wait(lambda f: f["type"] == "room" and "empty" not in kinds(f))
        assert kinds(room) == ["person", "bot", "bot", "bot", "bot"]
        # The removed person's token no longer holds a seat.
        b.send(type="join", code=code, token=joined["token"])
        assert b.wait_type("error")["code"] == "bad_token"


def test_reconnecting_restores_the_seat_and_the_whole_view(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        (a,) = start_room(srv.ws_url, seats=4)
        joined = a.frames[0]
        a.wait(lambda f: f["type"] == "view" and f["ask"])
        a.close()
        room = srv.registry.rooms[joined["code"]]
        again = Client(srv.ws_url)
        again.send(type="join", code=joined["code"], token=joined["token"])
        assert again.wait_type("joined")["seat"] == 0
        view = again.wait_type("view")
        game = room.match.game  # type: ignore[union-attr]
        assert view["reset"] and view["events"] == len(game.events)
        assert view["ctx"]["you"]["seat"] == 0
        hand = [CARD_FACE[c] for c in game.seats[0].hand]
        assert [c["card"] for c in view["ctx"]["hand"]] == hand
        assert len(view["ctx"]["feed"]) >= 8  # the whole feed since the deal, not a tail
        assert view["ask"]  # the pending decision is asked again, and can be answered
        options = view["ctx"]["decision"]["options"]
        again.send(type="act", decision=view["decision"], option=options[-1]["id"])
        drive([again])


def test_autopilot_takes_a_seat_and_gives_it_back(tmp_path: Path) -> None:
    pause = {"slow": 0.01, "normal": 0.01, "fast": 0.01}  # a pause before each bot move
    # Seed 3 makes Bob (seat 1) the Marshal: he plays until the game ends.
    with LiveServer(tmp_path, pauses=pause, seed=lambda: 3) as srv:
        a, b = start_room(srv.ws_url, seats=4, people=2)
        code = a.frames[0]["code"]
        room = srv.registry.rooms[code]
        a.send(type="autopilot", seat=1, on=True)  # right after the start
        a.wait(lambda f: f["type"] == "room" and f["seats"][1]["autopilot"])
        phase = {"given_back": False}

        def hook(c: Client, f: dict[str, Any]) -> None:
            lines = room.match.decisions if room.match else []
            if not phase["given_back"] and any(d.fallback == "autopilot" for d in lines):
                phase["given_back"] = True
                a.send(type="autopilot", seat=1, on=False)

        drive([a, b], hook=hook, timeout=90)
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    _, decisions, _ = store.read_game(g.game_id)
    bob = [d for d in decisions if d.seat == 1 and len(d.options) > 1]
    auto = [d.index for d in bob if d.fallback == "autopilot"]
    by_hand = [d.index for d in bob if d.fallback is None]
    assert auto, "the bot played Bob's seat while on autopilot"
    assert by_hand and max(by_hand) > max(auto), "Bob played again after the seat was given back"
    assert all(d.player == "P1" for d in bob)
    assert not any(d.fallback == "timeout" for d in decisions), "nobody was left unasked"
    outcome = next(o for o in g.seat_outcomes if o.seat == 1)
    assert outcome.kind == "human" and outcome.fallbacks["autopilot"] == len(auto)


def test_a_vanished_person_gets_the_simplest_move_after_the_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §3 "Decisions and time", Ruling R-5: a disconnected person's decision gets 8 s
    (shortened here), then the simplest move is made."""
    monkeypatch.setattr(web_seat, "DISCONNECTED_SECONDS", 0.05)
    # a fixed deal, so the person's seat lives to make real choices (some deals shoot it down
    # before its first one)
    with LiveServer(tmp_path, seed=lambda: 3) as srv:
        (a,) = start_room(srv.ws_url, seats=4)
        a.wait(lambda f: f["type"] == "view" and f["ask"])
        a.close()
        deadline = time.monotonic() + 60
        while not RunStore(tmp_path / "web").games():
            assert time.monotonic() < deadline, "the game did not finish without its person"
            time.sleep(0.1)
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    _, decisions, _ = store.read_game(g.game_id)
    asked = [d for d in decisions if d.seat == 0 and len(d.options) > 1]
    # one timeout per turn; the bot plays the rest of that turn (tests/web/test_people.py)
    assert asked and all(d.fallback in ("timeout", "autopilot") for d in asked)
    mine = [d for d in asked if d.fallback == "timeout"]
    assert mine and all("disconnected" in (d.error or "") for d in mine)
    simplest = {"play": "end", "respond_shot": "take", "respond_raid": "take",
                "respond_duel": "take", "draw_source": "draw:deck"}  # fmt: skip
    for d in mine:
        if d.decision_kind in simplest:
            assert d.chosen == simplest[d.decision_kind], d


def test_the_host_role_passes_on_when_the_host_is_gone(tmp_path: Path) -> None:
    with LiveServer(tmp_path, host_grace=0.2) as srv:
        a, b = Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann")
        code = a.wait_type("joined")["code"]
        b.send(type="join", code=code, name="Bob")
        b.wait_type("joined")
        b.send(type="start")
        assert b.wait_type("error")["code"] == "not_host"
        a.close()
        room = b.wait(lambda f: f["type"] == "room" and f["is_host"], timeout=10)
        assert room["host"] == 1 and room["seats"][0]["connected"] is False
        b.send(type="fill_bots")
        b.wait(lambda f: f["type"] == "room" and "empty" not in kinds(f))


def test_a_person_replaced_during_the_game_watches_and_the_bot_plays_on(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        a, b = start_room(srv.ws_url, seats=4, people=2)
        a.send(type="replace", seat=1, player="bot")
        assert b.wait(lambda f: f["type"] == "joined")["seat"] is None
        view = b.wait(lambda f: f["type"] == "view" and f["reset"] and f["ctx"]["you"] is None)
        assert view["ctx"]["you"] is None and view["ctx"]["hand"] == []
        drive([a, b])
    (g,) = RunStore(tmp_path / "web").games()
    assert next(o for o in g.seat_outcomes if o.seat == 1).kind == "human"


def test_watching_a_bot_match(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        s = Client(srv.ws_url)
        s.send(type="watch", settings={"seats": 6, "mode": "double_agent"})
        assert s.wait_type("joined")["seat"] is None
        drive([s])
        views = [f for f in s.frames if f["type"] == "view"]
        assert views and all(v["ctx"]["you"] is None and not v["ask"] for v in views)
        assert all(v["ctx"]["hand"] == [] and v["ctx"]["knowledge"] == [] for v in views)
        assert views[0]["ctx"]["table"]["mode"] == "double_agent"
        over = s.frames[-1]
        assert over["type"] == "over" and len(over["players"]) == 6
        s.close()
        deadline = time.monotonic() + 5
        while srv.registry.rooms:  # a table of bots only closes once nobody watches
            assert time.monotonic() < deadline
            time.sleep(0.1)
    (g,) = RunStore(tmp_path / "web").games()
    assert {o.kind for o in g.seat_outcomes} == {"bot"}


def test_play_again_with_the_same_model_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """**Play** starts at once; after game over the host starts another game at the same table,
    and the model seat (its provider shared by every table) plays both."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as fake:
        player = model_player("gpt-test", fake.base_url)
        with LiveServer(tmp_path, players=[player]) as srv:
            a = Client(srv.ws_url)
            a.send(type="create", name="Ann", settings={"seats": 4})
            a.wait_type("joined")
            a.send(type="seat_bot", seat=3, player="gpt-test")
            a.send(type="start")
            drive([a])
            a.send(type="start")
            view = a.wait(lambda f: f["type"] == "view" and f["reset"])
            assert view["decision"] == 1 and view["ctx"]["table"]["round"] == 1
            drive([a])
            b = Client(srv.ws_url)
            b.send(type="create", name="Bob", play=True)
            assert b.wait_type("joined")["seat"] == 0
            drive([b])
    store = RunStore(tmp_path / "web")
    games = store.games()
    assert len(games) == 3 and not no_timeouts(store.root)
    for g in games[:2]:
        model = [d for d in store.read_game(g.game_id)[1] if d.seat == 3 and len(d.options) > 1]
        assert model and all(d.fallback is None and d.model is not None for d in model)
