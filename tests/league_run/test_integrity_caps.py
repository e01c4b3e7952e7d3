"""Spending caps are hard and run-wide (issue 11): every model call is in the run's spend ledger,
a cap that trips cancels the calls in flight (at most one call per concurrent game ends after the
trip), and a resumed run counts the spend of its earlier sessions.

The fake server reports a huge usage (1M prompt tokens an answer), so a token cap trips after a
few calls; it answers after a short random delay, so several calls are in flight at the trip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.records import RunStore
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer

from .model_league import run_dir, run_league, spend, trip_index, write_league

pytest.importorskip("openai")

HUGE = 1_000_000
CONCURRENT = 8


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        s.script.usage_tokens = HUGE
        s.script.delay_s, s.script.delay_spread_s = 0.03, 0.1
        yield s


def capped(tmp_path: Path, server: FakeOpenAIServer, max_tokens: int | None) -> Path:
    return write_league(
        tmp_path / "caps.yaml",
        server,
        name="caps",
        games_per_table=CONCURRENT,
        max_concurrent_games=CONCURRENT,
        spending={"max_tokens": max_tokens},
    )


def test_cap_trip_cancels_the_calls_in_flight(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    cap = int(5.5 * HUGE)
    cfg = capped(tmp_path, server, cap)
    assert run_league(cfg) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "token cap reached" in err[0], err
    lines = spend(cfg)
    trip = trip_index(lines, cap)
    assert trip == 6  # the sixth answer passed 5.5M tokens
    requests = len(server.script.model_requests)
    after = requests - trip
    assert 0 <= after <= CONCURRENT, f"{after} requests after the trip"
    # every request the server got is in the ledger (answered, failed or cancelled)
    assert len(lines) >= requests
    assert {x.outcome for x in lines[trip:]} <= {"answered", "cancelled"}
    assert all(x.game_id is not None and x.player.startswith("model-") for x in lines)
    # the games in flight keep their decisions; none is counted as finished
    store = RunStore(run_dir(cfg))
    assert len(store.games()) < CONCURRENT
    kept = [store.partial_game(f.stem) for f in store.games_dir.glob("*.jsonl")]
    assert any(p is not None and p[1] for p in kept)


def test_resumed_run_counts_the_spend_of_earlier_sessions(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    cap = int(5.5 * HUGE)
    cfg = capped(tmp_path, server, cap)
    assert run_league(cfg) == 2
    first = spend(cfg)
    spent = sum(x.tokens for x in first)
    assert spent > cap
    capsys.readouterr()

    # the same cap: the run stops before any call
    sent = len(server.script.model_requests)
    assert run_league(cfg, "--resume") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "token cap reached" in err[0]
    assert len(server.script.model_requests) == sent and len(spend(cfg)) == len(first)

    # room for 2.5 more answers: the third answer of this session trips the cap
    cap2 = spent + int(2.5 * HUGE)
    cfg = capped(tmp_path, server, cap2)
    assert run_league(cfg, "--resume") == 2
    assert "token cap reached" in capsys.readouterr().err
    both = spend(cfg)
    assert trip_index(both, cap2) - len(first) == 3
    assert len(server.script.model_requests) - sent - 3 <= CONCURRENT

    # without a cap the run finishes; the ledger holds more than the finished games' spend
    cfg = capped(tmp_path, server, None)
    assert run_league(cfg, "--resume") == 0
    games = RunStore(run_dir(cfg)).games()
    assert len(games) == CONCURRENT
    ledger = spend(cfg)
    assert sum(g.input_tokens + g.output_tokens for g in games) <= sum(x.tokens for x in ledger)
    assert len(ledger) >= len(server.script.model_requests)
