"""A bounded fuzz of the WebSocket (issue 21): while two people play a game, they, a spectator and
two strangers send random and mutated protocol messages (a seeded generator, a fixed number of
messages).  The server stays responsive (a ping answered within a bound), logs no error and no
traceback, the game ends — and every frame of the people and the spectator passes the leak check
of :mod:`tests.web.test_leak` against the independent account."""

from __future__ import annotations

import json
import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest

from harness.records import RunStore
from harness.views.names import LOCALES
from tests.noleak.account import SPECTATOR, Account

from .server import Client, LiveServer
from .test_leak import check_frames, replayed

SEED = 2026
PER_ROUND = 3  # fuzz messages per client every FUZZ_EVERY_S: within the message budget
FUZZ_EVERY_S = 0.2
PING_EVERY_S = 0.5
PAUSES = {"slow": 0.03, "normal": 0.03, "fast": 0.03}  # a game of a few seconds
WORDS = ["create", "join", "watch", "locale", "act", "signal", "fill_bots", "seat_bot", "replace",
         "remove", "autopilot", "speed", "start", "leave", "ping", "fly", "", "ACT"]  # fmt: skip
ODD: list[Any] = [None, True, -1, 0, 7, 2**63, 1.5, "", "x" * 70, "\u202e", "\u3000", "Bot 2",
                  [], {}, [1, [2]], {"a": {"b": 1}}, "gpt-test", "bot", "ru", "ZZZZZ"]  # fmt: skip


def valid(rng: random.Random, seated: bool, decision: int) -> dict[str, Any]:
    """A well-formed message a client of this kind may send without changing its seat."""
    pick = rng.randrange(9)
    if pick == 0:
        return {"type": "act", "decision": decision + rng.randint(-2, 2),
                "option": rng.choice(["end", "play:shot@1", "take", "draw:deck", "x"])}  # fmt: skip
    if pick == 1:
        kind = rng.choice(["claim", "mark", "react"])
        msg: dict[str, Any] = {"type": "signal", "kind": kind}
        if kind == "react":
            msg["reaction"] = rng.choice(["like", "gg", "funny"])
        else:
            msg["role"] = rng.choice(["deputy", "raider", "loner"])
            if kind == "mark":
                msg["target"] = rng.randrange(6)
        return msg
    if pick == 2:
        return {"type": "locale", "locale": rng.choice(["en", "ru", "zh", "ja", "ar"])}
    if pick == 3:
        return {"type": "speed", "speed": rng.choice(["slow", "normal", "fast"])}
    if pick == 4:
        return {"type": rng.choice(["fill_bots", "start", "ping"])}
    if pick == 5:
        return {"type": "seat_bot", "seat": rng.randrange(8), "player": rng.choice(["bot", "x"])}
    if pick == 6:
        return {"type": "remove", "seat": rng.randrange(8)}
    if pick == 7 and not seated:
        return {"type": rng.choice(["join", "watch"]), "code": rng.choice(["ZZZZZ", "AB12"]),
                "name": rng.choice(["Eve", " ", "Bot 3"])}  # fmt: skip
    if pick == 7:
        return {"type": "autopilot", "seat": rng.randrange(6), "on": False}
    return {"type": "create", "name": rng.choice(["Eve", "\u200bEve", "", "Mal"]),
            "settings": {"seats": rng.randint(3, 9)}}  # fmt: skip


def drain(c: Client) -> None:
    while True:
        try:
            c.recv(timeout=0.001)
        except TimeoutError:
            return


def moves(text: str | bytes) -> bool:
    """Whether ``text`` is a message that would take its client to another seat or room."""
    try:
        m = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(m, dict) and m.get("type") in ("leave", "watch", "create", "join", "replace")


def mutated(rng: random.Random, msg: dict[str, Any]) -> str | bytes:
    """``msg`` broken in one random way (or not at all)."""
    how = rng.randrange(10)
    m = dict(msg)
    if how == 0:
        m[rng.choice(list(m))] = rng.choice(ODD)
    elif how == 1:
        m["type"] = rng.choice(WORDS)
    elif how == 2:
        m[rng.choice(["extra", "seat", "token", "code"])] = rng.choice(ODD)
    elif how == 3:
        text = json.dumps(m)
        return text[: rng.randrange(len(text))]
    elif how == 4:
        d = rng.randint(10, 3000)
        return rng.choice(["[", '{"a":']) * d + "1" + rng.choice(["]", "}"]) * d
    elif how == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    elif how == 6:
        return json.dumps(rng.choice(ODD))
    elif how == 7:
        return json.dumps({**m, "pad": "x" * rng.randint(3000, 5000)})
    return json.dumps(m, ensure_ascii=rng.random() < 0.5)


