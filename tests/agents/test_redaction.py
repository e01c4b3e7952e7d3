"""Secrets are never written (issue 11): API key values and key-shaped strings are redacted from
error messages, records, the run folder and terminal output.

The end-to-end tests use a key that does not look like one (no ``sk-`` prefix) in a variable whose
name does not say it holds a secret, so only the spec's ``api_key_env`` can tell the harness to
redact it; the fake server echoes the request's key in 401 and 500 bodies and the model repeats
it in an answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.agents import key_redaction as redact_module
from harness.agents.decision_record import STORED_TEXT_CHARS
from harness.agents.key_redaction import REDACTED, redact, register_key_env
from harness.agents.llm_agent import FatalModelError
from harness.agents.providers.provider_errors import AuthenticationFailed
from harness.cli.cli_errors import CliError, error_line
from harness.cli.main import main
from harness.records import RunStore
from tests.fakes import Answer, EchoKey, Malformed
from tests.fakes.backends import SECRET_KEY, Backend, model_player
from tests.fakes.openai_server import FakeOpenAIServer
from tests.league_run.model_league import model_decisions

PLAIN_ENV = "BANGARENA_SEAT_CREDENTIAL"
PLAIN_KEY = "plainCredential0123456789xyz"


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No variable registered yet (registration must come from the code under test)."""
    monkeypatch.setattr(redact_module, "_registered", set())
    yield


# ------------------------------------------------------------------ the redactor


def test_registered_variable_values_are_redacted(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    monkeypatch.setenv(PLAIN_ENV, PLAIN_KEY)
    text = f"bad credential {PLAIN_KEY} (again: {PLAIN_KEY})"
    assert redact(text) == text  # an unknown variable with an unremarkable name and value
    register_key_env(PLAIN_ENV)
    assert redact(text) == f"bad credential {REDACTED} (again: {REDACTED})"


def test_values_of_variables_named_like_keys_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_VENDOR_API_KEY", "vendorvalue42abc")
    monkeypatch.setenv("OTHER_TOKEN", "tokvalue-99-zz")
    monkeypatch.setenv("SHORT_API_KEY", "1")  # too short to be a secret: digits survive
    out = redact("vendorvalue42abc tokvalue-99-zz seat 1 of 4")
    assert out == f"{REDACTED} {REDACTED} seat 1 of 4"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.",
            "Incorrect API key provided: ",
        ),
        ("invalid x-api-key sk-ant-api03-AbCdEf0123456789-xyz_0", "invalid x-api-key "),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "Authorization: Bearer "),
        ("GET /v1/models?key=AIzaSyD-0123456789abcdefXYZ&alt=json", "GET /v1/models?key="),
        ('{"api_key": "0123456789abcdef0123456789"}', '{"api_key": "'),
        ("api-key: 0123456789abcdef0123456789", "api-key: "),
    ],
)
def test_key_shaped_strings_are_redacted(text: str, kept: str) -> None:
    out = redact(text)
    assert REDACTED in out and out.startswith(kept)
    assert "0123456789" not in out


