"""LLMAgent logic with an in-process provider (no HTTP), plus the small shared modules:
parsing, corrections, retries/back-off, deadlines, records, pricing, cache, registry, schema."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import pytest

from harness.agents.answer_parse import correction_message, parse_answer
from harness.agents.decision_record import ModelDecisionRecord, sha256_text
from harness.agents.llm_agent import FatalModelError, LLMAgent
from harness.agents.pricing import PriceBook, cost_usd, unknown_prices
from harness.agents.providers import (
    ANSWER_MODES,
    AuthenticationFailed,
    BadRequest,
    ConnectionFailed,
    Provider,
    ProviderReply,
    ProviderRequest,
    ProviderTimeout,
    RateLimited,
    ServerError,
    UnknownModel,
    answer_grammar,
    answer_schema,
    get_provider,
    known_providers,
)
from harness.agents.providers.provider_errors import error_from_status, parse_retry_after
from harness.agents.response_cache import ResponseCache, cache_key
from harness.agents.seat import FatalSeatError
from tests.fakes.backends import OPTIONS, StubPrompts, last_option

Step = ProviderReply | Exception | Callable[[ProviderRequest], Any]


class ScriptedProvider(Provider):
    """Returns (or raises) the queued steps in order; records every request."""

    name: ClassVar[str] = "scripted"
    default_answer_mode = "json_schema"
    supported_answer_modes = frozenset(ANSWER_MODES)

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.requests: list[ProviderRequest] = []

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.requests.append(req)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if callable(step):
            return await step(req)
        return step


def text(answer: str, **tokens: int) -> ProviderReply:
    return ProviderReply(text=answer, model="m", **tokens)


def run(
    provider: Provider,
    options: Sequence[str] = OPTIONS,
    timeout: float = 2.0,
    context: dict[str, Any] | None = None,
    **kwargs: Any,
) -> tuple[str, ModelDecisionRecord, float]:
    kwargs.setdefault("fallback", last_option)
    kwargs.setdefault("price_table", PriceBook({}, use_litellm=False))
    kwargs.setdefault("backoff", 0.01)
    agent = LLMAgent(provider, "m", StubPrompts(), **kwargs)

    async def go() -> tuple[str, ModelDecisionRecord, float]:
        start = time.monotonic()
        choice, record = await agent.decide({}, options, start + timeout, context or {})
        return choice, record, time.monotonic() - start

    return asyncio.run(go())


# ----------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("raw", "choice", "kind"),
    [
        ('{"choice": "take"}', "take", None),
        ('  {"choice": "end", "reason": "safe"}\n', "end", None),
        ('```json\n{"choice": "take"}\n```', "take", None),
        ('```\n{"choice": "take"}\n```', "take", None),
        ('{"choice": "take", "reason": null}', "take", None),
        ('{"choice": "TAKE"}', "TAKE", "illegal_option"),  # no case folding
        ('{"choice": "play:shot"}', "play:shot", "illegal_option"),  # no prefix matching
        ('{"choice": " take"}', " take", "illegal_option"),  # no trimming inside the id
        ("take", None, "unparseable"),  # bare id is not the answer format
        ('I choose {"choice": "take"}', None, "unparseable"),  # no substring search
        ('{"choice": "take"} because', None, "unparseable"),
        ('```json\n{"choice": "take"}\n```\n```json\n{"choice": "end"}\n```', None, "unparseable"),
        ('["take"]', None, "unparseable"),
        ('{"option": "take"}', None, "unparseable"),
        ('{"choice": 2}', None, "unparseable"),
        ("", None, "unparseable"),
        (None, None, "unparseable"),
    ],
)
def test_parse_answer_is_strict(raw: str | None, choice: str | None, kind: str | None) -> None:
    parsed = parse_answer(raw, OPTIONS)
    assert parsed.choice == choice
    assert parsed.error_kind == kind


def test_parse_answer_keeps_reason() -> None:
    assert parse_answer('{"choice": "end", "reason": "no cards"}', OPTIONS).reason == "no cards"
    assert parse_answer('{"choice": "end", "reason": 3}', OPTIONS).reason is None


def test_correction_messages_name_the_problem() -> None:
    illegal = correction_message(parse_answer('{"choice": "x"}', OPTIONS), OPTIONS)
    assert illegal.startswith('Your answer "x" is not one of the listed option ids.')
    assert illegal.endswith("using one of: end, play:shot@2, take")
    unreadable = correction_message(parse_answer("hello", OPTIONS), OPTIONS)
    assert "could not be read: it is not a JSON object" in unreadable


# ----------------------------------------------------------------------------- decide()


def test_tool_arguments_take_precedence_over_text() -> None:
    provider = ScriptedProvider(
        ProviderReply(text="thinking aloud", tool_arguments='{"choice": "end"}')
    )
    choice, record, _ = run(provider, answer_mode="tool")
    assert choice == "end" and record.attempts[0].raw_text == "thinking aloud"


def test_correction_conversation_and_record() -> None:
    provider = ScriptedProvider(text("nope", input_tokens=10, output_tokens=2),
                                text('{"choice": "take"}', input_tokens=14, output_tokens=3))  # fmt: skip
    choice, record, _ = run(provider, context={"game_id": "g", "decision_index": 7, "seat": 2,
                                               "role": "outlaw", "player": "p", "decision_kind": "play",
                                               "view_json": '{"hand": ["shot"]}'})  # fmt: skip
    assert choice == "take"
    second = provider.requests[1].messages
    assert second[1] == {"role": "assistant", "content": "nope"}
    assert second[2]["role"] == "user" and "could not be read" in second[2]["content"]
    assert record.messages == second
    assert (record.input_tokens, record.output_tokens) == (24, 5)
    assert (record.game_id, record.decision_index, record.seat) == ("g", 7, 2)
    assert (record.role, record.player, record.decision_kind) == ("outlaw", "p", "play")
    assert record.view == {"hand": ["shot"]}
    assert record.system_prompt_sha256 == sha256_text(StubPrompts().system_prompt({}))
    assert all(m["role"] != "system" for m in record.messages)


def test_zero_corrections_falls_back_at_once() -> None:
    provider = ScriptedProvider(text('{"choice": "nope"}'))
    choice, record, _ = run(provider, max_corrections=0)
    assert (choice, record.fallback, len(provider.requests)) == ("take", "invalid_answer", 1)


def test_transient_errors_retry_with_deterministic_backoff() -> None:
    provider = ScriptedProvider(ServerError("boom", status=502), ConnectionFailed("reset"),
                                ProviderTimeout("slow"), text('{"choice": "end"}'))  # fmt: skip
    choice, record, elapsed = run(provider, backoff=0.05)
    assert choice == "end" and record.fallback is None
    kinds = [a.error_kind for a in record.attempts]
    assert kinds == ["server_error", "connection_error", "timeout", None]
    assert elapsed >= 0.05 + 0.1 + 0.2


def test_retry_delay_schedule() -> None:
    agent = LLMAgent(ScriptedProvider(), "m", StubPrompts(), fallback=last_option,
                     backoff=0.5, backoff_max=3.0)  # fmt: skip
    delays = [agent.retry_delay(i, ServerError("x")) for i in range(5)]
    assert delays == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert agent.retry_delay(0, RateLimited("x", retry_after=2.5)) == 2.5
    assert agent.retry_delay(3, RateLimited("x", retry_after=None)) == 3.0


def test_retry_after_beyond_deadline_falls_back_without_waiting() -> None:
    provider = ScriptedProvider(RateLimited("slow down", retry_after=30))
    choice, record, elapsed = run(provider, timeout=1.0)
    assert (choice, record.fallback) == ("take", "timeout")
    assert elapsed < 0.5
    assert record.attempts[0].error_kind == "rate_limit"


def test_stalled_provider_cannot_pass_the_deadline() -> None:
    async def hang(req: ProviderRequest) -> ProviderReply:
        await asyncio.sleep(60)
        raise AssertionError("unreachable")

    provider = ScriptedProvider(hang)
    choice, record, elapsed = run(provider, timeout=1.0)
    assert (choice, record.fallback) == ("take", "timeout")
    assert elapsed < 1.0 + 3.0  # long before the hang ends, with room for a loaded machine
    assert 0.3 < provider.requests[0].timeout <= 1.0  # the call's timeout is the time left


def test_deadline_already_passed() -> None:
    provider = ScriptedProvider()
    choice, record, _ = run(provider, timeout=-1.0)
    assert (choice, record.fallback, record.attempts) == ("take", "timeout", [])


@pytest.mark.parametrize("error", [AuthenticationFailed("bad key", status=401),
                                   UnknownModel("no such model", status=404),
                                   BadRequest("bad schema\nsecond line", status=400)])  # fmt: skip
def test_fatal_errors_raise(error: Exception) -> None:
    with pytest.raises(FatalModelError) as info:
        run(ScriptedProvider(error))
    assert str(info.value).startswith("scripted model 'm': ")
    assert "\n" not in str(info.value)
    assert isinstance(info.value, FatalSeatError)  # seat.decide lets it through


def test_fatal_error_passes_through_the_seat_layer() -> None:
    assert issubclass(FatalModelError, FatalSeatError)


def test_single_option_needs_no_model_and_records_it() -> None:
    records: list[ModelDecisionRecord] = []
    choice, record, _ = run(ScriptedProvider(), options=["flask"], record_sink=records.append)
    assert choice == "flask" and records == [record]
    assert record.attempts == [] and record.cost_usd == 0.0 and record.fallback is None


def test_invalid_inputs() -> None:
    with pytest.raises(ValueError, match="at least one option"):
        run(ScriptedProvider(), options=[])
    with pytest.raises(ValueError, match="duplicate"):
        run(ScriptedProvider(), options=["end", "end"])
    bad_fallback: Callable[[Any, Sequence[str]], str] = lambda view, options: "dance"  # noqa: E731
    with pytest.raises(ValueError, match="returned 'dance'"):
        run(ScriptedProvider(text("?"), text("?")), fallback=bad_fallback)


def test_unsupported_answer_mode_is_rejected() -> None:
    class Narrow(ScriptedProvider):
        supported_answer_modes = frozenset({"tool"})

    with pytest.raises(ValueError, match="not supported by provider"):
        LLMAgent(Narrow(), "m", StubPrompts(), fallback=last_option, answer_mode="grammar")


def test_system_prompt_stored_once_by_hash() -> None:
    seen: list[tuple[str, str]] = []
    provider = ScriptedProvider(text('{"choice": "end"}'), text('{"choice": "end"}'))
    agent = LLMAgent(provider, "m", StubPrompts(), fallback=last_option,
                     system_prompt_sink=lambda sha, txt: seen.append((sha, txt)),
                     price_table=PriceBook({}, use_litellm=False))  # fmt: skip

    async def twice() -> None:
        for _ in range(2):
            await agent.decide({}, OPTIONS, time.monotonic() + 1, {})

    asyncio.run(twice())
    assert len(seen) == 1 and seen[0][0] == sha256_text(seen[0][1])


def test_record_json_round_trip() -> None:
    _, record, _ = run(ScriptedProvider(text("x"), text('{"choice": "end", "reason": "r"}')))
    again = ModelDecisionRecord.model_validate_json(record.model_dump_json())
    assert again == record and json.loads(record.model_dump_json())["schema_version"] == 1


def test_cost_from_price_table() -> None:
    provider = ScriptedProvider(
        text('{"choice": "end"}', input_tokens=1000, cached_input_tokens=600, output_tokens=100)
    )
    table = {"m": {"input": 2.0, "cached_input": 0.5, "output": 10.0}}
    _, record, _ = run(provider, price_table=table)
    assert record.cost_usd == pytest.approx((400 * 2.0 + 600 * 0.5 + 100 * 10.0) / 1e6)
    _, unpriced, _ = run(ScriptedProvider(text('{"choice": "end"}', input_tokens=5)))
    assert unpriced.cost_usd is None


# ----------------------------------------------------------------------------- pricing


def test_pricing_table_and_unknown_models() -> None:
    table = {"local/smol": {"input": 0.0, "output": 0.0}, "big": {"input": 3, "output": 15}}
    assert unknown_prices(["big", "local/smol", "mystery", "mystery"], table,
                          use_litellm=False) == ["mystery"]  # fmt: skip
    cost = cost_usd("big", input_tokens=10, cached_input_tokens=4, output_tokens=2, table=table)
    assert cost == pytest.approx((10 * 3 + 2 * 15) / 1e6)  # cached defaults to the input price


def test_pricing_from_litellm_map() -> None:
    pytest.importorskip("litellm")
    book = PriceBook()
    price = book.price("gpt-4o", provider="openai")
    assert price is not None and price.output > price.input > price.cached_input > 0
    assert book.price("openai/gpt-4o") == price  # provider prefix stripped
    assert unknown_prices(["gpt-4o", "no-such-model-xyz"]) == ["no-such-model-xyz"]


# ----------------------------------------------------------------------------- cache


def test_response_cache_round_trip_and_key(tmp_path) -> None:
    cache = ResponseCache(tmp_path)
    req = ProviderRequest("m", "sys", [{"role": "user", "content": "hi"}], "tool", ("a", "b"),
                          {"temperature": 0}, timeout=3.0)  # fmt: skip
    assert cache.get("p", req) is None
    reply = ProviderReply(tool_arguments='{"choice": "a"}', input_tokens=5, raw={"id": "x"})
    cache.put("p", req, reply)
    assert cache.get("p", req) == reply
    same_but_timeout = ProviderRequest(req.model, req.system, req.messages, req.answer_mode,
                                       req.option_ids, req.params, timeout=9.0)  # fmt: skip
    assert cache_key("p", same_but_timeout) == cache_key("p", req)
    for other in (
        ProviderRequest("m", "sys2", req.messages, "tool", ("a", "b"), req.params),
        ProviderRequest("m", "sys", req.messages, "text", ("a", "b"), req.params),
        ProviderRequest("m", "sys", req.messages, "tool", ("b", "a"), req.params),
        ProviderRequest("m", "sys", req.messages, "tool", ("a", "b"), {"temperature": 1}),
    ):
        assert cache_key("p", other) != cache_key("p", req)
    assert cache_key("q", req) != cache_key("p", req)


# ----------------------------------------------------------------------------- providers


def test_answer_schema_and_grammar() -> None:
    schema = answer_schema(["end", 'odd"id'])
    assert schema["properties"]["choice"]["enum"] == ["end", 'odd"id']
    assert schema["additionalProperties"] is False
    grammar = answer_grammar(["end", "play:shot@2"])
    assert 'choice ::= "\\"end\\"" | "\\"play:shot@2\\""' in grammar
    assert grammar.startswith("root ::= ")
    with pytest.raises(ValueError):
        answer_schema([])


def test_status_mapping_and_retry_after() -> None:
    assert isinstance(error_from_status(429, "x", {"Retry-After": "2"}), RateLimited)
    assert error_from_status(429, "x", {"retry-after-ms": "1500"}).retry_after == 1.5  # type: ignore[attr-defined]
    assert isinstance(error_from_status(401, "x"), AuthenticationFailed)
    assert isinstance(error_from_status(403, "x"), AuthenticationFailed)
    assert isinstance(error_from_status(404, "x"), UnknownModel)
    assert isinstance(error_from_status(400, "x"), BadRequest)
    assert isinstance(error_from_status(503, "x"), ServerError)
    assert isinstance(error_from_status(529, "x"), RateLimited)
    assert (
        parse_retry_after({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470.0)
        == 10.0
    )
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after(None) is None


def test_registry() -> None:
    assert {"openai", "anthropic", "litellm"} <= set(known_providers())
    with pytest.raises(ValueError, match="known providers: .*anthropic.*litellm.*openai"):
        get_provider("nope")


def test_missing_api_key_is_fatal_without_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai")
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with pytest.raises(AuthenticationFailed, match="NO_SUCH_KEY_VAR"):
        get_provider("openai", api_key_env="NO_SUCH_KEY_VAR")


def test_importing_providers_imports_no_sdk() -> None:
    code = (
        "import sys, harness.agents.providers, harness.agents.llm_agent, harness.agents.pricing;"
        "bad = [m for m in ('openai', 'anthropic', 'litellm') if m in sys.modules];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(_repo_root()))


def _repo_root() -> Any:
    from pathlib import Path

    return Path(__file__).resolve().parents[2]
