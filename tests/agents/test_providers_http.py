"""Every provider through its real SDK client against local fake HTTP servers.

Each test runs for openai, anthropic, litellm→openai and litellm→anthropic (see ``backend``).
"""

from __future__ import annotations

import json

import pytest

from harness.agents.llm_agent import FatalModelError
from harness.agents.response_cache import ResponseCache
from tests.fakes.backends import OPTIONS, SECRET_KEY, Backend


def test_correct_answer(backend: Backend) -> None:
    backend.script.answer("play:shot@2", "the sheriff is in range")
    choice, record, _ = backend.decide()
    assert choice == "play:shot@2"
    assert record.fallback is None
    assert record.parsed_choice == "play:shot@2"
    assert record.reason == "the sheriff is in range"
    assert [a.error_kind for a in record.attempts] == [None]
    assert len(backend.script.model_requests) == 1
    assert record.input_tokens > 0 and record.output_tokens > 0
    assert record.provider == backend.provider_name and record.model == backend.model
    assert record.game_id == "g1"


def test_malformed_then_corrected(backend: Backend) -> None:
    backend.script.malformed("I'd rather take the hit.").answer("take")
    choice, record, _ = backend.decide()
    assert choice == "take"
    assert record.fallback is None
    assert [a.error_kind for a in record.attempts] == ["unparseable", None]
    requests = backend.script.model_requests
    assert len(requests) == 2
    # The correction re-prompt carries the raw answer and names the problem.
    sent = json.dumps(requests[1].body["messages"])
    assert "I'd rather take the hit." in sent
    assert "could not be read" in sent
    assert [m["role"] for m in record.messages] == ["user", "assistant", "user"]


def test_illegal_twice_falls_back(backend: Backend) -> None:
    backend.script.illegal("play:shot@9").illegal("PLAY:SHOT@2")
    choice, record, _ = backend.decide()
    assert choice == "take"  # the fallback policy (last option), never a fuzzy match
    assert record.fallback == "invalid_answer"
    assert record.fallback_policy == "last_option"
    assert record.parsed_choice == "PLAY:SHOT@2"
    assert [a.error_kind for a in record.attempts] == ["illegal_option", "illegal_option"]
    assert len(backend.script.model_requests) == 2
    assert '"play:shot@9" is not one of the listed option ids' in record.messages[2]["content"]


def test_stall_past_deadline_falls_back_in_time(backend: Backend) -> None:
    backend.script.stall(8.0)
    choice, record, elapsed = backend.decide(timeout=1.0)
    assert choice == "take"
    assert record.fallback == "timeout"
    assert record.attempts[0].error_kind == "timeout"
    assert elapsed < 1.0 + 3.0  # long before the stall ends, with room for a loaded machine


def test_rate_limit_honours_retry_after(backend: Backend) -> None:
    backend.script.status(429, retry_after=0.4).answer("end")
    choice, record, elapsed = backend.decide(timeout=3.0)
    assert choice == "end"
    assert record.fallback is None
    assert [a.error_kind for a in record.attempts] == ["rate_limit", None]
    assert len(backend.script.model_requests) == 2  # the SDK did not retry on its own
    assert elapsed >= 0.4


def test_server_error_then_success(backend: Backend) -> None:
    backend.script.status(500).answer("end")
    choice, record, _ = backend.decide()
    assert choice == "end"
    assert [a.error_kind for a in record.attempts] == ["server_error", None]
    assert len(backend.script.model_requests) == 2


def test_connection_reset_then_success(backend: Backend) -> None:
    backend.script.reset().answer("end")
    choice, record, _ = backend.decide()
    assert choice == "end"
    assert [a.error_kind for a in record.attempts] == ["connection_error", None]
    assert len(backend.script.model_requests) == 2


def test_retry_budget_exhausted_falls_back_with_error(backend: Backend) -> None:
    backend.script.status(503).status(503).answer("end")
    choice, record, _ = backend.decide(retry_budget=1)
    assert choice == "take"
    assert record.fallback == "error"
    assert [a.error_kind for a in record.attempts] == ["server_error", "server_error"]


def test_authentication_failure_is_fatal(backend: Backend) -> None:
    backend.script.status(401, message="invalid x-api-key")
    with pytest.raises(FatalModelError) as info:
        backend.decide()
    message = str(info.value)
    assert backend.provider_name in message and backend.model in message
    assert "authentication failed" in message and "\n" not in message
    assert SECRET_KEY not in message
    assert len(backend.script.model_requests) == 1


def test_unknown_model_is_fatal(backend: Backend) -> None:
    backend.script.unknown_model()
    with pytest.raises(FatalModelError, match="unknown model"):
        backend.decide()
    assert len(backend.script.model_requests) == 1


