"""People at a web table: one timeout settles the whole turn (RULES.md §3 "Decisions and time",
Ruling R-5), leaving mid-game and coming back, the table lines the others see when a person
leaves, comes back, is replaced or removed, and watching a friend's started room by its code."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from harness.engine import Game
from harness.web import seats as web_seats
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
        a.close()
    kinds = [(d.decision_kind, d.fallback) for d in mine]
    assert [d.fallback for d in mine].count("timeout") == 1, kinds
    assert mine[0].fallback == "timeout" and mine[0].decision_kind == "play", kinds
    assert len(mine) > 1, f"the turn needs more than one decision to show anything: {kinds}"
    rest = mine[1:]
    assert all(d.fallback == "autopilot" and d.error == web_seats.AFTER_TIMEOUT for d in rest)
    assert any(d.decision_kind == "discard" for d in rest), kinds
    spent = sum(d.latency_s for d in mine)
    assert TIMER <= spent < 2 * TIMER, f"{spent:.2f} s for the turn's {len(mine)} decisions"


def test_a_disconnected_persons_turn_is_settled_after_the_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §3: a disconnected person's decision gets 8 s (shortened here) — once per turn,
    not once per discard."""
    grace = 1.0
    monkeypatch.setattr(web_seats, "DISCONNECTED_SECONDS", grace)
    with LiveServer(tmp_path, seed=lambda: 5) as srv:
        (a,) = start_room(srv.ws_url, seats=4, decision_seconds=15)
        room = srv.registry.rooms[a.frames[0]["code"]]
        a.close()
        mine = first_own_turn(room, 0, timeout=60)
    kinds = [(d.decision_kind, d.fallback) for d in mine]
    timeouts = [d for d in mine if d.fallback == "timeout"]
    assert len(timeouts) == 1 and "disconnected" in (timeouts[0].error or ""), kinds
    assert len(mine) > 1 and all(d.fallback == "autopilot" for d in mine[1:]), kinds
    spent = sum(d.latency_s for d in mine)
    assert grace * 0.9 <= spent < 2 * grace, f"{spent:.2f} s for the turn's {len(mine)} decisions"


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
