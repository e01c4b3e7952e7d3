"""The server's rooms under many addresses (issue 35 items 6 and 8): a hundred addresses with ten
lobbies each no longer fill the 1,000-room cap, lobbies expire even with their host connected,
the cap degrades fairly (a visitor from a new address can still play against bots), IPv6 clients
are counted by /64 network, and a ``create`` refused for its seat leaves no room behind."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from harness.web import Registry, WebConfig
from harness.web.connection import Connection
from harness.web.limits import WebLimits, address_key, room_share
from harness.web.protocol import TableSettings
from harness.web.room_state import RoomError

from .server import Client, LiveServer
from .test_bad_input import expect_error

SETTINGS = TableSettings()


class NoSocket:
    async def send_text(self, data: str) -> None:
        pass

    async def close(self, code: int = 1000) -> None:
        pass


def lobbies(reg: Registry, address: str, tries: int) -> int:
    """How many lobbies ``address`` opens with ``tries`` windows, each seated in its own lobby
    and staying connected (the host is there: idle lobbies are not what is tested here)."""
    opened = 0
    for _ in range(tries):
        conn = Connection(NoSocket(), address=address, limits=reg.limits)
        try:
            reg.create_seated(SETTINGS, conn, "Ann")
        except RoomError as e:
            assert e.code in ("too_many_rooms", "busy"), e
            continue
        opened += 1
    return opened


def test_a_hundred_addresses_cannot_fill_the_server_and_a_visitor_still_plays(
    tmp_path: Path,
) -> None:
    """The reproduction: 100 addresses × 10 lobbies with a connected host reached the 1,000-room
    cap.  Now an address's share shrinks with the rooms still free, so the same attack holds
    about two thirds of them; a new visitor still opens a lobby and
    plays against bots.  Even 2,000 more addresses fill only the lobbies' part: Play still
    starts."""

    async def attack() -> None:
        reg = Registry(WebConfig(name="cap", output=str(tmp_path)))
        lim = reg.limits
        assert (lim.max_rooms, lim.rooms_per_address) == (1000, 10)
        per_address = [lobbies(reg, f"10.0.{i}.1", 10) for i in range(100)]
        assert per_address[0] == 10 and per_address[-1] >= 1
        assert per_address == sorted(per_address, reverse=True)
        assert 600 <= len(reg.rooms) <= 700 < lim.lobby_rooms < lim.max_rooms
        assert lobbies(reg, "192.0.2.1", 1) == 1  # a visitor's lobby
        visitor = Connection(NoSocket(), address="192.0.2.2", limits=lim)
        room, _ = reg.create_seated(SETTINGS, visitor, "Vic", play=True)
        room.start()
        assert room.playing
        for i in range(2000):  # a far larger attack: lobbies stop short of the reserve
            lobbies(reg, f"10.1.{i // 256}.{i % 256}", 1)
        assert len(reg.rooms) == lim.lobby_rooms == 900
        with pytest.raises(RoomError) as e:
            reg.create(SETTINGS, Connection(NoSocket(), address="192.0.2.3", limits=lim))
        assert e.value.code == "busy" and "Play" in str(e.value)
        late = Connection(NoSocket(), address="192.0.2.4", limits=lim)
        room, _ = reg.create_seated(SETTINGS, late, "Lou", play=True)
        room.start()
        assert room.playing and len(reg.rooms) == 901
        await reg.aclose()

    asyncio.run(attack())


def test_an_addresss_share_shrinks_as_the_rooms_run_out() -> None:
    lim = WebLimits()
    shares = [room_share(lim, n) for n in (0, 1, 100, 500, 750, 900, 999, 1000)]
    assert shares == [10, 10, 9, 5, 3, 1, 1, 1]
    assert WebLimits(max_rooms=10, play_reserve=0.25).lobby_rooms == 8


def test_ipv6_clients_are_counted_by_their_64_network(tmp_path: Path) -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ab:cd:ef:1")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == address_key("198.51.100.7") == "198.51.100.7"

    async def same_network() -> None:
        reg = Registry(WebConfig(name="v6", output=str(tmp_path)))
        hosts = [f"2001:db8:1:2::{k:x}" for k in range(1, 16)]  # one /64, 15 addresses
        opened = sum(lobbies(reg, address_key(h), 1) for h in hosts)
        assert opened == reg.limits.rooms_per_address
        assert lobbies(reg, address_key("2001:db8:1:3::1"), 1) == 1  # the next /64
        await reg.aclose()

    asyncio.run(same_network())


def test_the_server_counts_an_ipv6_client_by_its_network(tmp_path: Path) -> None:
    with LiveServer(tmp_path, host="::1") as srv:
        c = Client(srv.ws_url)
        c.send(type="create", name="Ann")
        code = c.wait_type("joined")["code"]
        assert srv.registry.rooms[code].creator_address == "::/64"


def test_lobbies_expire_even_with_their_host_connected(tmp_path: Path) -> None:
    """A lobby closes ``lobby_max_s`` after it became one, whoever is in it, and the people in it
    are told why; a game in progress is not a lobby."""
    with LiveServer(tmp_path, settings={"limits": {"lobby_max_s": 1.0}}) as srv:
        ann, bob = Client(srv.ws_url), Client(srv.ws_url)
        ann.send(type="create", name="Ann")
        code = ann.wait_type("joined")["code"]
        bob.send(type="create", name="Bob", settings={"seats": 4}, play=True)
        game = bob.wait_type("joined")["code"]
        bob.wait(lambda f: f["type"] == "view" and f["ask"], 20)  # Bob is asked, and waits
        t0 = time.monotonic()
        left = ann.wait_type("left", 20)
        assert time.monotonic() - t0 < 15
        assert left["reason"] == "expired" and "create a new one" in left["message"]
        assert code not in srv.registry.rooms
        assert game in srv.registry.rooms and srv.registry.rooms[game].playing


def test_a_create_refused_for_its_seat_leaves_no_room(tmp_path: Path) -> None:
    """The reproduction: a ``create`` refused with ``too_many_seats`` still made an empty room for
    up to a second."""
    with LiveServer(tmp_path, settings={"limits": {"seats_per_address": 1}}) as srv:
        ann, again = Client(srv.ws_url), Client(srv.ws_url)
        ann.send(type="create", name="Ann")
        ann.wait_type("joined")
        for play in (False, True):
            again.send(type="create", name="Ann", play=play)
            expect_error(again, "too_many_seats")
            assert len(srv.registry.rooms) == 1