def test_fuzzed_messages_break_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(SEED)
    uvicorn_log = logging.getLogger("uvicorn")
    uvicorn_log.addHandler(caplog.handler)
    sent_signals: list[dict[str, Any]] = []
    try:
        with (
            caplog.at_level(logging.ERROR),
            LiveServer(tmp_path, seed=lambda: SEED, pauses=PAUSES) as srv,
        ):
            ann, bob = Client(srv.ws_url), Client(srv.ws_url)
            ann.send(type="create", name="Ann", settings={"seats": 6})
            code = ann.wait_type("joined")["code"]
            bob.send(type="join", code=code, name="Bob")
            bob.wait_type("joined")
            watcher = Client(srv.ws_url)
            watcher.send(type="watch", code=code)
            watcher.wait_type("joined")
            strangers = [Client(srv.ws_url) for _ in range(2)]
            prober = Client(srv.ws_url)
            ann.send(type="start")
            people = {id(ann): 0, id(bob): 1}
            clients = [ann, bob, watcher]
            done: set[int] = set()
            decision = {id(c): 1 for c in clients}
            sent = worst = 0.0
            deadline = time.monotonic() + 90
            next_fuzz = next_ping = time.monotonic()
            while len(done) < len(clients):
                assert time.monotonic() < deadline, "the game did not end"
                for i, c in enumerate(clients):
                    try:
                        f = c.recv(timeout=0.01)
                    except TimeoutError:
                        f = None
                    if f is not None and f["type"] == "over":
                        done.add(i)
                    elif f is not None and f["type"] == "view":
                        decision[id(c)] = f["decision"]
                        if f["ask"]:
                            opts = f["ctx"]["decision"]["options"]
                            c.send(type="act", decision=f["decision"],
                                   option=rng.choice(opts)["id"])  # fmt: skip
                for c in strangers:  # read what they are sent, as a browser would
                    drain(c)
                now = time.monotonic()
                for c in [*clients, *strangers]:
                    if now < next_fuzz:
                        break
                    seated = id(c) in people
                    for _ in range(PER_ROUND):
                        msg = valid(rng, seated or c is watcher, decision.get(id(c), 1))
                        text = mutated(rng, msg) if rng.random() < 0.7 else json.dumps(msg)
                        if (seated or c is watcher) and moves(text):  # checked clients stay
                            text = '{"type":"ping"}'
                        if seated and isinstance(text, str) and '"signal"' in text:
                            try:
                                m = json.loads(text)
                                sent_signals.append({"seat": people[id(c)], "role": None,
                                                     "target": None, "reaction": None,
                                                     **{k: v for k, v in m.items()
                                                        if k not in ("type",)}})  # fmt: skip
                            except (ValueError, TypeError, AttributeError):
                                pass
                        c.send_raw(text)
                        sent += 1
                if now >= next_fuzz:
                    next_fuzz = now + FUZZ_EVERY_S
                if now >= next_ping:
                    next_ping = now + PING_EVERY_S
                    t0 = time.monotonic()
                    prober.send(type="ping")
                    prober.wait_type("pong", timeout=10)
                    worst = max(worst, time.monotonic() - t0)
            assert worst < 2.0, f"a ping waited {worst:.2f} s"
            assert sent > 150  # not vacuous (the game sets the length: a few seconds)
            for s in strangers:  # still connected and answered
                s.send(type="ping")
                try:
                    s.wait_type("pong", timeout=10)
                except TimeoutError:
                    raise AssertionError(s.frames[-5:]) from None
            room = srv.registry.rooms[code]
            names = room.names("en")
            # a fuzzed `locale` message switches a page's language: its seat names too
            aliases = {i: [room.names(loc)[i] for loc in LOCALES] for i in range(len(names))}
            codes = {f["code"] for c in [*clients, *strangers] for f in c.frames
                     if f["type"] == "error"}  # fmt: skip
            assert {"bad_json", "bad_frame", "bad_message", "unknown_type", "too_large"} <= codes
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text
    store = RunStore(tmp_path / "web")
    game_id = next(g.game_id for g in store.games() if code in g.game_id)
    game = replayed(store, game_id)
    account = Account.from_game(game)
    leaks: list[str] = []
    for client, seat in ((ann, 0), (bob, 1), (watcher, SPECTATOR)):
        assert any(f["type"] == "view" for f in client.frames)
        leaks += check_frames(client.frames, seat, game, account, names, sent_signals, aliases)
    assert not leaks, "\n".join(leaks[:20])
