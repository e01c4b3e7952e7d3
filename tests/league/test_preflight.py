"""``league run`` sends every model one sample decision before any game: a closed port, a TLS
mismatch, a rejected key, an unknown model, a rejected answer mode or a missing price under a
dollar cap each stop it with one line and exit 2; a run folder (its ledger and `stopped.json`)
is opened only when a call reached a server.  Each distinct
(model, locale) pair is asked with its own system prompt, and a sample whose latency scaled to the
longest request the seat may send passes the timer is warned about."""

from __future__ import annotations

import socket
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.agents.decision_record import Attempt, ModelDecisionRecord, TokenCounts
from harness.agents.transcript import Transcript
from harness.cli.main import main
from harness.league.league_config import parse_config
from harness.league.preflight import preflight
from harness.league.preflight_latency import summary
from harness.league.preflight_records import ProbeResult, request_size
from harness.league.stopped import read_stopped
from harness.play.model_checks import diagnose_url
from harness.records import RunStore
from harness.views.names import default_names
from tests.fakes import Answer, FakeOpenAIServer, Status
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player

pytest.importorskip("openai")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def league(base_url: str, **over: Any) -> dict[str, Any]:
    model = {"price": {"input": 1.0, "output": 2.0}, **over.pop("model", {})}
    data: dict[str, Any] = {
        "name": "pre",
        "players": [model_player("gpt-test", base_url, **model), {"name": "bot", "kind": "bot"}],
        "tables": [{"seats": [4]}],
        "games_per_table": 2,
        "decision_seconds": 10,
        "retry_budget": 1,
    }
    data.update(over)
    return data


def run_league(tmp_path: Path, data: Mapping[str, Any], *extra: str) -> int:
    cfg = tmp_path / "league.yaml"
    cfg.write_text(yaml.safe_dump(dict(data)), encoding="utf-8")
    return main(["league", "run", str(cfg), "--output", str(tmp_path / "out"), "--no-progress",
                 *extra])  # fmt: skip


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("bangarena: error: preflight: player gpt-test (openai model ")
    assert "Traceback" not in err and SECRET_KEY not in err
    return lines[0]


def test_closed_port_stops_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = closed_port()
    url = f"http://127.0.0.1:{port}/v1"
    assert run_league(tmp_path, league(url)) == 2
    line = one_error_line(capsys)
    assert f"'gpt-test' at {url})" in line
    assert line.endswith(f"server unreachable: connection refused at 127.0.0.1:{port}")
    assert not (tmp_path / "out").exists()


def test_tls_to_a_plain_http_server_is_named(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"https://127.0.0.1:{server.port}/v1"
    assert run_league(tmp_path, league(url)) == 2
    line = one_error_line(capsys)
    assert "server unreachable: TLS handshake with 127.0.0.1" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("status", "words"),
    [(401, "authentication failed (HTTP 401)"), (404, "unknown model (HTTP 404)")],
)
def test_rejected_key_and_unknown_model_stop_before_any_game(
    tmp_path: Path,
    server: FakeOpenAIServer,
    capsys: pytest.CaptureFixture[str],
    status: int,
    words: str,
) -> None:
    server.script.default = lambda body: Status(status)
    assert run_league(tmp_path, league(server.base_url)) == 2
    line = one_error_line(capsys)
    assert words in line and server.base_url in line
    assert len(server.script.model_requests) == 1  # a fatal answer is not retried
    assert not (tmp_path / "out").exists()


