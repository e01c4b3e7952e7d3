"""Remote agents (``kind: remote``): each protocol message is POSTed as JSON to ``url`` and the
response body is the answer (:class:`~harness.agents.wire_protocol.AgentAnswer` JSON) — for a
``game_start`` message any 2xx response will do.

* Timeouts come from the seat's deadline: connect, read and the whole exchange end by it.
* Only transport errors (no connection, a dropped connection) are retried, with a short backoff,
  while the deadline leaves time and at most :data:`MAX_TRANSPORT_ATTEMPTS` times.  An HTTP error
  status, a body that is not the answer, or a body over
  :data:`~harness.agents.wire_protocol.MAX_ANSWER_BYTES` (read no further than that) is the
  attempt's error and the decision's fallback.
* ``token_env`` names an environment variable whose value is sent as ``Authorization: Bearer``;
  the value is registered with :mod:`harness.agents.key_redaction`, so no record, log or output shows it.
* Only ``http`` and ``https`` URLs without credentials are accepted (:func:`check_url`);
  redirects are not followed.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any
from urllib.parse import urlsplit

import httpx

from .decision_record import Attempt
from .external_seat import AgentBackend, AgentFault
from .key_redaction import register_key_env
from .wire_protocol import MAX_ANSWER_BYTES, PROTOCOL_VERSION, DecisionMessage, GameStartMessage

__all__ = ["MAX_TRANSPORT_ATTEMPTS", "RemoteClient", "RemoteBackend", "check_url"]

MAX_TRANSPORT_ATTEMPTS = 3
BACKOFF_S = 0.05
PROTOCOL_HEADER = "X-BangArena-Protocol"


def check_url(url: str) -> str:
    """``url`` when it is an http(s) URL with a host and no credentials, else ``ValueError``."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises on a bad port
    except ValueError as e:
        raise ValueError(f"url {url!r} is not a valid URL ({e})") from None
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"url must be http:// or https://, got {parts.scheme or 'no'} scheme")
    if not parts.hostname:
        raise ValueError(f"url {url!r} has no host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("url must not hold credentials: use token_env for a bearer token")
    del port
    return url


class RemoteClient:
    """One remote agent's HTTP client, shared by all of its seats."""

    def __init__(self, url: str, token_env: str | None = None) -> None:
        self.url = check_url(url)
        self.token_env = token_env
        register_key_env(token_env)
        self._client: httpx.AsyncClient | None = None

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", PROTOCOL_HEADER: str(PROTOCOL_VERSION)}
        token = os.environ.get(self.token_env, "") if self.token_env else ""
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    def client(self) -> httpx.AsyncClient:
        if self._client is None:  # built inside the run's event loop
            self._client = httpx.AsyncClient(
                follow_redirects=False,
                limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
                trust_env=False,
            )
        return self._client

    async def _once(self, body: bytes, remaining: float) -> bytes:
        timeout = httpx.Timeout(remaining, connect=remaining)
        async with (
            asyncio.timeout(remaining),
            self.client().stream(
                "POST", self.url, content=body, headers=self._headers(), timeout=timeout
            ) as response,
        ):
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
                raise AgentFault(
                    "oversized", f"answer of {declared} bytes (limit {MAX_ANSWER_BYTES})"
                )
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_raw():
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise AgentFault("oversized", f"answer larger than {MAX_ANSWER_BYTES} bytes")
                chunks.append(chunk)
            data = b"".join(chunks)
            status = response.status_code
        if not 200 <= status < 300:
            kind: Any = "server_error" if status >= 500 else "bad_response"
            raw = data[:2000].decode("utf-8", "replace")
            raise AgentFault(kind, f"HTTP {status}", raw)
        return data

    async def post(self, payload: str, deadline: float, attempts: list[Attempt]) -> bytes:
        """The response body to ``payload``, retried on transport errors until ``deadline``."""
        body = payload.encode("utf-8")
        n = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AgentFault("timeout", "no answer before the seat's deadline")
            n += 1
            t0 = time.monotonic()
            try:
                return await self._once(body, remaining)
            except (TimeoutError, httpx.TimeoutException):
                raise AgentFault("timeout", "no answer before the seat's deadline") from None
            except httpx.TransportError as e:
                message = f"{type(e).__name__}: {e}"[:300]
                if n >= MAX_TRANSPORT_ATTEMPTS or deadline - time.monotonic() <= BACKOFF_S:
                    raise AgentFault("connection_error", message) from None
                attempts.append(
                    Attempt(
                        error_kind="connection_error",
                        error_message=message,
                        latency_s=round(time.monotonic() - t0, 6),
                    )
                )
                await asyncio.sleep(BACKOFF_S * 2 ** (n - 1))

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


class RemoteBackend(AgentBackend):
    """A seat's view of a :class:`RemoteClient` (the client is closed by its owner)."""

    def __init__(self, client: RemoteClient) -> None:
        self.remote = client

    async def start(self, message: GameStartMessage, deadline: float) -> None:
        await self.remote.post(message.model_dump_json(), deadline, [])

    async def decide(
        self, message: DecisionMessage, deadline: float, attempts: list[Attempt]
    ) -> Any:
        return await self.remote.post(message.model_dump_json(), deadline, attempts)
