"""What one client may use of the web table (config ``limits``), and the counters that hold it.

Every network client is hostile until shown otherwise, so each resource it can make the server
spend is bounded per connection and per address (:func:`address_key`: the client's IPv4 address,
or the /64 network of its IPv6 address — one household's or one server's usual allocation; behind
a reverse proxy every client shares the proxy's address):

- messages: a token bucket per connection (:attr:`WebLimits.messages_per_s`, bursts of
  :attr:`~WebLimits.messages_burst`); a message over budget is dropped unread, and the connection
  gets a ``rate_limited`` error frame for it at most once a second;
- messages that rebuild a whole view (``locale``, ``join``, ``watch``): a smaller bucket of their
  own; repeated ``locale`` messages are coalesced into one rebuild;
- failed ``join`` and ``watch`` attempts (a wrong room code or seat token, a full room): a bucket
  per connection and one per address, so room codes cannot be guessed at speed;
- rooms: a connection may have created at most :attr:`~WebLimits.rooms_per_connection` rooms that
  are still open, an address its share of :attr:`~WebLimits.rooms_per_address`
  (:func:`room_share`: in proportion to the server's rooms still free, never less than one), the
  server :attr:`~WebLimits.max_rooms`, of which the last
  :attr:`~WebLimits.play_reserve` are kept for tables that start at once against bots (the start
  screen's Play), so lobbies never fill the server; one seat per connection,
  :attr:`~WebLimits.seats_per_address` seats per address,
  :attr:`~WebLimits.connections_per_address` connections per address,
  :attr:`~WebLimits.spectators_per_room` spectators per room;
- rooms nobody is connected to are closed: a lobby (or a finished game) after
  :attr:`~WebLimits.lobby_idle_s`, a game in progress after :attr:`~WebLimits.game_idle_s`, a
  table of bots only as soon as nobody watches it; and a lobby closes
  :attr:`~WebLimits.lobby_max_s` after it became one (created, or its game ended), whoever is
  connected to it;
- bot matches (a table of bots only, watched): at most :attr:`~WebLimits.bot_matches` playing at
  once on the whole server.

So a hundred addresses cannot hold every room (each gets a smaller share as the rooms run out:
they hold about two thirds), lobbies stop short of the reserve, and a visitor from a new address
can still play against bots.

Below the app, the transport (:mod:`.transport`, :mod:`.sockets`) holds what a client can spend
before a message reaches it:

- open sockets: :attr:`~WebLimits.sockets_per_address` per address (the socket's own peer, a
  named proxy excepted), :attr:`~WebLimits.max_sockets` in all (by default the open-file limit
  less :data:`RESERVED_FILES`; when it is reached the socket waiting longest for a request is
  closed to make room);
- requests: a request line and headers of at most :attr:`~WebLimits.request_head_bytes` (HTTP 414
  or 431), the whole request within :attr:`~WebLimits.request_timeout_s` of the connection or of
  the previous response (else the socket is closed; so is one whose response the client stops
  reading for as long), an idle keep-alive connection :attr:`~WebLimits.keep_alive_s`;
- WebSocket messages: at most :attr:`~WebLimits.message_bytes` (counted after inflating a
  compressed message, and inflating stops there: close code 1009); frames of every kind from a
  bucket of :attr:`~WebLimits.frames_burst` refilled at :attr:`~WebLimits.frames_per_s`, control
  frames (ping, pong) also from one of :attr:`~WebLimits.control_frames_burst` refilled at
  :attr:`~WebLimits.control_frames_per_s` (past either the connection is closed, code 1008); a
  server ping every :attr:`~WebLimits.ping_interval_s`, unanswered for
  :attr:`~WebLimits.ping_timeout_s`, closes the connection.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

RATE_LIMITED = "rate_limited"  # the ``code`` of the error frame for a message over budget

MAX_ROOMS = 1000
ROOMS_PER_CONNECTION = 3
ROOMS_PER_ADDRESS = 10
SEATS_PER_ADDRESS = 16
CONNECTIONS_PER_ADDRESS = 64
SPECTATORS_PER_ROOM = 32
MESSAGES_PER_S = 20.0
MESSAGES_BURST = 60
REBUILDS_PER_S = 2.0
REBUILDS_BURST = 10
FAILURES_PER_S = 0.5
FAILURES_BURST_CONNECTION = 5
FAILURES_BURST_ADDRESS = 20
LOBBY_IDLE_S = 60.0
GAME_IDLE_S = 180.0
LOBBY_MAX_S = 1800.0
PLAY_RESERVE = 0.1
IPV6_PREFIX = 64  # the per-address limits count an IPv6 address by its /64 network
BOT_MATCHES = 20
SOCKETS_PER_ADDRESS = 128
RESERVED_FILES = 128  # open files kept for everything but client sockets (max_sockets: auto)
REQUEST_HEAD_BYTES = 16 * 1024
REQUEST_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 5.0
MESSAGE_BYTES = 64 * 1024  # the app answers a message over protocol.MAX_FRAME_BYTES itself
FRAMES_PER_S = 60.0
FRAMES_BURST = 240
CONTROL_FRAMES_PER_S = 2.0
CONTROL_FRAMES_BURST = 20
PING_INTERVAL_S = 20.0
PING_TIMEOUT_S = 20.0
COALESCE_S = 0.05  # repeated ``locale`` messages within this time rebuild the view once


class WebLimits(BaseModel):
    """The config's ``limits`` section (every field optional)."""

    model_config = ConfigDict(extra="forbid")

    max_rooms: int = Field(default=MAX_ROOMS, ge=1)
    rooms_per_connection: int = Field(default=ROOMS_PER_CONNECTION, ge=1)
    rooms_per_address: int = Field(default=ROOMS_PER_ADDRESS, ge=1)
    seats_per_address: int = Field(default=SEATS_PER_ADDRESS, ge=1)
    connections_per_address: int = Field(default=CONNECTIONS_PER_ADDRESS, ge=1)
    spectators_per_room: int = Field(default=SPECTATORS_PER_ROOM, ge=1)
    messages_per_s: float = Field(default=MESSAGES_PER_S, gt=0)
    messages_burst: int = Field(default=MESSAGES_BURST, ge=1)
    rebuilds_per_s: float = Field(default=REBUILDS_PER_S, gt=0)
    rebuilds_burst: int = Field(default=REBUILDS_BURST, ge=1)
    failures_per_s: float = Field(default=FAILURES_PER_S, gt=0)
    failures_burst_connection: int = Field(default=FAILURES_BURST_CONNECTION, ge=1)
    failures_burst_address: int = Field(default=FAILURES_BURST_ADDRESS, ge=1)
    lobby_idle_s: float = Field(default=LOBBY_IDLE_S, ge=0)
    game_idle_s: float = Field(default=GAME_IDLE_S, ge=0)
    lobby_max_s: float = Field(default=LOBBY_MAX_S, gt=0)
    play_reserve: float = Field(default=PLAY_RESERVE, ge=0, lt=1)
    bot_matches: int = Field(default=BOT_MATCHES, ge=0)
    # the transport (harness.web.transport): before a message reaches the app
    sockets_per_address: int = Field(default=SOCKETS_PER_ADDRESS, ge=1)
    max_sockets: int | None = Field(default=None, ge=1)  # None: the open-file limit less 128
    request_head_bytes: int = Field(default=REQUEST_HEAD_BYTES, ge=1024)
    request_timeout_s: float = Field(default=REQUEST_TIMEOUT_S, gt=0)
    keep_alive_s: float = Field(default=KEEP_ALIVE_S, gt=0)
    message_bytes: int = Field(default=MESSAGE_BYTES, ge=1024)
    frames_per_s: float = Field(default=FRAMES_PER_S, gt=0)
    frames_burst: int = Field(default=FRAMES_BURST, ge=1)
    control_frames_per_s: float = Field(default=CONTROL_FRAMES_PER_S, gt=0)
    control_frames_burst: int = Field(default=CONTROL_FRAMES_BURST, ge=1)
    ping_interval_s: float = Field(default=PING_INTERVAL_S, gt=0)
    ping_timeout_s: float = Field(default=PING_TIMEOUT_S, gt=0)

    @property
    def lobby_rooms(self) -> int:
        """How many rooms lobbies may fill: :attr:`max_rooms` less the Play reserve."""
        return self.max_rooms - math.floor(self.max_rooms * self.play_reserve)


