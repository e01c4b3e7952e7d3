"""The web table leaks nothing: every WebSocket frame sent to each person and each spectator is
checked against the independent knowledge account of :mod:`tests.noleak` (RULES.md §9).

No frame may carry another seat's hand, a hidden role, the deck order or a random outcome before
it happens — from the very first frame on, so the failure of boardgame.io issue #1159 (the initial
state sent before filtering) is covered.  The game is rebuilt from its record, not taken from the
server.  Frames that are not about the game's hidden information are checked for what they may
hold instead: signals are exactly what people sent, and the game-over frame (which reveals every
role, seed 001 "Победа и итоги матча") only arrives once the game has ended.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from harness.engine import Game
from harness.engine.cards import CARD_FACE
from harness.records import RunStore
from harness.views.names import card_label
from harness.web import web_seat
from tests.noleak.account import SPECTATOR, Account
from tests.noleak.scan import find_leaks

from .server import Client, LiveServer, drive, no_timeouts


def replayed(store: RunStore, game_id: str) -> Game:
    start, decisions, end = store.read_game(game_id)
    game = Game.new(start.seats, start.mode, start.seed)
    for d in decisions:
        game.apply(d.chosen)
    assert game.events == end.events and game.winning_side == end.winning_side
    return game


def check_frames(
    frames: list[dict[str, Any]],
    seat: int,
    game: Game,
    account: Account,
    names: list[str],
    sent_signals: list[dict[str, Any]],
    aliases: dict[int, list[str]] | None = None,
) -> list[str]:
    """Leaks in a connection's frames; ``aliases``: the seats' names in the other languages the
    connection may have switched to."""
    leaks: list[str] = []
    ends = [i for i, e in enumerate(game.events) if e["t"] == "game_over"]
    last_events = 0
    for k, frame in enumerate(frames):
        f = copy.deepcopy(frame)
        where = f"frame {k} ({f['type']})"
        if f["type"] == "signal":  # people's own words, never the server's knowledge
            sig = f["signal"]
            got = {key: sig[key] for key in ("seat", "kind", "role", "target", "reaction")}
            if got not in sent_signals:
                leaks.append(f"{where}: a signal nobody sent: {got}")
            continue
        if f["type"] == "over":
            if not ends or last_events <= ends[0]:
                leaks.append(f"{where}: roles revealed before the game ended")
            continue
        f.pop("board", None)  # the signal board (checked above, signal by signal)
        upto = f.get("events", last_events)
        if f["type"] == "view":
            last_events = upto
            d = f["ctx"]["decision"]
            if d and d["options"] and d["seat"] != seat:
                leaks.append(f"{where}: seat {d['seat']}'s options sent to seat {seat}")
            if f["ask"] and (seat == SPECTATOR or not d or d["seat"] != seat):
                leaks.append(f"{where}: asked to decide another seat's decision")
        leaks.extend(
            f"{where}: {line}"
            for line in find_leaks(
                f, seat, upto, account, game, names=names, where="", aliases=aliases
            )
        )
    return leaks


@pytest.mark.parametrize(("mode", "seats", "seed"), [("double_agent", 6, 31), ("classic", 5, 8)])
def test_no_frame_leaks_hidden_information(
    tmp_path: Path, mode: str, seats: int, seed: int
) -> None:
    rng = random.Random(seed)
    sent: list[dict[str, Any]] = []
    with LiveServer(tmp_path, seed=lambda: seed) as srv:
        a, b = Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": seats, "mode": mode})
        joined = a.wait_type("joined")
        code = joined["code"]
        b.send(type="join", code=code, name="Bob")
        b.wait_type("joined")
        spectator = Client(srv.ws_url)  # watching from before the deal
        spectator.send(type="watch", code=code)
        spectator.wait_type("joined")
        a.send(type="start")
        state = {"asks": 0}
        seat_of = {id(a): 0, id(b): 1}

        def hook(c: Client, f: dict[str, Any]) -> None:
            if f["type"] != "view" or not f["ask"]:
                return
            state["asks"] += 1
            if state["asks"] == 3:  # both people signal once (no wait: different people)
                for who, sig in ((a, {"kind": "claim", "role": "deputy"}),
                                 (b, {"kind": "react", "reaction": "gg"})):  # fmt: skip
                    who.send(type="signal", **sig)
                    sent.append({"seat": seat_of[id(who)], "role": None, "target": None,
                                 "reaction": None, **sig})  # fmt: skip

        def choose(f: dict[str, Any]) -> str:
            return str(rng.choice(f["ctx"]["decision"]["options"])["id"])

        drive([a, b, spectator], choose, hook=hook, timeout=90)
        # A reconnect after the end still sends only what that seat may know.
        again = Client(srv.ws_url)
        again.send(type="join", code=code, token=joined["token"])
        again.wait_type("over")
        names = srv.registry.rooms[code].names("en")
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    assert not no_timeouts(store.root)
    game = replayed(store, g.game_id)
    account = Account.from_game(game)
    checked = 0
    leaks: list[str] = []
    for client, seat in ((a, 0), (b, 1), (spectator, SPECTATOR), (again, 0)):
        views = [f for f in client.frames if f["type"] == "view"]
        assert views and views[0]["reset"], "every client's feed starts with a full view"
        leaks += check_frames(client.frames, seat, game, account, names, sent)
        checked += len(client.frames)
    assert checked > 3 * len(g.seat_outcomes), checked
    assert not leaks, "\n".join(leaks[:20])


def test_the_leak_check_catches_a_leak(tmp_path: Path) -> None:
    """The check is not vacuous: a frame carrying another seat's hand or hidden role is caught."""
    game = Game.new(5, "classic", 3)
    account = Account.from_game(game)
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    other = next(s for s in game.seats if s.index != 0 and s.role != "marshal")
    face = CARD_FACE[other.hand[0]]
    up = len(game.events)
    frames = [
        {"type": "view", "events": up, "ask": False,
         "ctx": {"decision": None, "feed": [f"{names[other.index]} holds {card_label(face)}"]}},
        {"type": "view", "events": up, "ask": False, "ctx": {"decision": None,
         "seats": [{"seat": other.index, "role": other.role}]}},
        {"type": "over", "players": []},
    ]  # fmt: skip
    found = check_frames(frames, 0, game, account, names, [])
    assert len(found) == 3, found


