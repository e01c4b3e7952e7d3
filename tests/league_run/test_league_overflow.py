"""A league against a server whose context is too small for the seats' histories (issue 26): the
run does not stop — each refused request is recorded as ``context_overflow``, the seat's history
is compacted and asked once more — and ``--resume`` of the stopped run goes on from there.  The
report tells these fallbacks and calls apart, and cached tokens the server did not report are
"n/a", not 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agents.transcript import Transcript
from harness.runs import build_report, markdown
from harness.views.names import default_names
from tests.fakes.anthropic_server import FakeAnthropicServer
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.server import FakeServer

from .model_league import model_decisions, model_player, run_dir, run_league, spend, write_league

pytest.importorskip("openai")


def _small_context() -> int:
    """A context (in the fakes' count) holding the system prompt and the first few decisions."""
    system = Transcript(default_names(4), "en", "conversation").system()
    return len(json.dumps([system])) // 4 + 1500


def _league(tmp_path: Path, server: FakeServer, provider: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    player = model_player("model-0", server, context_tokens=65536)  # the seat never compacts
    if provider == "anthropic":
        player["model"].update(provider="anthropic", model="claude-test", answer_mode="tool")
    return write_league(
        tmp_path / "overflow.yaml",
        server,
        name="overflow",
        model_players=0,
        bots=3,
        players=[player] + [{"name": f"bot-{i}", "kind": "bot"} for i in range(3)],
        games_per_table=2,
        max_concurrent_games=2,
    )


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_league_on_a_server_with_a_small_context_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    fake: FakeServer = FakeOpenAIServer() if provider == "openai" else FakeAnthropicServer()
    with fake as server:
        server.script.context_tokens = _small_context()
        server.script.report_cached = False
        cfg = _league(tmp_path, server, provider)
        assert run_league(cfg) == 0
        refused = [
            r for r in server.script.model_requests if "maximum context" in json.dumps(r.body)
        ]
    assert not refused  # the server's words never went back to the model
    run = run_dir(cfg)
    decisions = model_decisions(run)
    overflowed = [
        r for _, r in decisions if r.attempts and r.attempts[0].error_kind == "context_overflow"
    ]
    assert overflowed and all(r.context_compacted_to for r in overflowed)
    assert any(r.fallback is None for r in overflowed)  # the compacted request was answered
    assert all(r.cached_input_tokens is None for _, r in decisions if r.attempts)
    lines = spend(cfg)
    assert any(line.error_kind == "context_overflow" for line in lines)
    assert all(line.cached_input_tokens is None for line in lines)
    answered = [line for line in lines if line.outcome == "answered"]
    assert answered and {line.finish_reason for line in answered} <= {"stop", "tool_calls"}
    report = build_report(run)
    rates = report.rates.set_index("player").loc["model-0"]
    assert rates["overflow_per_call"] > 0
    assert rates["cached_reported_calls"] == 0
    text = markdown(report)
    assert "n/a" in text


def test_resume_after_a_stop_goes_on_past_an_overflow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A context that holds no request at all: every model decision falls back with
    ``context_overflow`` until the run's guard against a player whose every call fails stops it
    (exit 2, naming the cause).  With a larger context, ``--resume`` finishes the run: the
    overflows it meets on the way are compacted or fall back, never stop it again."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.context_tokens = 1
        cfg = _league(tmp_path, server, "openai")
        assert run_league(cfg) == 2
        assert "context_overflow" in capsys.readouterr().err
        refused = [line for line in spend(cfg) if line.error_kind == "context_overflow"]
        assert len(refused) >= 10
        server.script.context_tokens = _small_context()
        assert run_league(cfg, "--resume") == 0
    decisions = model_decisions(run_dir(cfg))
    assert any(r.context_compacted_to for _, r in decisions)
    report = build_report(run_dir(cfg))
    assert report.games == 2
    assert report.rates.set_index("player").loc["model-0", "overflow_per_call"] > 0
