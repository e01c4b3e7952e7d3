"""A run the preflight stops before its first game: the smallest request that cannot fit the
context stops it with one line naming the context it needs (counted before any call when
``context_tokens`` is set, or from the server's own refusal); its calls are in a ledger of a run
folder that records why it stopped, ``league report`` shows that reason and the bill (exit 2),
and the next ``league run`` with a config that works starts the run afresh."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.league.preflight_context import context_needed
from harness.league.stopped import STOPPED_FILE, read_stopped
from harness.play.ledger import SPEND_FILE, SpendLedger
from tests.fakes import Answer, ContextOverflow, FakeOpenAIServer
from tests.fakes.backends import KEY_ENV, SECRET_KEY

from .test_preflight import league, one_error_line, run_league

pytest.importorskip("openai")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer(tokenize="llama-cpp-python") as s:
        yield s


def test_context_needed_is_the_next_power_of_two() -> None:
    assert context_needed(12898) == 16384
    assert context_needed(8192) == 8192
    assert context_needed(10) == 1024


@pytest.mark.parametrize("style", ["llama.cpp", "openai"])
def test_a_refused_sample_stops_naming_the_context_it_needs(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str], style: str
) -> None:
    server.script.default = lambda body: ContextOverflow(style, 12898, 8192)  # type: ignore[arg-type]
    assert run_league(tmp_path, league(server.base_url)) == 2
    line = one_error_line(capsys)
    assert "does not fit the server's context (8,192 tokens)" in line
    assert "needs a context of at least 12,898 tokens" in line
    assert "--n_ctx 16384" in line and "'context_tokens: 16384'" in line
    assert "provider limits" not in line
    run = tmp_path / "out" / "pre"
    lines = SpendLedger(run / SPEND_FILE).lines()
    assert lines and all(x.purpose == "preflight" for x in lines)
    assert {x.error_kind for x in lines} == {"context_overflow"}
    assert len(lines) == len(server.script.model_requests)
    stopped = read_stopped(run)
    assert stopped is not None and stopped.stage == "preflight" and stopped.calls == len(lines)

    # the report shows why it stopped and the bill, and exits 2
    capsys.readouterr()
    assert main(["league", "report", str(run), "--no-progress"]) == 2
    out = capsys.readouterr().out
    assert "the run stopped before its first game (preflight" in out
    assert "needs a context of at least 12,898 tokens" in " ".join(out.split())
    assert "gpt-test" in out and "no finished games" not in out

    # fixed (here: the server now answers), the next run starts afresh without --resume
    server.script.default = lambda body: Answer()
    assert run_league(tmp_path, league(server.base_url)) == 0
    assert not (run / STOPPED_FILE).exists()
    after = SpendLedger(run / SPEND_FILE).lines()
    assert after[: len(lines)] == lines  # the stopped preflight's calls stay in the bill
    assert main(["league", "report", str(run), "--no-progress", "--no-save"]) in (0, 3)


def test_a_smallest_request_over_context_tokens_stops_before_any_call(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    data = league(server.base_url, model={"context_tokens": 1024, "params": {"max_tokens": 64}})
    assert run_league(tmp_path, data) == 2
    line = one_error_line(capsys)
    assert "locale en: the smallest request cannot fit context_tokens 1,024" in line
    assert "server http://127.0.0.1" in line  # counted with the server's tokenize endpoint
    assert "--n_ctx" in line
    assert server.script.model_requests == []  # no model call was spent
    assert not (tmp_path / "out").exists()  # and no run folder opened
