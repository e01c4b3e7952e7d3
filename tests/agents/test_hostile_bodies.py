"""A hostile server's success responses (issue 11): an HTTP 200 whose body is not the vendor's
answer — truncated JSON, an HTML page, an event stream nobody asked for, a non-JSON content type,
missing or mistyped fields, nothing at all — is a transient ``bad_response`` attempt in every
adapter (openai, anthropic, litellm→openai, litellm→anthropic), retried like a 5xx within the
deadline and recorded; ``bangarena ask`` reports it without a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.agents.providers.anthropic_provider import parse_message
from harness.agents.providers.openai_provider import parse_chat_completion
from harness.agents.providers.provider_errors import BadResponse
from harness.agents.providers.response_body import json_body
from harness.cli.main import main
from tests.fakes import BAD_BODY_KINDS, BadBody
from tests.fakes.backends import KEY_ENV, SECRET_KEY, Backend
from tests.fakes.openai_server import FakeOpenAIServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind", BAD_BODY_KINDS)
def test_bad_body_is_a_recorded_bad_response_then_retried(backend: Backend, kind: str) -> None:
    backend.script.bad_body(kind).answer("end")  # type: ignore[arg-type]
    choice, record, _ = backend.decide(timeout=5.0)
    assert choice == "end" and record.fallback is None
    assert [a.error_kind for a in record.attempts] == ["bad_response", None]
    failed = record.attempts[0]
    assert failed.error_message and "\n" not in failed.error_message
    assert len(failed.error_message) <= 500
    assert failed.raw_text is None and failed.tool_arguments is None
    assert failed.tokens.input == 0 and failed.tokens.output == 0
    assert len(backend.script.model_requests) == 2 and backend.script.pending == 0


def test_bad_bodies_use_up_the_retry_budget_then_fall_back(backend: Backend) -> None:
    backend.script.bad_body("html").bad_body("truncated_json").answer("end")
    choice, record, _ = backend.decide(retry_budget=1)
    assert choice == "take"  # the test fallback (last option), not the unread answer
    assert record.fallback == "error"
    assert [a.error_kind for a in record.attempts] == ["bad_response", "bad_response"]
    assert len(backend.script.model_requests) == 2


def test_bad_body_messages_name_the_problem(backend_for: Any) -> None:
    backend = backend_for("openai")
    expected = {
        "truncated_json": "not valid JSON",
        "html": "text/html, not JSON",
        "sse": "event stream that was not asked for",
        "wrong_content_type": "text/plain, not JSON",
        "missing_fields": "no choices",
        "mistyped_fields": "choices as a JSON string",
        "empty": "body is empty",
    }
    for kind, needle in expected.items():
        backend.script.bad_body(kind).answer("end")  # type: ignore[arg-type]
        _, record, _ = backend.decide()
        assert needle in (record.attempts[0].error_message or ""), kind


# ------------------------------------------------------------------ field checks, no server

_CHOICE_OK = {"choices": [{"message": {"role": "assistant", "content": '{"choice": "end"}'}}]}


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"error": {"message": "upstream overloaded"}}, "error object: upstream overloaded"),
        ({"choices": []}, "not a non-empty array"),
        ({"choices": ["end"]}, "choices[0] is a JSON string"),
        ({"choices": [{"message": "end"}]}, "choices[0].message is a JSON string"),
        ({"choices": [{"message": {"content": 42}}]}, "content is a JSON number"),
        ({"choices": [{"message": {"tool_calls": {}}}]}, "tool_calls is a JSON object"),
        (
            {"choices": [{"message": {"tool_calls": [{"function": {"name": "choose"}}]}}]},
            "has no choices[0].message.tool_calls[0].function.arguments",
        ),
        ({**_CHOICE_OK, "usage": 5}, "usage is a JSON number"),
        ({**_CHOICE_OK, "usage": {"prompt_tokens": "a lot"}}, "usage.prompt_tokens"),
        ({**_CHOICE_OK, "usage": {"completion_tokens": -3}}, "usage.completion_tokens"),
        (
            {**_CHOICE_OK, "usage": {"prompt_tokens_details": {"cached_tokens": 1.5}}},
            "usage.prompt_tokens_details.cached_tokens",
        ),
    ],
)
def test_chat_completion_fields_are_checked(body: dict[str, Any], needle: str) -> None:
    with pytest.raises(BadResponse) as info:
        parse_chat_completion(body)
    assert needle in info.value.message and info.value.kind == "bad_response"


def test_chat_completion_with_null_optional_fields_is_an_answer() -> None:
    body = {**_CHOICE_OK, "usage": {"prompt_tokens": 7, "prompt_tokens_details": None}}
    body["choices"][0]["message"]["tool_calls"] = None  # type: ignore[index]
    reply = parse_chat_completion(body)
    assert reply.text == '{"choice": "end"}' and reply.input_tokens == 7
    assert reply.cached_input_tokens is None and reply.tool_arguments is None  # not reported


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"type": "error", "error": {"message": "overloaded"}}, "error object: overloaded"),
        ({"content": "end"}, "content as a JSON string"),
        ({"content": [7]}, "content[0] is a JSON number"),
        ({"content": [{"type": "text", "text": 7}]}, "content[0].text is a JSON number"),
        ({"content": [{"type": "tool_use", "name": "choose"}]}, "no content[0].input"),
        ({"content": [], "usage": {"output_tokens": "many"}}, "usage.output_tokens"),
    ],
)
def test_anthropic_message_fields_are_checked(body: dict[str, Any], needle: str) -> None:
    with pytest.raises(BadResponse) as info:
        parse_message(body)
    assert needle in info.value.message


@pytest.mark.parametrize(
    ("data", "content_type", "needle"),
    [
        (b"[1, 2]", "application/json", "a JSON array, not an object"),
        (b'{"a": 1', "application/json; charset=utf-8", "not valid JSON"),
        (b"\xff\xfe{}", "application/json", "not valid JSON"),
        (b'{"a": 1}', "text/html", "text/html, not JSON"),
    ],
)
def test_json_body_refuses(data: bytes, content_type: str, needle: str) -> None:
    with pytest.raises(BadResponse, match=needle.replace("(", r"\(")):
        json_body(data, content_type)


def test_json_body_accepts_json_media_types_and_a_missing_header() -> None:
    for content_type in ("application/json", "application/problem+json", None):
        assert json_body(b'{"a": 1}', content_type) == {"a": 1}


# ------------------------------------------------------------------ bangarena ask, a real process


def _ask_argv(server: FakeOpenAIServer, *extra: str) -> list[str]:
    return ["ask", "--provider", "openai", "--model", "fake-gpt", "--base-url", server.base_url,
            "--api-key-env", KEY_ENV, "--seed", "3", *extra]  # fmt: skip


def _ask(server: FakeOpenAIServer, *extra: str) -> subprocess.CompletedProcess[str]:
    """``bangarena ask`` in a real process (so any traceback would reach its stderr)."""
    env = {**os.environ, KEY_ENV: SECRET_KEY, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    command = [sys.executable, "-m", "harness.cli.main", *_ask_argv(server, *extra)]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_ask_reports_a_bad_body_and_the_retry(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.bad_body("html").answer()
        code = main(_ask_argv(server))
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "verdict: bad_response: the response is text/html, not JSON" in out
    assert "retries after errors: 1" in out and "parsed choice: " in out


def test_ask_against_a_server_that_only_sends_garbage_falls_back_on_exit_1() -> None:
    with FakeOpenAIServer() as server:
        kinds = iter(BAD_BODY_KINDS * 10)
        server.script.default = lambda body: BadBody(next(kinds))
        done = _ask(server, "--decision-seconds", "6")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and done.stderr == ""
    verdicts = [line for line in done.stdout.splitlines() if line.startswith("verdict: ")]
    assert len(verdicts) >= 2 and all(v.startswith("verdict: bad_response") for v in verdicts)
    assert "failure: timeout (last attempt: bad_response)" in done.stdout


def test_echoed_bad_body_excerpt_is_short_json_text() -> None:
    """The excerpt of an unreadable body in a message is short, one line and quoted."""
    with pytest.raises(BadResponse) as info:
        json_body(b"<html>\n" + b"x" * 5000 + b"\n</html>", "text/html")
    message = info.value.message
    assert "\n" not in message and len(message) < 200
    assert json.loads(message.split("not JSON: ", 1)[1]).startswith("<html> xxx")


def test_a_deeply_nested_body_is_a_bad_response_not_a_crash() -> None:
    with pytest.raises(BadResponse, match="not valid JSON"):
        json_body(b"[" * 30_000 + b"]" * 30_000, "application/json")