def test_people_leaving_coming_back_and_handed_over_leak_nothing(tmp_path: Path) -> None:
    """The table's lines about people (``note``), the notice to a replaced person and the views
    of a person who left and came back carry nothing hidden either."""
    rng = random.Random(5)
    with LiveServer(tmp_path, seed=lambda: 17) as srv:
        a, b, c = Client(srv.ws_url), Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 5, "mode": "double_agent"})
        code = a.wait_type("joined")["code"]
        tokens = []
        for who, name in ((b, "Bob"), (c, "Cid")):
            who.send(type="join", code=code, name=name)
            tokens.append(who.wait_type("joined")["token"])
        spectator = Client(srv.ws_url)
        spectator.send(type="watch", code=code)
        spectator.wait_type("joined")
        a.send(type="start")
        b.wait_type("view")
        names_before = list(srv.registry.rooms[code].names("en"))  # the seats as dealt
        b.send(type="leave")
        b.wait_type("left")
        back = Client(srv.ws_url)
        back.send(type="join", code=code, token=tokens[0])
        back.wait_type("joined")
        for on in (True, False):
            a.send(type="autopilot", seat=2, on=on)
            what = "autopilot" if on else "given_back"
            spectator.wait(lambda f, what=what: f["type"] == "note" and f["what"] == what)
        a.send(type="replace", seat=2, player="bot")
        c.wait_type("notice")

        def choose(f: dict[str, Any]) -> str:
            return str(rng.choice(f["ctx"]["decision"]["options"])["id"])

        drive([a, back, c, spectator], choose, timeout=90)
        names_after = srv.registry.rooms[code].names("en")
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    assert not no_timeouts(store.root)
    game = replayed(store, g.game_id)
    account = Account.from_game(game)
    notes = {f["what"] for f in spectator.frames if f["type"] == "note"}
    assert notes == {"left", "back", "autopilot", "given_back", "replaced"}, notes
    leaks: list[str] = []
    for client, seat in ((a, 0), (b, 1), (back, 1), (c, 2), (spectator, SPECTATOR)):
        # seat 2 is "Cid" until the replacement, "Bot 3" from its notice or line on
        fs = client.frames
        k = next((i for i, f in enumerate(fs) if f["type"] == "notice"
                  or (f["type"] == "note" and f["what"] == "replaced")), len(fs))  # fmt: skip
        leaks += check_frames(fs[:k], seat, game, account, names_before, [])
        leaks += check_frames(fs[k:], seat, game, account, names_after, [])
        assert all(f["type"] != "view" or f["ctx"]["you"] is None for f in fs[k:] if seat == 2)
    assert not leaks, "\n".join(leaks[:20])


def test_turns_settled_by_a_timeout_leak_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's connection is gone: each of his turns times out once (the disconnected grace,
    shortened here) and the bot finishes it; the ``timeout`` lines carry nothing hidden."""
    monkeypatch.setattr(web_seat, "DISCONNECTED_SECONDS", 0.3)
    rng = random.Random(9)
    with LiveServer(tmp_path, seed=lambda: 23) as srv:
        a, b = Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann", settings={"seats": 4})
        code = a.wait_type("joined")["code"]
        b.send(type="join", code=code, name="Bob")
        b.wait_type("joined")
        spectator = Client(srv.ws_url)
        spectator.send(type="watch", code=code)
        spectator.wait_type("joined")
        b.close()
        a.wait(lambda f: f["type"] == "room" and f["seats"][1]["connected"] is False)
        a.send(type="start")

        def choose(f: dict[str, Any]) -> str:
            return str(rng.choice(f["ctx"]["decision"]["options"])["id"])

        drive([a, spectator], choose, timeout=90)
        names = srv.registry.rooms[code].names("en")
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    timeouts = no_timeouts(store.root)
    assert timeouts and all(" seat 1 " in t for t in timeouts), timeouts
    lines = [f for f in spectator.frames if f["type"] == "note"]
    assert lines and all((f["what"], f["seat"]) == ("timeout", 1) for f in lines)
    assert len(lines) == len(timeouts)
    game = replayed(store, g.game_id)
    account = Account.from_game(game)
    leaks = check_frames(a.frames, 0, game, account, names, [])
    leaks += check_frames(spectator.frames, SPECTATOR, game, account, names, [])
    assert not leaks, "\n".join(leaks[:20])