def test_single_option_makes_no_request(backend: Backend) -> None:
    choice, record, _ = backend.decide(options=["take"])
    assert choice == "take"
    assert record.attempts == [] and record.fallback is None and record.messages == []
    assert backend.script.model_requests == []


def test_cache_hit_makes_no_request(backend: Backend, tmp_path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    backend.script.answer("play:shot@2")
    first, rec1, _ = backend.decide(cache=cache)
    assert not rec1.cached
    second, rec2, _ = backend.decide(cache=cache)
    assert first == second == "play:shot@2"
    assert rec2.cached and rec2.attempts[0].cached
    assert rec2.cost_usd == 0.0 and rec2.input_tokens == 0  # nothing was spent
    assert len(backend.script.model_requests) == 1


def test_api_key_sent_but_never_recorded(backend: Backend, tmp_path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    backend.script.malformed().answer("end")
    _, record, _ = backend.decide(cache=cache)
    headers = json.dumps(backend.script.model_requests[0].headers)
    assert SECRET_KEY in headers  # the key did reach the server
    assert SECRET_KEY not in record.model_dump_json()
    for path in tmp_path.rglob("*.json"):
        assert SECRET_KEY not in path.read_text()


def test_cached_tokens_recorded(backend: Backend) -> None:
    backend.script.cached_tokens = 10
    _, record, _ = backend.decide()
    assert record.cached_input_tokens == 10
    assert record.attempts[0].tokens.cached_input == 10
    assert record.input_tokens >= 10


def test_reasoning_recorded(backend: Backend) -> None:
    backend.script.answer("end", reasoning="The deck is thin; ending is safest.")
    _, record, _ = backend.decide()
    assert record.attempts[0].reasoning == "The deck is thin; ending is safest."


def test_cost_uses_price_table(backend: Backend) -> None:
    table = {backend.model: {"input": 1.0, "cached_input": 0.1, "output": 2.0}}
    backend.script.cached_tokens = 4
    _, record, _ = backend.decide(price_table=table)
    expected = ((record.input_tokens - 4) * 1.0 + 4 * 0.1 + record.output_tokens * 2.0) / 1_000_000
    assert record.cost_usd == pytest.approx(expected)


@pytest.mark.parametrize("label", ["anthropic", "litellm-anthropic"])
def test_anthropic_system_block_is_cacheable(backend_for, label: str) -> None:
    backend = backend_for(label)
    backend.decide()
    system = backend.script.model_requests[0].body["system"]
    assert isinstance(system, list) and len(system) == 1
    assert system[0]["type"] == "text"
    assert system[0]["cache_control"] == {"type": "ephemeral"}
    assert "BangArena" in system[0]["text"]


def test_anthropic_tool_mode_is_forced(backend_for) -> None:
    backend = backend_for("anthropic")
    backend.decide()
    body = backend.script.model_requests[0].body
    assert body["tool_choice"] == {"type": "tool", "name": "choose"}
    assert body["tools"][0]["input_schema"]["properties"]["choice"]["enum"] == list(OPTIONS)


def test_anthropic_json_schema_mode_uses_output_config(backend_for) -> None:
    backend = backend_for("anthropic")
    choice, _, _ = backend.decide(answer_mode="json_schema")
    body = backend.script.model_requests[0].body
    schema = body["output_config"]["format"]["schema"]
    assert body["output_config"]["format"]["type"] == "json_schema"
    assert schema["properties"]["choice"]["enum"] == list(OPTIONS)
    assert "tools" not in body and choice == "end"


@pytest.mark.parametrize("label", ["openai", "litellm-openai"])
@pytest.mark.parametrize("mode", ["json_schema", "json_object", "grammar", "tool", "text"])
def test_openai_wire_format_per_answer_mode(backend_for, label: str, mode: str) -> None:
    backend = backend_for(label)
    backend.script.answer("play:shot@2")
    choice, record, _ = backend.decide(answer_mode=mode, params={"temperature": 0.0})
    assert choice == "play:shot@2" and record.answer_mode == mode
    body = backend.script.model_requests[0].body
    assert body["messages"][0]["role"] == "system"
    assert body["temperature"] == 0.0
    fmt = body.get("response_format")
    if mode == "json_schema":
        assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
        assert fmt["json_schema"]["schema"]["properties"]["choice"]["enum"] == list(OPTIONS)
    elif mode == "json_object":
        assert fmt["type"] == "json_object"
        assert fmt["schema"]["properties"]["choice"]["enum"] == list(OPTIONS)
    elif mode == "grammar":
        assert fmt is None and 'choice ::= "\\"end\\""' in body["grammar"]
    elif mode == "tool":
        assert body["tool_choice"] == {"type": "function", "function": {"name": "choose"}}
        assert record.attempts[0].tool_arguments is not None
    else:
        assert fmt is None and "tools" not in body and "grammar" not in body
