"""The server's open sockets, per address and in all (:class:`SocketTable`).

A socket is counted from the moment it is accepted, before a byte of it is read, until it closes,
whatever it becomes (an HTTP request, a WebSocket), under its peer's address: an IPv4 address, or
an IPv6 address's /64 (one network's clients share it).  A named reverse proxy
(:mod:`.proxies`) has no per-address cap; it carries everyone, and the app's own per-address
limits count the clients it names.

When the server holds all the sockets it may (``max_sockets``, below the process's open-file
limit so that accepting never fails for want of a file), the socket that has waited longest for
a request — idle, or still sending its request line and headers — is closed to make room; only
when no socket is waiting is the new one refused.  So sockets that never finish a request cannot
keep a real visitor's page from loading.
"""

from __future__ import annotations

import resource
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .limits import RESERVED_FILES, address_key
from .proxies import Proxies

MIN_SOCKETS = 16


def socket_budget(max_sockets: int | None) -> int:
    """``max_sockets``, or (``None``) the open-file limit less :data:`RESERVED_FILES`."""
    if max_sockets is not None:
        return max_sockets
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(MIN_SOCKETS, soft - RESERVED_FILES)


class SocketTable:
    """Open sockets by address; each is known by its transport object."""

    def __init__(self, per_address: int, total: int, proxies: Proxies | None = None) -> None:
        self.per_address = per_address
        self.total = total
        self.proxies = proxies or Proxies()
        self._key: dict[Any, str] = {}  # transport -> address key ("" for a named proxy)
        self._count: dict[str, int] = {}
        # sockets waiting for a request, the longest-waiting first: transport -> how to close it
        self._waiting: OrderedDict[Any, Callable[[], None]] = OrderedDict()
        self.evicted = 0
        self.refused = 0

    def __len__(self) -> int:
        return len(self._key)

    def count(self, peer: str) -> int:
        return self._count.get(address_key(peer), 0)

    def open(self, transport: Any, peer: str) -> bool:
        """Count a new socket from ``peer``; False (not counted) when its address holds its cap,
        or when the server is full and no socket is waiting for a request."""
        key = "" if peer in self.proxies else address_key(peer)
        if key and self._count.get(key, 0) >= self.per_address:
            self.refused += 1
            return False
        if len(self._key) >= self.total and not self._evict():
            self.refused += 1
            return False
        self._key[transport] = key
        self._count[key] = self._count.get(key, 0) + 1
        return True

    def waiting(self, transport: Any, close: Callable[[], None]) -> None:
        """``transport`` waits for a request (it may be closed to make room)."""
        if transport in self._key:
            self._waiting[transport] = close
            self._waiting.move_to_end(transport)

    def busy(self, transport: Any) -> None:
        """``transport`` has a whole request (or is a WebSocket): it is not closed for room."""
        self._waiting.pop(transport, None)

    def release(self, transport: Any) -> None:
        """``transport`` closed (idempotent)."""
        self._waiting.pop(transport, None)
        key = self._key.pop(transport, None)
        if key is None:
            return
        left = self._count.get(key, 1) - 1
        if left > 0:
            self._count[key] = left
        else:
            self._count.pop(key, None)

    def _evict(self) -> bool:
        if not self._waiting:
            return False
        transport, close = self._waiting.popitem(last=False)
        self.release(transport)
        self.evicted += 1
        close()
        return True
