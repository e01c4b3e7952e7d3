"""The web table's spending caps (config ``spending``): every model call of every table is a line
of the run folder's spend ledger; when the server's cap is reached no further call is sent, the
model seats play on with their bots (fallback reason ``spending_cap``), the tables hear a one-line
notice, no new table can seat a model — and a restart with the same run folder starts from the
ledger's totals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.cli.main import main
from harness.play.ledger import SPEND_FILE, SpendLedger
from harness.records import RunStore
from harness.replay import DecisionFilter, inspect_decisions
from tests.fakes import Malformed
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import Client, LiveServer, drive, free_port

pytest.importorskip("openai")

USAGE = 100  # prompt tokens the fake server reports for every answer
CAP = 350  # tokens: passed by the fourth answer
ROOMS = 2
MODEL_SEATS = 2  # per room: at most ROOMS * MODEL_SEATS calls in flight at once


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        s.script.usage_tokens = USAGE
        s.script.delay_s, s.script.delay_spread_s = 0.01, 0.05
        yield s


def live(out: Path, fake: FakeOpenAIServer, cap: int = CAP) -> LiveServer:
    player = model_player("gpt-test", fake.base_url, price={"input": 1.0, "output": 2.0})
    return LiveServer(out, players=[player], settings={"spending": {"max_tokens": cap}})


def model_room(url: str, name: str) -> Client:
    """A started 4-seat room: a person, two model seats and a bot."""
    c = Client(url)
    c.send(type="create", name=name, settings={"seats": 4})
    c.wait_type("joined")
    for seat in range(1, 1 + MODEL_SEATS):
        c.send(type="seat_bot", seat=seat, player="gpt-test")
    c.send(type="start")
    return c


def refused(url: str) -> dict[str, Any]:
    """The error a new table gets when it tries to seat the model."""
    c = Client(url)
    c.send(type="create", name="Late", settings={"seats": 4})
    c.wait_type("joined")
    c.send(type="seat_bot", seat=1, player="gpt-test")
    frame = c.wait_type("error")
    c.close()
    return frame


def test_a_reached_cap_hands_the_model_seats_to_their_bots(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    with live(tmp_path, server) as srv:
        clients = [model_room(srv.ws_url, f"P{i}") for i in range(ROOMS)]
        drive(clients, timeout=120)
        late = refused(srv.ws_url)
        assert srv.registry.spending.reason is not None
    # every table with a model seat heard the one-line notice
    for c in clients:
        notices = [f for f in c.frames if f["type"] == "error" and f["code"] == "spending_cap"]
        assert len(notices) == 1 and "token cap reached" in notices[0]["message"]
        assert "\n" not in notices[0]["message"]
    # a new table cannot seat a model: a clear error on the socket
    assert late["code"] == "spending_cap" and "token cap reached" in late["message"]
    # the ledger: every request, its totals past the cap, few calls after the trip
    lines = SpendLedger(tmp_path / "web" / SPEND_FILE).lines()
    assert len(lines) == len(server.script.model_requests)
    assert all(x.game_id is not None and x.game_id.startswith("web-") for x in lines)
    total, trip = 0, 0
    for i, x in enumerate(lines, 1):
        total += x.tokens
        if not trip and total > CAP:
            trip = i
    assert total >= CAP and trip > 0
    assert len(lines) - trip <= ROOMS * MODEL_SEATS, f"{len(lines) - trip} calls after the trip"
    # the games went on to their end; the model seats' later decisions are their bots'
    store = RunStore(tmp_path / "web")
    games = store.games()
    assert len(games) == ROOMS
    capped = 0
    for g in games:
        decisions = store.read_game(g.game_id)[1]
        model = [d for d in decisions if d.player == "gpt-test" and len(d.options) > 1]
        reasons = [d.fallback for d in model]
        first = reasons.index("spending_cap")  # every game crossed the trip
        assert all(r == "spending_cap" for r in reasons[first:]), reasons
        assert all(d.error and "token cap reached" in d.error for d in model[first:])
        capped += len(reasons) - first
        outcomes = [o for o in g.seat_outcomes if o.player == "gpt-test"]
        assert sum(o.fallbacks.get("spending_cap", 0) for o in outcomes) == len(reasons) - first
    assert capped > 0
    # inspect finds exactly those decisions by their reason
    shown, total = inspect_decisions(store, DecisionFilter(fallback="spending_cap"))
    assert total == len(shown) == capped


def test_a_restart_with_the_same_folder_starts_from_the_ledger(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    ledger = SpendLedger(tmp_path / "web" / SPEND_FILE)
    with live(tmp_path, server) as srv:
        (c,) = [model_room(srv.ws_url, "Ann")]
        drive([c], timeout=120)
    spent = SpendLedger(ledger.path)
    assert spent.tokens > CAP
    requests = len(server.script.model_requests)
    with live(tmp_path, server) as srv:  # restarted, same run folder and cap
        late = refused(srv.ws_url)
        assert late["code"] == "spending_cap"
    assert len(server.script.model_requests) == requests  # no call was sent
    with live(tmp_path, server, cap=spent.tokens + 10 * USAGE) as srv:  # a raised cap
        (c,) = [model_room(srv.ws_url, "Bob")]
        drive([c], timeout=120)
    after = SpendLedger(ledger.path)
    assert after.calls > spent.calls and after.tokens > spent.tokens + 10 * USAGE - 1
    assert after.tokens - spent.tokens <= 10 * USAGE + MODEL_SEATS * 2 * USAGE


def test_a_call_refused_mid_decision_falls_back_and_the_game_goes_on(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    """The first answer is invalid and passes the cap: the corrective re-prompt is not sent, and
    the decision is the bot's (``spending_cap``), not a cancelled game."""
    server.script.default = lambda body: Malformed()
    with live(tmp_path, server, cap=USAGE // 2) as srv:
        (c,) = [model_room(srv.ws_url, "Ann")]
        drive([c], timeout=120)
    assert len(server.script.model_requests) == 1
    (g,) = RunStore(tmp_path / "web").games()
    decisions = RunStore(tmp_path / "web").read_game(g.game_id)[1]
    model = [d for d in decisions if d.player == "gpt-test" and len(d.options) > 1]
    assert model and all(d.fallback == "spending_cap" for d in model)
    assert not any(f["type"] == "error" and f["code"] == "game_stopped" for f in c.frames)


def test_a_dollar_cap_needs_every_models_price(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    player = model_player("mystery", "http://127.0.0.1:9/v1", model="no-such-model-for-pricing")
    cfg = tmp_path / "web.yaml"
    cfg.write_text(
        yaml.safe_dump(
            {"output": str(tmp_path), "players": [player], "spending": {"max_usd": 1.0}}
        )  # fmt: skip
    )
    assert main(["serve", "--port", str(free_port()), "--config", str(cfg)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "player mystery" in err and "the dollar cap cannot be enforced" in err
