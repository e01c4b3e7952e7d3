"""Who may talk to the table: the ``Host`` and ``Origin`` checks (an ASGI middleware).

A page on another site can open a WebSocket to any address the browser reaches, and a name that
resolves to 127.0.0.1 (DNS rebinding) makes another site's page look same-origin.  So:

- every request's ``Host`` must name this server: an IP address (a rebinding page always uses a
  name), ``localhost``, the address the server listens on, or a name of the ``allow_hosts``
  list (config, ``serve --allow-host``); anything else gets HTTP 400;
- a WebSocket is accepted only when its ``Origin`` is the served origin (``http(s)://`` plus the
  request's ``Host``) or one of the ``allow_origins`` list (config, ``serve --allow-origin``);
  a missing or foreign ``Origin`` is refused before the socket is accepted (HTTP 403), so no
  message of it is read and no model seat is spent on it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("localhost",)


def hostname(host: str) -> str:
    """The name part of a ``Host`` header (no port, no IPv6 brackets), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def normal_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` of ``origin`` in lower case, or ``None`` when it is not one."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        return None
    return f"{parts.scheme}://{parts.netloc.lower()}"


class OriginPolicy:
    def __init__(
        self,
        listen_host: str = "127.0.0.1",
        allow_hosts: Iterable[str] = (),
        allow_origins: Iterable[str] = (),
    ) -> None:
        self.hosts = {hostname(h) for h in (listen_host, *LOOPBACK_NAMES, *allow_hosts)}
        self.origins = {o for o in map(normal_origin, allow_origins) if o is not None}

    def host_ok(self, host: str | None) -> bool:
        if not host:
            return False
        name = hostname(host)
        return name in self.hosts or _is_ip(name)

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        if not origin or not host:
            return False
        o = normal_origin(origin)
        if o is None:
            return False
        return o in self.origins or o in (f"http://{host.lower()}", f"https://{host.lower()}")


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return bytes(v).decode("latin-1")
    return None


class OriginGuard:
    """The ASGI middleware that applies an :class:`OriginPolicy` to every request."""

    def __init__(self, app: ASGIApp, policy: OriginPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not self.policy.host_ok(host):
            await _refuse(kind, send, 400, "unknown host: this server answers to its own address")
            return
        if kind == "websocket" and not self.policy.origin_ok(_header(scope, b"origin"), host):
            await _refuse(kind, send, 403, "")
            return
        await self.app(scope, receive, send)


async def _refuse(kind: str, send: Send, status: int, text: str) -> None:
    if kind == "websocket":  # before accept: the server answers the handshake with HTTP 403
        await send({"type": "websocket.close", "code": 1008})
        return
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})
