"""Hostile clients (issue 21, "hostile clients"): names that freeze or disguise, floods of view
rebuilds, cross-site WebSockets, room and seat exhaustion, deep JSON, a room that lost its host,
guessing room codes, and the page's security headers."""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from harness.web.limits import (
    FAILURES_BURST_ADDRESS,
    FAILURES_BURST_CONNECTION,
    REBUILDS_BURST,
    ROOMS_PER_ADDRESS,
    ROOMS_PER_CONNECTION,
)
from harness.web.spending import DEFAULT_MAX_TOKENS, DEFAULT_MAX_USD, caps_line, server_caps
from harness.web.web_config import WebConfig
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import Client, LiveServer, drive
from .test_bad_input import expect_error

SLOW = {"slow": 0.3, "normal": 0.3, "fast": 0.3}


def ping_ms(c: Client, timeout: float = 10.0) -> float:
    t0 = time.monotonic()
    c.send(type="ping")
    c.wait_type("pong", timeout)
    return 1000 * (time.monotonic() - t0)


def read_for(clients: list[Client], seconds: float) -> None:
    """Read the clients' frames for ``seconds`` (each keeps them in ``frames``)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for c in clients:
            with contextlib.suppress(TimeoutError):
                c.recv(timeout=0.005)


def still_serves(srv: LiveServer) -> None:
    page = urllib.request.urlopen(srv.url + "/", timeout=5).read().decode()
    assert "/static/main.js" in page
    fresh = Client(srv.ws_url)
    assert ping_ms(fresh, 5) < 5000
    fresh.close()


# ---------------------------------------------------------------------------------------- names
@pytest.mark.parametrize("blank", [" ", "  ", "\u3000", "\u00a0", "\u2003"])
def test_a_blank_name_is_refused_and_the_server_stays_responsive(
    tmp_path: Path, blank: str
) -> None:
    with LiveServer(tmp_path) as srv:
        c = Client(srv.ws_url)
        c.send(type="create", name=blank)
        expect_error(c, "bad_name")
        host = Client(srv.ws_url)
        host.send(type="create", name="Ann")
        code = host.wait_type("joined")["code"]
        c.send(type="join", code=code, name=blank)
        expect_error(c, "bad_name")
        still_serves(srv)
        assert ping_ms(c, 5) < 5000
        assert [s.kind for s in srv.registry.rooms[code].slots].count("person") == 1


def test_names_are_normalised_and_disguises_and_seat_names_refused(tmp_path: Path) -> None:
    refused = ["Alice\u200b", "\u202eecilA", "A\u2066li", "Bot 2", "bot 7", "ИИ 3", "ボット 5",
               "AI1", "بوت ٢", "\u200b", "Ann\u2028", "x" * 25]  # fmt: skip
    with LiveServer(tmp_path) as srv:
        c = Client(srv.ws_url)
        for name in refused:
            c.send(type="create", name=name)
            expect_error(c, "bad_name")
        c.send(type="create", name="  Ａｎｎ\u3000 Lee ", settings={"seats": 4})
        code = c.wait_type("joined")["code"]
        names = []
        for raw in ("Ann Lee", "ann lee", "Ann  Lee"):
            other = Client(srv.ws_url)
            other.send(type="join", code=code, name=raw)
            other.wait_type("joined")
        names = [s.name for s in srv.registry.rooms[code].slots]
        assert names == ["Ann Lee", "Ann Lee (2)", "ann lee (3)", "Ann Lee (4)"]


# ------------------------------------------------------------------------- CPU amplification
# Generous for a loaded 2-core machine (1.2 s seen at load 17); unbudgeted rebuilds stalled
# other connections' pings 4.1-4.3 s.
PING_BOUND_MS = 2500


def test_a_flood_of_view_rebuilds_does_not_stall_other_connections(tmp_path: Path) -> None:
    """8 spectators × 150 ``locale`` messages on an 8-seat game while another connection pings:
    the rebuilds are budgeted and coalesced, and the server answers the ping between them.
    (The bound is loose — the figure is measured by ``bangarena bench serve --attack``.)"""
    with LiveServer(tmp_path, pauses=SLOW) as srv:
        first = Client(srv.ws_url)
        first.send(type="watch", settings={"seats": 8})
        code = first.wait_type("joined")["code"]
        attackers = [first]
        for _ in range(7):
            a = Client(srv.ws_url)
            a.send(type="watch", code=code)
            a.wait_type("joined")
            attackers.append(a)
        prober = Client(srv.ws_url)
        for a in attackers:
            a.wait_type("view")
        marks = [len(a.frames) for a in attackers]
        for k in range(150):
            for a in attackers:
                a.send(type="locale", locale=("ru", "en", "ja")[k % 3])
        worst = 0.0
        for _ in range(10):
            worst = max(worst, ping_ms(prober))
            read_for(attackers, 0.05)
        assert worst < PING_BOUND_MS, f"a ping waited {worst:.0f} ms"
        read_for(attackers, 1.0)  # the coalesced rebuilds are sent
        for a, mark in zip(attackers, marks, strict=True):
            got = a.frames[mark:]
            limited = sum(f["type"] == "error" and f["code"] == "rate_limited" for f in got)
            rebuilt = sum(f["type"] == "room" for f in got)
            assert limited >= 1  # refused, not rebuilt
            assert 1 <= rebuilt <= REBUILDS_BURST  # coalesced: far fewer than 150
        assert ping_ms(prober) < PING_BOUND_MS


# ------------------------------------------------------------------------- origins and hosts
@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def refused_handshake(url: str, **kw: Any) -> int:
    with pytest.raises(InvalidStatus) as e:
        Client(url, **kw)
    return int(e.value.response.status_code)


def test_a_cross_origin_websocket_is_refused_before_any_model_call(
    tmp_path: Path, fake: FakeOpenAIServer
) -> None:
    player = model_player("gpt-test", fake.base_url, price={"input": 1.0, "output": 2.0})
    settings = {"allow_origins": ["https://friend.example"]}
    # one known deal, in which the model seat has choices to make (a random deal could end
    # before the model is asked anything)
    with LiveServer(tmp_path, players=[player], settings=settings, seed=lambda: 7) as srv:
        assert refused_handshake(srv.ws_url, origin="http://evil.example") == 403
        assert refused_handshake(srv.ws_url, origin=None) == 403
        assert refused_handshake(srv.ws_url, origin=f"http://evil.example:{srv.port}") == 403
        # a foreign name for this address (DNS rebinding) is not this server
        sock = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
        sock.request("GET", "/api/meta", headers={"Host": f"localtest.invalid:{srv.port}"})
        assert sock.getresponse().status == 400
        assert srv.registry.rooms == {} and fake.script.model_requests == []
        # the served origin (and an allowed one) play, model seat included
        friend = Client(srv.ws_url, origin="https://friend.example")
        friend.send(type="ping")
        friend.wait_type("pong")
        assert refused_handshake(srv.ws_url, origin=f"http://localhost:{srv.port}") == 403
        host = Client(f"ws://localhost:{srv.port}/ws")  # the page as served at localhost
        host.send(type="ping")
        host.wait_type("pong")
        c = Client(srv.ws_url)
        c.send(type="create", name="Ann", settings={"seats": 4})
        c.wait_type("joined")
        c.send(type="seat_bot", seat=1, player="gpt-test")
        c.send(type="start")
        drive([c], timeout=90)
        assert srv.registry.spending.caps.max_usd == DEFAULT_MAX_USD
    assert fake.script.model_requests


def test_a_dns_rebinding_websocket_is_refused(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        sock = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
        sock.request("GET", "/ws", headers={
            "Host": f"rebind.example:{srv.port}", "Origin": f"http://rebind.example:{srv.port}",
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})  # fmt: skip
        assert sock.getresponse().status in (400, 403)


def test_model_seats_always_run_under_a_cap() -> None:
    priced = WebConfig.model_validate(
        {"players": [model_player("m", "http://127.0.0.1:9/v1", price={"input": 1, "output": 1})]}
    )
    caps = server_caps(priced)
    assert (caps.max_usd, caps.max_tokens) == (DEFAULT_MAX_USD, DEFAULT_MAX_TOKENS)
    line = caps_line(priced, caps)
    assert "$1.00" in line and "1,000,000 tokens" in line and "default" in line
    unpriced = WebConfig.model_validate(
        {"players": [{"name": "m", "kind": "model",
                      "model": {"provider": "openai", "model": "no-such-model-x"}}]}
    )  # fmt: skip
    caps = server_caps(unpriced)
    assert caps.max_usd is None and caps.max_tokens == DEFAULT_MAX_TOKENS
    own = WebConfig.model_validate({"spending": {"max_tokens": 5}})
    assert server_caps(own) is own.spending and "config 'spending'" in caps_line(own, own.spending)


# -------------------------------------------------------------------------- rooms and seats
def test_rooms_per_connection_and_per_address_are_limited(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        a = Client(srv.ws_url)
        for _ in range(ROOMS_PER_CONNECTION):  # each room keeps a person, so it stays open
            a.send(type="create", name="Ann")
            code = a.wait_type("joined")["code"]
            friend = Client(srv.ws_url)
            friend.send(type="join", code=code, name="Bob")
            friend.wait_type("joined")
            a.send(type="leave")
            a.wait_type("left")
        a.send(type="create", name="Ann")
        expect_error(a, "too_many_rooms")
        others = [Client(srv.ws_url) for _ in range(ROOMS_PER_ADDRESS - ROOMS_PER_CONNECTION)]
        for c in others:
            c.send(type="create", name="Cid")
            c.wait_type("joined")
        late = Client(srv.ws_url)
        late.send(type="create", name="Dee")
        expect_error(late, "too_many_rooms")
        late.send(type="watch")
        expect_error(late, "too_many_rooms")
        assert len(srv.registry.rooms) == ROOMS_PER_ADDRESS


def test_seats_and_connections_per_address_are_limited(tmp_path: Path) -> None:
    limits = {"seats_per_address": 2, "connections_per_address": 4}
    with LiveServer(tmp_path, settings={"limits": limits}) as srv:
        a, b, c = Client(srv.ws_url), Client(srv.ws_url), Client(srv.ws_url)
        a.send(type="create", name="Ann")
        code = a.wait_type("joined")["code"]
        b.send(type="join", code=code, name="Bob")
        b.wait_type("joined")
        c.send(type="join", code=code, name="Cid")
        expect_error(c, "too_many_seats")
        Client(srv.ws_url)
        assert refused_handshake(srv.ws_url) == 403


def test_rooms_nobody_is_connected_to_are_closed_soon(tmp_path: Path) -> None:
    limits = {"lobby_idle_s": 0.3, "game_idle_s": 2.5}
    with LiveServer(tmp_path, pauses=SLOW, settings={"limits": limits}) as srv:
        lobby, game = Client(srv.ws_url), Client(srv.ws_url)
        lobby.send(type="create", name="Ann")
        lobby_code = lobby.wait_type("joined")["code"]
        game.send(type="create", name="Bob", settings={"seats": 8}, play=True)
        game_code = game.wait_type("joined")["code"]
        game.wait_type("view")
        lobby.close()
        game.close()
        time.sleep(1.6)
        assert lobby_code not in srv.registry.rooms
        assert game_code in srv.registry.rooms  # a game in progress waits longer
        deadline = time.monotonic() + 10
        while game_code in srv.registry.rooms:
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_a_connection_holds_one_seat(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        host, bob = Client(srv.ws_url), Client(srv.ws_url)
        host.send(type="create", name="Ann", settings={"seats": 4})
        code = host.wait_type("joined")["code"]
        bob.send(type="join", code=code, name="Bob")
        bob.wait_type("joined")
        bob.send(type="join", code=code, name="Bob")
        expect_error(bob, "already_seated")
        bob.send(type="join", code=code, name="Bob")
        expect_error(bob, "already_seated")
        bob.send(type="create", name="Bob")
        expect_error(bob, "already_seated")
        room = srv.registry.rooms[code]
        assert [s.kind for s in room.slots] == ["person", "person", "empty", "empty"]
        # watching elsewhere keeps the seat; joining from there is still refused
        bob.send(type="watch", code=code)
        bob.wait_type("joined")
        bob.send(type="join", code=code, name="Bob")
        expect_error(bob, "already_seated")
        # the next real people get the free seats
        for name in ("Cid", "Dee"):
            c = Client(srv.ws_url)
            c.send(type="join", code=code, name=name)
            c.wait_type("joined")
        # ← Back gives the seat up; then the window may sit again
        bob.send(type="leave")
        bob.wait_type("left")
        assert [s.name for s in room.slots] == ["Ann", "", "Cid", "Dee"]
        bob.send(type="join", code=code, name="Bob")
        assert bob.wait_type("joined")["seat"] == 1


# ------------------------------------------------------------------------------- bad frames
def test_deep_json_is_bad_json_and_the_connection_lives(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR), LiveServer(tmp_path) as srv:
        c = Client(srv.ws_url)
        for _ in range(3):
            c.send_raw("[" * 2000 + "]" * 2000)
            expect_error(c, "bad_json")
        c.send_raw(json.dumps({"type": "ping", "x": json.loads("[" * 20 + "]" * 20)}))
        expect_error(c, "bad_json")
        c.send_raw(json.dumps({"type": "ping", "x": "[" * 40}))  # brackets in a string: not JSON's
        assert "unexpected" not in expect_error(c, "bad_message")["message"]
        assert ping_ms(c) < 5000
    assert "Traceback" not in caplog.text and not caplog.records


# ------------------------------------------------------------------------------------- host
def test_the_host_comes_back_to_a_connected_person(tmp_path: Path) -> None:
    """Bob's socket drops, the host leaves (no connected person: no host), Bob comes back with
    his token — and is the host."""
    with LiveServer(tmp_path) as srv:
        ann, bob = Client(srv.ws_url), Client(srv.ws_url)
        ann.send(type="create", name="Ann")
        code = ann.wait_type("joined")["code"]
        bob.send(type="join", code=code, name="Bob")
        token = bob.wait_type("joined")["token"]
        bob.close()
        ann.wait(lambda f: f["type"] == "room" and f["seats"][1]["connected"] is False)
        ann.send(type="leave")
        ann.wait_type("left")
        assert srv.registry.rooms[code].host is None
        back = Client(srv.ws_url)
        back.send(type="join", code=code, token=token)
        back.wait_type("joined")
        assert back.wait_type("room")["is_host"]
        back.send(type="speed", speed="fast")
        room = back.wait(lambda f: f["type"] == "room" and f["speed"] == "fast")
        assert room["host"] == 1 and room["is_host"]
        assert "not_host" not in [f.get("code") for f in back.frames]


# ------------------------------------------------------------------------------- room codes
def test_guessing_room_codes_is_rate_limited(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        host = Client(srv.ws_url)
        host.send(type="create", name="Ann")
        code = host.wait_type("joined")["code"]
        guesser = Client(srv.ws_url)
        got = []
        for k in range(FAILURES_BURST_CONNECTION + 5):
            guesser.send(type="watch", code=f"ZZZ{k:02d}")
            got.append(guesser.wait_type("error")["code"])
        assert got[:FAILURES_BURST_CONNECTION] == ["no_room"] * FAILURES_BURST_CONNECTION
        assert set(got[FAILURES_BURST_CONNECTION:]) == {"rate_limited"}
        guesser.send(type="watch", code=code)  # even the right code waits now
        expect_error(guesser, "rate_limited")
        # more connections from the same address share the address's budget
        failed = FAILURES_BURST_CONNECTION
        while failed < FAILURES_BURST_ADDRESS:
            g = Client(srv.ws_url)
            for _ in range(min(FAILURES_BURST_CONNECTION, FAILURES_BURST_ADDRESS - failed)):
                g.send(type="join", code="ZZZZZ", name="Eve")
                expect_error(g, "no_room")
                failed += 1
            g.close()
        fresh = Client(srv.ws_url)
        fresh.send(type="join", code=code, token="x" * 24)
        expect_error(fresh, "rate_limited")


# ---------------------------------------------------------------------------------- headers
def test_security_headers_and_no_api_docs(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        for path in ("/", "/static/main.js", "/api/meta"):
            with urllib.request.urlopen(srv.url + path, timeout=5) as r:
                h = r.headers
                csp = h["Content-Security-Policy"]
                assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
                assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
                assert h["X-Content-Type-Options"] == "nosniff"
                assert h["X-Frame-Options"] == "DENY"
                assert h["Referrer-Policy"] == "no-referrer"
        for path in ("/openapi.json", "/docs", "/redoc"):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(srv.url + path, timeout=5)
            assert e.value.code == 404
        page = urllib.request.urlopen(srv.url + "/", timeout=5).read().decode()
        assert "<script>" not in page and "<style" not in page and " on" + "submit=" not in page