@pytest.mark.parametrize(
    "text",
    [
        '{"choice": "play:shot@2", "reason": "the sheriff is in range"}',
        '{"input_tokens": 123456789012345678, "cache_key": "0123456789abcdef0123456789"}',
        "risk-assessment-of-the-table and sk-short",
        "system_prompt_sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_redacted_json_lines_stay_valid_json() -> None:
    line = json.dumps(
        {"error": 'key="0123456789abcdef0123456789" Bearer sk-ant-0123456789abcdefghij'}
    )
    out = redact(line)
    assert "0123456789abcdef" not in out
    assert json.loads(out)["error"].count(REDACTED) == 2


def test_fatal_error_and_cli_line_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VENDOR_API_KEY", PLAIN_KEY)
    cause = AuthenticationFailed(f"Incorrect API key provided: {PLAIN_KEY}\nmore", status=401)
    fatal = FatalModelError("openai", "gpt-x", cause)
    assert PLAIN_KEY not in str(fatal) and REDACTED in str(fatal)
    line = error_line(CliError(f"stopped: {PLAIN_KEY}\nsecond line"))
    assert line == f"bangarena: error: stopped: {REDACTED} second line\n"


def test_a_key_is_redacted_before_any_cut(
    backend_for: Any, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    """A key straddling a length limit must not leave its first characters behind."""
    monkeypatch.setenv("VENDOR_API_KEY", PLAIN_KEY)
    cause = AuthenticationFailed("x" * 295 + " " + PLAIN_KEY, status=401)
    assert PLAIN_KEY[:5] not in str(FatalModelError("openai", "gpt-x", cause))
    backend = backend_for("openai")
    near_cap = "a" * (STORED_TEXT_CHARS - 5) + " " + PLAIN_KEY
    backend.script.malformed(near_cap).answer("end")
    _, record, _ = backend.decide(answer_mode="text")
    stored = record.attempts[0].raw_text or ""
    assert PLAIN_KEY[:5] not in stored and PLAIN_KEY[:5] not in json.dumps(record.messages)
    assert record.attempts[0].answer_chars == len(near_cap)


def test_run_store_redacts_every_line_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    monkeypatch.setenv(PLAIN_ENV, PLAIN_KEY)
    register_key_env(PLAIN_ENV)
    store = RunStore(tmp_path / "run")
    store.prepare()
    store.add_system_prompt("abc", f"a prompt that somehow holds {PLAIN_KEY}")
    text = store.prompts_path.read_text()
    assert PLAIN_KEY not in text and json.loads(text)["text"].endswith(REDACTED)


# ------------------------------------------------------------------ one decision per provider


def test_echoed_key_in_a_500_never_reaches_the_record(backend: Backend) -> None:
    backend.script.echo_key(500).answer("end")
    choice, record, _ = backend.decide()
    assert choice == "end"
    assert [a.error_kind for a in record.attempts] == ["server_error", None]
    assert SECRET_KEY in json.dumps(backend.script.model_requests[0].headers)
    message = record.attempts[0].error_message or ""
    assert "internal error while serving request" in message  # the echo was read...
    assert SECRET_KEY not in record.model_dump_json()  # ...and its key left out
    assert "redacted" in message.lower()  # (LiteLLM masks some echoes itself as REDACTED)


def test_echoed_key_in_a_401_never_reaches_the_message(backend: Backend) -> None:
    backend.script.echo_key(401)
    with pytest.raises(FatalModelError) as info:
        backend.decide()
    assert "Incorrect API key provided" in str(info.value)
    assert SECRET_KEY not in str(info.value) and "redacted" in str(info.value).lower()


# ------------------------------------------------------------------ a league run and ask


def _config(tmp_path: Path, server: FakeOpenAIServer, name: str) -> Path:
    data = {
        "name": name,
        "players": [
            model_player(
                "careless",
                server.base_url,
                model="fake-gpt",
                api_key_env=PLAIN_ENV,
                price={"input": 1.0, "output": 2.0},
                backoff=0.01,
            ),
            {"name": "bot", "kind": "bot"},
        ],
        "tables": [{"seats": [4]}],
        "games_per_table": 2,
        "decision_seconds": 5,
        # Two games share one scripted answer stream, so how many decisions fall back depends on
        # how their requests interleave; this test is about keys, not about the fallback flag.
        "max_fallback_rate": 1.0,
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _leaks(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and PLAIN_KEY in p.read_text()]


@pytest.fixture
def plain_key(monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    monkeypatch.setenv(PLAIN_ENV, PLAIN_KEY)


def test_league_with_a_server_echoing_the_key_writes_and_prints_no_key(
    tmp_path: Path, plain_key: None, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    with FakeOpenAIServer() as server:
        server.script.repeat(
            [EchoKey(500), Answer(), Malformed(f"my key is {PLAIN_KEY}, trust me"), Answer()]
        )
        code = main(["league", "run", str(_config(tmp_path, server, "echo")), "--output",
                     str(out), "--no-progress"])  # fmt: skip
        echoed = [r for r in server.script.model_requests if PLAIN_KEY in json.dumps(r.headers)]
    stdout, stderr = capfd.readouterr()
    assert code == 0, stderr
    assert echoed  # the key did travel to the server, which echoed it back
    assert len(RunStore(out / "echo").games()) == 2
    attempts = [a for _, record in model_decisions(out / "echo") for a in record.attempts]
    kinds = [a.error_kind for a in attempts]
    assert "server_error" in kinds and "unparseable" in kinds
    assert any(REDACTED in (a.error_message or "") for a in attempts)
    assert any(REDACTED in (a.raw_text or "") for a in attempts)
    assert _leaks(tmp_path) == []
    assert PLAIN_KEY not in stdout + stderr and "Traceback" not in stderr


def test_league_stopped_by_an_echoed_401_writes_and_prints_no_key(
    tmp_path: Path, plain_key: None, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    with FakeOpenAIServer() as server:
        server.script.repeat([EchoKey(401)])
        code = main(["league", "run", str(_config(tmp_path, server, "denied")), "--output",
                     str(out), "--no-progress"])  # fmt: skip
    stdout, stderr = capfd.readouterr()
    assert code == 2
    errors = [line for line in stderr.splitlines() if line.startswith("bangarena: error:")]
    assert len(errors) == 1 and "authentication failed" in errors[0] and REDACTED in errors[0]
    assert _leaks(tmp_path) == []
    assert PLAIN_KEY not in stdout + stderr and "Traceback" not in stderr


def _ask(server: FakeOpenAIServer) -> int:
    return main(["ask", "--provider", "openai", "--model", "fake-gpt", "--base-url",
                 server.base_url, "--api-key-env", PLAIN_ENV, "--seed", "2"])  # fmt: skip


def test_ask_prints_no_key(plain_key: None, capfd: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAIServer() as server:
        server.script.echo_key(500).malformed(f"my key is {PLAIN_KEY}").answer()
        assert _ask(server) == 0
        server.script.echo_key(401)
        assert _ask(server) == 2
    stdout, stderr = capfd.readouterr()
    assert "verdict: server_error" in stdout and "verdict: unparseable" in stdout
    assert stdout.count(REDACTED) >= 2 and REDACTED in stderr
    assert PLAIN_KEY not in stdout + stderr
