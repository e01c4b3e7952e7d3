"""Reverse proxies the operator names (``serve --forwarded-allow-ips``, config
``forwarded_allow_ips``): only a connection from one of them may say, in ``X-Forwarded-For``,
which client it carries.

Without the list no forwarded address is believed: the client is the socket's peer, whatever the
headers say (a client that could choose its own address would escape every per-address limit).
With it, a request from a named proxy is the client's the proxy names (the right-most address
that is not itself a named proxy), and the proxy's own sockets have no per-address cap — it
carries everyone.  Entries are IP addresses or networks (``10.0.0.5``, ``10.0.0.0/24``,
``::1``); ``*`` (believe anyone) is refused.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_network(entry: str) -> Network:
    """The network of one entry; ``ValueError`` (one line) when it is not an address or a
    network."""
    text = entry.strip()
    if text == "*":
        raise ValueError(
            "'*' would believe any client's X-Forwarded-For: name the proxy's addresses"
        )
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise ValueError(
            f"{entry[:80]!r} is not an IP address or network like 10.0.0.5 or 10.0.0.0/24"
        ) from None


def split_entries(values: Iterable[str]) -> list[str]:
    """Comma-separated lists (as uvicorn's ``--forwarded-allow-ips`` takes them) as one list."""
    return [part.strip() for v in values for part in v.split(",") if part.strip()]


class Proxies:
    """The named proxies, asked about a socket's peer address."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.entries = list(entries)
        self.networks = [proxy_network(e) for e in self.entries]

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, peer: str) -> bool:
        if not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(peer)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in net for net in self.networks)
