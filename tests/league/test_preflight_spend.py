"""The preflight's sample calls are real spend: each is a line of the run's ledger
(``spend.jsonl``, ``game_id`` null, ``purpose: "preflight"``) with the tokens the server reported,
the run's spending caps count them (a cap the preflight alone passes stops the run before its
first game), and every ``--resume`` adds its own preflight calls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.league.stopped import read_stopped
from harness.play.ledger import SPEND_FILE, SpendLedger, SpendLine
from harness.records import RunStore
from tests.fakes import FakeOpenAIServer, Status
from tests.fakes.backends import KEY_ENV, SECRET_KEY

from .test_preflight import league, run_league

pytest.importorskip("openai")

USAGE = 1000  # prompt tokens the fake server reports for every answer


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        s.script.usage_tokens = USAGE
        yield s


def ledger(tmp_path: Path) -> list[SpendLine]:
    return SpendLedger(tmp_path / "out" / "pre" / SPEND_FILE).lines()


def preflight_lines(lines: list[SpendLine]) -> list[SpendLine]:
    return [x for x in lines if x.purpose == "preflight"]


def test_the_sample_call_is_a_ledger_line_with_the_servers_tokens(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    assert run_league(tmp_path, league(server.base_url)) == 0
    lines = ledger(tmp_path)
    (pre,) = preflight_lines(lines)
    assert lines[0] == pre  # written when the run folder is opened, before any game's call
    assert pre.game_id is None and pre.player == "gpt-test" and pre.outcome == "answered"
    assert pre.input_tokens == USAGE and pre.output_tokens > 0
    # price 1 $/M input, 2 $/M output (the league() config)
    assert pre.cost_usd == pytest.approx((USAGE * 1.0 + pre.output_tokens * 2.0) / 1e6)
    assert len(lines) == len(server.script.model_requests)  # every request the server got
    assert all(x.game_id is not None and x.purpose is None for x in lines[1:])
    # the game lines keep the first ledger format (no "purpose" key)
    raw = (tmp_path / "out" / "pre" / SPEND_FILE).read_text().splitlines()
    assert '"purpose":"preflight"' in raw[0]
    assert all('"purpose"' not in r for r in raw[1:])


def test_a_cap_the_preflight_passes_stops_before_the_first_game(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """The usual cap stop (exit 2, one line), with the preflight's tokens counted."""
    data = league(server.base_url, spending={"max_tokens": 10})
    assert run_league(tmp_path, data) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if not x.startswith("preflight:")]
    assert len(err) == 1, err
    assert "token cap reached" in err[0] and "0 of 2 games finished" in err[0]
    (pre,) = ledger(tmp_path)
    assert pre.purpose == "preflight" and pre.tokens > 10
    assert len(server.script.model_requests) == 1  # the sample only: no game's call
    assert RunStore(tmp_path / "out" / "pre").games() == []
    # a --resume runs the preflight again: its call is spend too, and the cap still holds
    assert run_league(tmp_path, data, "--resume") == 2
    assert len(preflight_lines(ledger(tmp_path))) == 2
    assert len(server.script.model_requests) == 2


def test_resume_records_its_preflight_again_and_no_preflight_records_nothing(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    data = league(server.base_url, games_per_table=1)
    assert run_league(tmp_path, data) == 0
    first = ledger(tmp_path)
    assert run_league(tmp_path, data, "--resume") == 0
    second = ledger(tmp_path)
    assert len(preflight_lines(second)) == 2 and second[: len(first)] == first
    requests = len(server.script.model_requests)
    assert run_league(tmp_path, data, "--resume", "--no-preflight") == 0
    assert ledger(tmp_path) == second and len(server.script.model_requests) == requests
    totals = SpendLedger(tmp_path / "out" / "pre" / SPEND_FILE)
    assert totals.preflight_calls == 2
    assert totals.tokens == sum(x.tokens for x in second)


def test_a_failed_preflight_of_a_resumed_run_is_in_its_ledger(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    data = league(server.base_url, games_per_table=1)
    assert run_league(tmp_path, data) == 0
    before, requests = ledger(tmp_path), len(server.script.model_requests)
    server.script.default = lambda body: Status(500)
    assert run_league(tmp_path, data, "--resume") == 2  # the answer modes all fail
    new = ledger(tmp_path)[len(before) :]
    assert len(new) == len(server.script.model_requests) - requests > 0
    assert all(x.purpose == "preflight" and x.outcome == "failed" for x in new)
    assert {x.error_kind for x in new} == {"server_error"}
    # a run that never started keeps its preflight's calls too, and why it stopped
    other = league(server.base_url, name="never")
    requests = len(server.script.model_requests)
    assert run_league(tmp_path, other) == 2
    never = tmp_path / "out" / "never"
    lines = SpendLedger(never / SPEND_FILE).lines()
    assert len(lines) == len(server.script.model_requests) - requests > 0
    assert all(x.purpose == "preflight" and x.error_kind == "server_error" for x in lines)
    stopped = read_stopped(never)
    assert stopped is not None and stopped.calls == len(lines)
    assert "every other mode it was tried in" in stopped.reason
