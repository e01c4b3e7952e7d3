"""People at a web table: one timeout settles the whole turn (RULES.md §3 "Decisions and time",
Ruling R-5), leaving mid-game and coming back, the table lines the others see when a person
leaves, comes back, is replaced or removed, and watching a friend's started room by its code."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from harness.engine import Game
from harness.web import web_seat
from harness.web.rooms import Room

from .server import Client, LiveServer, drive, start_room

TIMER = 1.5  # seconds per decision in these tests (the page offers 15–90 s)


def short_timer(room: Room, seconds: float) -> None:
    """The room's next game runs with a decision timer of ``seconds``."""
    room.settings = room.settings.model_copy(update={"decision_seconds": seconds})


def with_turns(room: Room) -> list[tuple[Any, tuple[int, int]]]:
    """The room's decisions so far, each with the (round, seat whose turn) it was made in."""
    match = room.match
    if match is None:  # not started yet
        return []
    game = Game.new(match.game.n, match.game.mode, match.game.seed)
    out = []
    for d in list(match.decisions):
        out.append((d, (game.round, game.turn)))
        game.apply(d.chosen)
    return out


def first_own_turn(room: Room, seat: int, timeout: float) -> list[Any]:
    """The decisions ``seat`` made in its first own turn with a choice in it, once that turn is
    over (a later turn has begun)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = with_turns(room)
        turns = [key for _, key in lines]
        if not turns:
            time.sleep(0.05)
            continue
        own = next((key for key in turns if key[1] == seat), None)
        if own is not None and turns[-1] != own:
            mine = [d for d, key in lines if key == own and d.seat == seat and len(d.options) > 1]
            if mine:
                return mine
        time.sleep(0.05)
    raise AssertionError(f"seat {seat}'s first turn did not end within {timeout} s")


def test_one_timeout_settles_the_whole_turn(tmp_path: Path) -> None:
    """A person who does nothing waits one timer for their turn, not one more for every
    discard: the autopilot plays the rest of the turn at bot speed."""
    with LiveServer(tmp_path, seed=lambda: 5) as srv:
        a = Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 4})
        code = a.wait_type("joined")["code"]
        room = srv.registry.rooms[code]
        short_timer(room, TIMER)
        a.send(type="start")
        mine = first_own_turn(room, 0, timeout=60)
        assert note(a, "timeout", 0)["name"] == "Ann"  # the table reads why the bot moved
        a.close()
    kinds = [(d.decision_kind, d.fallback) for d in mine]
    assert [d.fallback for d in mine].count("timeout") == 1, kinds
    assert mine[0].fallback == "timeout" and mine[0].decision_kind == "play", kinds
    assert len(mine) > 1, f"the turn needs more than one decision to show anything: {kinds}"
    rest = mine[1:]
    assert all(d.fallback == "autopilot" and d.error == web_seat.AFTER_TIMEOUT for d in rest)
    assert any(d.decision_kind == "discard" for d in rest), kinds
    spent, rest = sum(d.latency_s for d in mine), sum(d.latency_s for d in mine[1:])
    assert TIMER <= spent < 2 * TIMER and rest < TIMER / 2, (spent, rest)


def test_a_disconnected_persons_turn_is_settled_after_the_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §3: a disconnected person's decision gets 8 s (shortened here) — once per turn,
    not once per discard."""
    grace = 1.0
    monkeypatch.setattr(web_seat, "DISCONNECTED_SECONDS", grace)
    with LiveServer(tmp_path, seed=lambda: 5) as srv:
        (a,) = start_room(srv.ws_url, seats=4, decision_seconds=15)
        room = srv.registry.rooms[a.frames[0]["code"]]
        a.close()
        mine = first_own_turn(room, 0, timeout=60)
    kinds = [(d.decision_kind, d.fallback) for d in mine]
    timeouts = [d for d in mine if d.fallback == "timeout"]
    assert len(timeouts) == 1 and "disconnected" in (timeouts[0].error or ""), kinds
    assert len(mine) > 1 and all(d.fallback == "autopilot" for d in mine[1:]), kinds
    # the grace counts from the disconnection, which the server may see a moment after the start
    first, rest = mine[0].latency_s, sum(d.latency_s for d in mine[1:])
    assert grace * 0.9 <= first < grace + 5 and rest < grace / 2, (first, rest)


def test_the_person_is_asked_again_on_the_next_turn(tmp_path: Path) -> None:
    """The settled turn ends the autopilot: on the next turn the person decides again."""
    with LiveServer(tmp_path, seed=lambda: 5) as srv:
        a = Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 4})
        code = a.wait_type("joined")["code"]
        room = srv.registry.rooms[code]
        short_timer(room, TIMER)
        a.send(type="start")
        settled = first_own_turn(room, 0, timeout=60)
        after = settled[-1].index
        asked = a.wait(lambda f: f["type"] == "view" and f["ask"] and f["decision"] > after, 60)
        assert asked["timer"] and asked["timer"]["seat"] == 0
        option = asked["ctx"]["decision"]["options"][-1]["id"]
        a.send(type="act", decision=asked["decision"], option=option)
        a.wait(lambda f: f["type"] == "view" and f["decision"] > asked["decision"], 30)
        answered = room.match.decisions[asked["decision"] - 1]  # type: ignore[union-attr]
        assert (answered.seat, answered.chosen, answered.fallback) == (0, option, None)


