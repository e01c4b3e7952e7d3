"""The league report's ``spend`` table is the run's whole bill, read from its spend ledger: every
call the server received, the preflight samples and the calls of games without a result shown
apart from the calls that bought results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.play.ledger import SPEND_FILE, SpendLedger, SpendLine, now_utc
from harness.runs import build_report, markdown, save_report
from tests.fakes import FakeOpenAIServer
from tests.fakes.backends import KEY_ENV, SECRET_KEY

from .test_preflight import league, run_league

pytest.importorskip("openai")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        s.script.usage_tokens = 500
        yield s


def test_the_spend_table_counts_every_call_the_server_received(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    assert run_league(tmp_path, league(server.base_url)) == 0
    run = tmp_path / "out" / "pre"
    ledger = SpendLedger(run / SPEND_FILE)
    report = build_report(run, bootstrap=20)
    (row,) = report.spend.to_dict("records")
    assert row["player"] == "gpt-test" and row["calls"] == len(server.script.model_requests)
    assert row["answered"] + row["failed"] + row["cancelled"] == row["calls"]
    assert row["preflight_calls"] == 1 and row["outside_calls"] == 0
    assert row["cost_usd"] == pytest.approx(ledger.cost_usd)
    assert row["input_tokens"] + row["output_tokens"] == ledger.tokens
    assert row["preflight_cost_usd"] > 0

    # a call of a game that has no result (stopped in flight) is spend outside the results
    SpendLedger(run / SPEND_FILE).add(
        SpendLine(
            at=now_utc(),
            game_id="not-a-result",
            player="gpt-test",
            provider="openai",
            model="gpt-test",
            outcome="cancelled",
            cost_usd=0.25,
        )  # fmt: skip
    )
    again = build_report(run, bootstrap=20).spend.iloc[0]
    assert again["calls"] == row["calls"] + 1 and again["cancelled"] == row["cancelled"] + 1
    assert again["outside_calls"] == 1 and again["outside_cost_usd"] == pytest.approx(0.25)
    assert again["cost_usd"] == pytest.approx(row["cost_usd"] + 0.25)

    text = markdown(build_report(run, bootstrap=20))
    assert "## Spend" in text and "spend ledger `spend.jsonl`" in text
    assert (save_report(build_report(run, bootstrap=20)) / "spend.csv").is_file()


def test_a_run_without_model_calls_shows_no_spend_table(tmp_path: Path) -> None:
    data = {
        "name": "bots",
        "players": [{"name": "bot", "kind": "bot"}, {"name": "rnd", "kind": "random"}],
        "tables": [{"seats": [4]}],
        "games_per_table": 2,
    }
    assert run_league(tmp_path, data) == 0
    report = build_report(tmp_path / "out" / "bots", bootstrap=20)
    assert report.spend.empty
    assert "## Spend" not in markdown(report) and "games.jsonl` alone" in markdown(report)