def llama_cpp_python(body: Mapping[str, Any]) -> Status | Answer:
    """llama-cpp-python's server: HTTP 500 for a json_schema response format (and for tools),
    answers json_object and grammar requests."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema" or body.get("tools"):
        return Status(500, message="Internal Server Error")
    return Answer()


def test_rejected_answer_mode_names_one_that_works(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    server.script.default = llama_cpp_python
    data = league(server.base_url, model={"answer_mode": "json_schema"})
    assert run_league(tmp_path, data) == 2
    line = one_error_line(capsys)
    assert "the server rejects answer mode json_schema (server_error" in line
    assert line.endswith("answer mode json_object works: set 'answer_mode: json_object' in its "
                         "model section")  # fmt: skip
    # the calls it made are spend: a run folder holds them and why it stopped (no game)
    stopped = read_stopped(tmp_path / "out" / "pre")
    assert stopped is not None and stopped.reason == line.removeprefix("bangarena: error: ")
    assert not (tmp_path / "out" / "pre" / "games").exists()
    # and with the mode it named, the run goes through
    capsys.readouterr()
    assert run_league(tmp_path, league(server.base_url)) == 0
    assert len(RunStore(tmp_path / "out" / "pre").games()) == 2


def test_unknown_price_under_a_dollar_cap_stops_even_without_preflight(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    data = league(server.base_url, spending={"max_usd": 1.0})
    del data["players"][0]["model"]["price"]
    data["players"][0]["model"]["model"] = "no-such-model-for-pricing"
    assert run_league(tmp_path, data, "--no-preflight") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown price, so the dollar cap cannot be enforced" in err
    assert "no-such-model-for-pricing" in err and server.base_url in err
    assert server.script.model_requests == [] and not (tmp_path / "out").exists()


def test_passing_preflight_reports_latency_and_one_extra_call(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_league(tmp_path, league(server.base_url)) == 0
    err = capsys.readouterr().err
    assert "preflight: player gpt-test (openai model 'gpt-test' at " in err
    assert "answer mode json_object: valid answer in " in err and "(decision timer 10 s)" in err
    store = RunStore(tmp_path / "out" / "pre")
    calls = sum(o.model_calls for g in store.games() for o in g.seat_outcomes)
    assert len(server.script.model_requests) == calls + 1  # the sample decision, not recorded


def test_no_preflight_sends_no_sample(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_league(tmp_path, league(server.base_url), "--no-preflight") == 0
    assert "preflight:" not in capsys.readouterr().err
    store = RunStore(tmp_path / "out" / "pre")
    calls = sum(o.model_calls for g in store.games() for o in g.seat_outcomes)
    assert calls > 0 and len(server.script.model_requests) == calls


def test_one_sample_per_distinct_model(server: FakeOpenAIServer) -> None:
    data = league(server.base_url)
    twin = {**data["players"][0], "name": "twin"}
    data["players"].append(twin)
    report = preflight(parse_config(data))
    assert [r.player for r in report.results] == ["gpt-test", "twin"]
    assert len(server.script.model_requests) == 1
    assert all(r.record.fallback is None for r in report.results)


def probe(latency: float, fallback: str | None = None) -> ProbeResult:
    spec = parse_config(league("http://127.0.0.1:1/v1", decision_seconds=60)).players[0].model
    assert spec is not None
    record = ModelDecisionRecord(
        provider="openai",
        model="gpt-test",
        answer_mode="json_object",
        options=["a", "b"],
        system_prompt_sha256="0" * 64,
        attempts=[
            Attempt(latency_s=latency, error_kind="unparseable" if fallback else None)
        ],  # fmt: skip
        chosen="a",
        fallback=fallback,  # type: ignore[arg-type]
    )
    return ProbeResult("gpt-test", spec.model_copy(update={"decision_seconds": 60.0}), record)


def test_a_sample_read_from_the_prefix_cache_is_said_to_be_warm() -> None:
    """A re-run preflight's sample mostly read from the server's prefix cache answers fast; its
    latency says nothing of a cold request, and the preflight says so (issue: a 53 s warm answer
    for a request that took 626 s cold)."""
    warm = probe(5.0)
    warm.record.attempts[-1].tokens = TokenCounts(input=13_135, cached_input=13_134, output=9)
    _, warnings = summary(warm)
    assert len(warnings) == 1 and "read 13,134 of the sample's 13,135 prompt tokens" in warnings[0]
    assert "reads all 13,135" in warnings[0] and "decision timer (60 s)" in warnings[0]
    for cached in (None, 0, 6_000):  # not reported, none, under half: no warning
        cold = probe(5.0)
        cold.record.attempts[-1].tokens = TokenCounts(input=13_135, cached_input=cached, output=9)
        assert summary(cold)[1] == []


def test_slow_sample_warns_about_the_timer() -> None:
    line, warnings = summary(probe(40.0))
    assert "valid answer in 40.00 s (decision timer 60 s)" in line
    assert len(warnings) == 1 and "took 40.0 s, 67 % of the decision timer (60 s)" in warnings[0]
    line, warnings = summary(probe(20.0))
    assert warnings == []
    _, warnings = summary(probe(1.0, "invalid_answer"))
    assert len(warnings) == 1 and "answered the sample decision invalidly" in warnings[0]


def test_diagnose_url_names_the_cause(monkeypatch: pytest.MonkeyPatch) -> None:
    port = closed_port()
    assert diagnose_url(f"http://127.0.0.1:{port}") == f"connection refused at 127.0.0.1:{port}"

    def no_dns(*args: object, **kwargs: object) -> None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    assert diagnose_url("https://models.example.invalid/v1") == (
        "DNS lookup of models.example.invalid failed (Name or service not known)"
    )


def test_each_model_and_locale_is_asked_once_with_its_own_system_prompt(
    server: FakeOpenAIServer,
) -> None:
    """model-en and model-ru share a spec but not a language: two samples, the Russian one with
    the Russian system prompt; a third player of the same pair shares the Russian sample."""
    data = league(server.base_url)
    spec = data["players"][0]["model"]
    data["players"] = [
        {"name": "model-en", "kind": "model", "model": spec},
        {"name": "model-ru", "kind": "model", "model": spec, "locale": "ru"},
        {"name": "twin-ru", "kind": "model", "model": spec, "locale": "ru"},
        {"name": "bot", "kind": "bot"},
    ]
    report = preflight(parse_config(data))
    bodies = [r.body for r in server.script.model_requests]
    assert len(bodies) == 2
    systems = [b["messages"][0]["content"] for b in bodies]
    names = default_names(4)
    assert systems == [Transcript(names, "en").system(), Transcript(names, "ru").system()]
    assert [(r.player, r.locale, r.asked) for r in report.results] == [
        ("model-en", "en", True), ("model-ru", "ru", True), ("twin-ru", "ru", False)
    ]  # fmt: skip
    assert len(report.lines) == 2  # one line per sample actually sent
    assert report.lines[0].startswith("preflight: player model-en (openai model 'gpt-test'")
    assert ", locale en, answer mode json_object: valid answer in " in report.lines[0]
    assert report.lines[1].startswith("preflight: players model-ru, twin-ru (openai model ")
    assert ", locale ru, answer mode json_object: valid answer in " in report.lines[1]


def test_a_slow_sample_warns_when_the_longest_request_would_pass_the_timer(
    server: FakeOpenAIServer,
) -> None:
    """1 s for the sample is fine for a seat whose requests stay near the sample's size, but a
    conversation that may grow to a 64k budget would take many times longer (a wide margin on
    both sides, so a loaded machine's slower answers do not change the verdict)."""
    server.script.delay_s = 1.0
    data = league(server.base_url, decision_seconds=6)
    spec = data["players"][0]["model"]
    data["players"] = [
        {"name": "long", "kind": "model", "model": {**spec, "context_tokens": 64_000}},
        {"name": "short", "kind": "model", "model": {**spec, "context_tokens": 6_000}},
        {"name": "bot", "kind": "bot"},
    ]
    report = preflight(parse_config(data))
    long, short = report.results
    assert long.size is not None and short.size is not None
    assert long.call_latency_s >= 1.0 and long.call_latency_s * long.size.scale > 6
    assert short.call_latency_s * short.size.scale < 6
    [warning] = report.warnings
    assert warning.startswith("warning: player long (openai model 'gpt-test'")
    assert "locale en: the sample call took 1." in warning and "prompt tokens" in warning
    assert "the longest request its conversation history may send (~62,976 tokens" in warning
    assert "past the decision timer (6 s): raise decision_seconds" in warning


@pytest.mark.parametrize(
    ("policy", "longest"),
    [("conversation", "budget"), ("log", "sample + feed"), ("since_last", "sample")],
)
def test_the_longest_request_follows_the_history_policy(policy: str, longest: str) -> None:
    from types import SimpleNamespace

    transcript = Transcript(default_names(4), "en", policy, 32_000)
    seat = SimpleNamespace(llm=SimpleNamespace(conversation=transcript))
    record = probe(1.0).record.model_copy(
        update={"messages": [{"role": "user", "content": "the game and the decision " * 200}]}
    )
    size = request_size(seat, record)
    assert size is not None and size.policy == policy
    sample = transcript.tokens(transcript.system()) + transcript.tokens(
        record.messages[0]["content"]
    )
    assert size.sample_tokens == sample
    expected = {
        "budget": 32_000 - transcript.reserve_tokens,
        "sample + feed": sample + transcript.log_feed_tokens,
        "sample": sample,
    }[longest]
    assert size.longest_tokens == expected
