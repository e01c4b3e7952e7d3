"""A remote agent's seat: the reference server plays whole games; transport errors are retried
within the deadline, everything else a remote answers wrongly (garbage, 10 MB, a hang, an
error status, wrong fields, an unknown id) is a recorded fallback with its reason; the bearer
token is sent and never recorded."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from harness.agents.key_redaction import redact
from harness.agents.remote_agent import RemoteBackend, RemoteClient, check_url

from .conftest import play_with
from .servers import every_of, misbehaving_server, reference_server


def remote(url: str, token_env: str | None = None) -> tuple[RemoteBackend, RemoteClient]:
    client = RemoteClient(url, token_env)
    return RemoteBackend(client), client


async def _play(url: str, **kw: object) -> object:
    backend, client = remote(url, kw.pop("token_env", None))  # type: ignore[arg-type]
    try:
        return await play_with(backend, kind="remote", **kw)  # type: ignore[arg-type]
    finally:
        await client.aclose()


def test_the_reference_server_plays_a_whole_game_deterministically() -> None:
    with reference_server() as url:
        a = asyncio.run(_play(url, seed=8))
        b = asyncio.run(_play(url, seed=8))
    mine = a.seat_decisions(0)  # type: ignore[attr-defined]
    assert mine and all(d.fallback is None for d in mine)
    assert all(d.record.provider == "remote" and d.record.reason for d in mine)
    assert a.game.events == b.game.events  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "mode, reason, kind",
    [
        ("garbage", "invalid_answer", "unparseable"),
        ("huge", "invalid_answer", "oversized"),
        ("huge_chunked", "invalid_answer", "oversized"),
        ("hang", "timeout", "timeout"),
        ("trickle", "timeout", "timeout"),
        ("status500", "error", "server_error"),
        ("wrong_fields", "invalid_answer", "unparseable"),
        ("unknown", "invalid_answer", "illegal_option"),
    ],
)
def test_a_misbehaving_remote_is_a_recorded_fallback(mode: str, reason: str, kind: str) -> None:
    timer = 2.0 if mode in ("hang", "trickle") else 5.0  # a loaded machine still answers in time
    every = every_of(mode)
    with misbehaving_server() as (url, _):
        played = asyncio.run(_play(url + mode, timer=timer, seed=3))
    assert played.game.pending is None  # type: ignore[attr-defined]
    mine = played.seat_decisions(0)  # type: ignore[attr-defined]
    bad = [d for i, d in enumerate(mine, 1) if i % every == 1]
    assert bad and all(d.fallback is None for i, d in enumerate(mine, 1) if i % every != 1)
    for d in bad:
        assert (d.fallback, d.record.attempts[-1].error_kind) == (reason, kind), d.error
        raw = d.record.attempts[-1].raw_text
        assert raw is None or len(raw) < 20_000
        if mode in ("hang", "trickle"):
            assert d.latency_s < timer


def test_transport_errors_are_retried_within_the_deadline() -> None:
    with misbehaving_server() as (url, server):
        played = asyncio.run(_play(url + "drop", seed=3))
    mine = played.seat_decisions(0)  # type: ignore[attr-defined]
    assert mine and all(d.fallback is None for d in mine)
    retried = [d for i, d in enumerate(mine, 1) if i % every_of("drop") == 1]
    for d in retried:  # the dropped attempt, then the answer
        kinds = [a.error_kind for a in d.record.attempts]
        assert kinds == ["connection_error", None], kinds
    assert len(server.dropped) == len(retried)  # type: ignore[attr-defined]


def test_an_unreachable_remote_falls_back_after_bounded_retries() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    played = asyncio.run(_play(f"http://127.0.0.1:{port}/", max_fallbacks=2))
    mine = played.seat_decisions(0)  # type: ignore[attr-defined]
    assert len(mine) == 2 and all(d.fallback == "error" for d in mine)
    # the first decision delivers the start message: its retries are that message's
    assert all(d.record.attempts[-1].error_kind == "connection_error" for d in mine)


def test_the_bearer_token_is_sent_and_never_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "tok-4f8a9c2e7b1d6035"
    monkeypatch.setenv("ARENA_AGENT_PASS", secret)  # a name that does not look secret by itself
    with misbehaving_server() as (url, server):
        played = asyncio.run(_play(url + "garbage", token_env="ARENA_AGENT_PASS", seed=3))
    assert {s["auth"] for s in server.seen} == {f"Bearer {secret}"}  # type: ignore[attr-defined]
    records = json.dumps([d.record.model_dump() for d in played.seat_decisions(0)])  # type: ignore[attr-defined]
    assert secret not in records
    assert redact(f"sent {secret}") == "sent [redacted]"  # registered: redacted wherever it is


@pytest.mark.parametrize(
    "url, message",
    [
        ("ftp://example.org/", "must be http:// or https://"),
        ("file:///etc/passwd", "must be http:// or https://"),
        ("http://user:pw@127.0.0.1/", "must not hold credentials"),
        ("http:///nohost", "has no host"),
        ("http://127.0.0.1:99999/", "not a valid URL"),
    ],
)
def test_only_http_urls_without_credentials(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_url(url)