def room_share(limits: WebLimits, open_rooms: int) -> int:
    """How many open rooms one address may have created when the server has ``open_rooms``:
    :attr:`~WebLimits.rooms_per_address` times the share of :attr:`~WebLimits.max_rooms` still
    free, rounded up, and at least one (10 on an empty server, 5 when half the rooms are taken,
    1 in the last tenth)."""
    free = max(0, limits.max_rooms - open_rooms)
    return max(1, math.ceil(limits.rooms_per_address * free / limits.max_rooms))


def address_key(host: str) -> str:
    """The address the per-address limits count for a client at ``host``: an IPv4 address as it
    is, an IPv6 address by its /:data:`IPV6_PREFIX` network (one subscriber usually has a whole
    /64, so limiting single IPv6 addresses would limit nothing), an IPv4-mapped IPv6 address as
    its IPv4 address; anything else as given."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), IPV6_PREFIX), strict=False))
    return str(ip)


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; :meth:`take` spends one if there is one."""

    __slots__ = ("burst", "rate", "tokens", "stamp")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst = float(burst)
        self.rate = rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def ready(self) -> bool:
        """At least one token is left (nothing is spent)."""
        self._refill()
        return self.tokens >= 1.0

    def take(self) -> bool:
        """Spend one token; False (nothing spent) when the bucket is empty."""
        if not self.ready():
            return False
        self.tokens -= 1.0
        return True

    def spend(self) -> None:
        """Spend one token, if any is left (a failure is counted after the attempt)."""
        self._refill()
        self.tokens = max(0.0, self.tokens - 1.0)

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


@dataclass
class Address:
    connections: int
    failures: TokenBucket


class Addresses:
    """Per-address counters: live connections and the failed-join bucket.  An address is
    forgotten once it has no connection and its bucket has refilled (:meth:`prune`), so the table
    holds at most the live connections' addresses plus a few recent ones."""

    def __init__(self, limits: WebLimits) -> None:
        self.limits = limits
        self._by: dict[str, Address] = {}

    def _get(self, addr: str) -> Address:
        a = self._by.get(addr)
        if a is None:
            lim = self.limits
            a = self._by[addr] = Address(
                0, TokenBucket(lim.failures_burst_address, lim.failures_per_s)
            )
        return a

    def connect(self, addr: str) -> bool:
        """Count a new connection from ``addr``; False (not counted) when it has too many."""
        a = self._get(addr)
        if a.connections >= self.limits.connections_per_address:
            return False
        a.connections += 1
        return True

    def disconnect(self, addr: str) -> None:
        a = self._by.get(addr)
        if a is not None:
            a.connections = max(0, a.connections - 1)

    def failures(self, addr: str) -> TokenBucket:
        return self._get(addr).failures

    def prune(self) -> None:
        for addr, a in list(self._by.items()):
            if a.connections == 0 and a.failures.full():
                del self._by[addr]

    def __len__(self) -> int:
        return len(self._by)