# ------------------------------------------------------------------ leaving and coming back
def note(c: Client, what: str, seat: int) -> dict[str, Any]:
    return c.wait(lambda f: f["type"] == "note" and f["what"] == what and f["seat"] == seat)


def test_a_person_who_leaves_mid_game_comes_back_with_the_link(tmp_path: Path) -> None:
    """← Back during a game: the bot plays the seat on autopilot, the others read a line, and
    the seat's token (the room's link in the same browser) gives the seat back."""
    with LiveServer(tmp_path, seed=lambda: 3) as srv:
        a, b = start_room(srv.ws_url, seats=4, people=2)
        token = b.frames[0]["token"]
        code = a.frames[0]["code"]
        b.wait_type("view")
        b.send(type="leave")
        assert b.wait_type("left")["reason"] == "left"
        assert note(a, "left", 1)["name"] == "P1"
        room = a.wait(lambda f: f["type"] == "room" and f["seats"][1]["left"])
        assert room["seats"][1]["autopilot"] and room["seats"][1]["kind"] == "person"
        back = Client(srv.ws_url)
        back.send(type="join", code=code, token=token)
        assert back.wait_type("joined")["seat"] == 1
        assert note(a, "back", 1)["name"] == "P1"
        room = back.wait(lambda f: f["type"] == "room" and not f["seats"][1]["left"])
        assert not room["seats"][1]["autopilot"] and room["you"] == 1
        drive([a, back], timeout=90)
        # the seat was the person's for the whole game
        a.send(type="start")  # the next game: the seat stays theirs (they came back)
        a.wait(lambda f: f["type"] == "view" and f["reset"])
        assert srv.registry.rooms[code].slots[1].kind == "person"
    store_games = srv.registry.store.games()
    assert next(o for o in store_games[0].seat_outcomes if o.seat == 1).player == "P1"


def test_a_seat_left_until_the_next_game_is_freed(tmp_path: Path) -> None:
    """A person who does not come back before the host starts the next game gives the seat up:
    the token no longer holds it."""
    with LiveServer(tmp_path, seed=lambda: 3) as srv:
        a, b = start_room(srv.ws_url, seats=4, people=2)
        token, code = b.frames[0]["token"], a.frames[0]["code"]
        b.send(type="leave")
        b.wait_type("left")
        drive([a], timeout=90)
        a.send(type="start")
        room = a.wait(lambda f: f["type"] == "room" and f["state"] == "playing", 30)
        assert room["seats"][1]["kind"] == "bot"
        b.send(type="join", code=code, token=token)
        assert b.wait_type("error")["code"] == "bad_token"


def test_the_others_read_a_line_when_the_host_hands_a_seat_over(tmp_path: Path) -> None:
    with LiveServer(tmp_path, seed=lambda: 3) as srv:
        a, b = start_room(srv.ws_url, seats=4, people=2)
        b.wait_type("view")
        a.send(type="autopilot", seat=1, on=True)
        assert note(b, "autopilot", 1)["name"] == "P1"
        a.send(type="autopilot", seat=1, on=False)
        note(b, "given_back", 1)
        a.send(type="replace", seat=1, player="bot")  # for good
        told = b.wait_type("notice")
        assert told["code"] == "replaced" and "rest of the game" in told["message"]
        assert note(a, "replaced", 1)["name"] == "P1"
        assert b.wait_type("joined")["seat"] is None  # watching now
        drive([a, b], timeout=90)


def test_a_removed_person_is_told_why(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        a, b, c = Client(srv.ws_url), Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 4})
        code = a.wait_type("joined")["code"]
        for who, name in ((b, "Bob"), (c, "Cid")):
            who.send(type="join", code=code, name=name)
            who.wait_type("joined")
        a.send(type="remove", seat=1)
        left = b.wait_type("left")
        assert left["reason"] == "removed" and "host removed you" in left["message"]
        assert note(c, "removed", 1)["name"] == "Bob"
        assert note(a, "removed", 1)["name"] == "Bob"
        a.send(type="replace", seat=2, player="bot")  # in the lobby: removed, a bot sits
        assert "host removed you" in c.wait_type("left")["message"]
        assert note(a, "removed", 2)["name"] == "Cid"


# ------------------------------------------------------------------------- watching a room
def test_a_friends_started_room_can_be_watched_by_its_code(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        (a,) = start_room(srv.ws_url, seats=5)
        code = a.frames[0]["code"]
        a.wait_type("view")
        s = Client(srv.ws_url)
        s.send(type="watch", code=code.lower())
        joined = s.wait_type("joined")
        assert joined["seat"] is None and joined["token"] is None
        first = s.wait_type("view")
        assert first["reset"] and first["ctx"]["you"] is None and first["ctx"]["hand"] == []
        drive([a, s], timeout=90)
        views = [f for f in s.frames if f["type"] == "view"]
        assert views[-1]["events"] > first["events"] and not any(v["ask"] for v in views)
        s.send(type="leave")  # back to the start screen
        assert s.wait_type("left")["reason"] == "left"
        assert not srv.registry.rooms[code].spectators
