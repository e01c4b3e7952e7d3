"""``X-Forwarded-For`` (issue 35, item 2): believed only from the reverse proxies the operator
names (``serve --forwarded-allow-ips``, config ``forwarded_allow_ips``).  Before, any client
connecting from 127.0.0.1 chose its address and escaped every per-address limit.  (The
addresses in the headers are documentation addresses: nothing is sent to them.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

from harness.cli.main import main
from harness.web.web_config import ConfigError, WebConfig, with_allowed

from .server import Client, LiveServer, free_port


def forwarded(addr: str) -> dict[str, object]:
    return {"additional_headers": {"X-Forwarded-For": addr}}


def refused(url: str, **kw: object) -> int:
    with pytest.raises(InvalidStatus) as e:
        Client(url, **kw)  # type: ignore[arg-type]
    return int(e.value.response.status_code)


def test_forwarded_addresses_are_not_believed_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the address's 2 connections taken, 5 more that each name another address are
    refused, even with uvicorn's own ``FORWARDED_ALLOW_IPS`` variable saying ``*``; a room they
    made would be the socket's address's."""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    with LiveServer(tmp_path, settings={"limits": {"connections_per_address": 2}}) as srv:
        first = Client(srv.ws_url, **forwarded("203.0.113.1"))  # type: ignore[arg-type]
        first.send(type="create", name="Ann", settings={"seats": 4})
        code = first.wait_type("joined")["code"]
        assert srv.registry.rooms[code].creator_address == "127.0.0.1"
        second = Client(srv.ws_url)
        for k in range(2, 7):
            assert refused(srv.ws_url, **forwarded(f"203.0.113.{k}")) == 403
        first.close()
        second.close()


def test_a_named_proxy_forwards_its_clients_addresses(tmp_path: Path) -> None:
    """From a named proxy (127.0.0.1 here) each forwarded address gets its own per-address
    limits (2 connections), and the proxy's own sockets are not capped per address (4); a
    client that is not a named proxy (127.0.0.2) is its own address, whatever it forwards."""
    settings = {
        "forwarded_allow_ips": ["127.0.0.1"],
        "limits": {"connections_per_address": 2, "sockets_per_address": 4},
    }
    with LiveServer(tmp_path, settings=settings) as srv:
        held = []
        for k in (1, 2, 3):
            for _ in range(2):
                held.append(Client(srv.ws_url, **forwarded(f"203.0.113.{k}")))  # type: ignore[arg-type]
        assert refused(srv.ws_url, **forwarded("203.0.113.1")) == 403  # its own cap
        # a chain: the right-most address that is not a named proxy is the client
        chained = Client(srv.ws_url, **forwarded("198.51.100.7, 203.0.113.9, 127.0.0.1"))  # type: ignore[arg-type]
        chained.send(type="create", name="Ann", settings={"seats": 4})
        code = chained.wait_type("joined")["code"]
        assert srv.registry.rooms[code].creator_address == "203.0.113.9"
        outside = {"source_address": ("127.0.0.2", 0)}
        for _ in range(2):
            held.append(Client(srv.ws_url, **outside, **forwarded("203.0.113.50")))  # type: ignore[arg-type]
        assert refused(srv.ws_url, **outside, **forwarded("203.0.113.51")) == 403
        for c in [*held, chained]:
            c.close()


def test_the_proxy_list_is_checked_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = with_allowed(WebConfig(), [], [], ["10.0.0.5", "10.1.0.0/16"])
    assert cfg.forwarded_allow_ips == ["10.0.0.5/32", "10.1.0.0/16"]
    with pytest.raises(ConfigError, match="forwarded_allow_ips"):
        with_allowed(WebConfig(), [], [], ["proxy.example.org"])
    for bad in ("*", "10.0.0.300"):
        assert main(["serve", "--port", str(free_port()), "--forwarded-allow-ips", bad]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err
        assert "forwarded_allow_ips" in err
