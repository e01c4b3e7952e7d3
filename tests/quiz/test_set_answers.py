"""Set answers through the shared LLM agent (``decide(..., answer_shape="set")``): the strict
``{"answer": [ids]}`` object, its schema and grammar per answer mode, corrective re-prompts, the
fallback contract and the response cache key — the game's ``{"choice": id}`` path unchanged."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from harness.agents.answer_parse import parse_answer
from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers import (
    ANSWER_MODES,
    Provider,
    ProviderReply,
    ProviderRequest,
    answer_grammar,
    answer_schema,
)
from harness.agents.providers.openai_provider import chat_completions_kwargs
from harness.agents.response_cache import cache_key

IDS = ("a", "b", "c")


@pytest.mark.parametrize(
    ("raw", "choice", "error"),
    [
        ('{"answer": ["c", "a"]}', '["a", "c"]', None),  # kept in option order
        ('{"answer": []}', "[]", None),
        ('```json\n{"answer": ["b"], "reason": "x"}\n```', '["b"]', None),
        ('{"answer": ["a", "z"]}', "z", "illegal_option"),
        ('{"answer": ["a", "a"]}', None, "unparseable"),
        ('{"answer": "a"}', None, "unparseable"),
        ('{"answer": [1]}', None, "unparseable"),
        ('{"choice": "a"}', None, "unparseable"),
        ('{"answer": ["a"], "answer": ["b"]}', None, "unparseable"),
        ("a and c", None, "unparseable"),
    ],
)
def test_set_answers_are_parsed_strictly(raw: str, choice: str | None, error: str | None) -> None:
    got = parse_answer(raw, IDS, "set")
    assert (got.choice, got.error_kind) == (choice, error)


def test_single_answers_are_unchanged() -> None:
    assert parse_answer('{"choice": "b"}', IDS).choice == "b"
    assert parse_answer('{"answer": ["b"]}', IDS).error_kind == "unparseable"


def test_schema_grammar_and_request_per_answer_mode() -> None:
    schema = answer_schema(IDS, "set")
    assert schema["properties"]["answer"] == {
        "type": "array",
        "items": {"type": "string", "enum": list(IDS)},
    }
    assert schema["required"] == ["answer", "reason"]
    assert answer_schema(IDS) == answer_schema(IDS, "one")  # the game's schema as before
    grammar = answer_grammar(IDS, "set")
    assert '"\\"answer\\""' in grammar and "{0,2}" in grammar and '"\\"c\\""' in grammar
    req = ProviderRequest("m", "sys", [{"role": "user", "content": "q"}], "tool", IDS,
                          answer_shape="set")  # fmt: skip
    tool = chat_completions_kwargs(req)["tools"][0]["function"]
    assert "answer" in tool["parameters"]["properties"] and "every" in tool["description"]
    one = ProviderRequest("m", "sys", [], "json_schema", IDS)
    assert cache_key("p", one) != cache_key(
        "p", req.__class__(**{**one.__dict__, "answer_shape": "set"})
    )


class Scripted(Provider):
    name: ClassVar[str] = "scripted-set"
    default_answer_mode = "json_schema"
    supported_answer_modes = frozenset(ANSWER_MODES)

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.requests: list[ProviderRequest] = []

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.requests.append(req)
        return ProviderReply(text=self.answers.pop(0), input_tokens=10, output_tokens=5)


class Prompts:
    def system_prompt(self, view: Any) -> str:
        return "rules"

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str:
        return "which apply? " + ", ".join(options)


def decide(provider: Provider, options: Sequence[str], fallback: Any = None) -> tuple[str, Any]:
    agent = LLMAgent(
        provider,
        "m",
        Prompts(),
        fallback=fallback or (lambda view, opts: "[]"),
        price_table=PriceBook({}, use_litellm=False),
        backoff=0.0,
    )
    return asyncio.run(agent.decide({}, options, time.monotonic() + 5, {}, answer_shape="set"))


def test_a_set_answer_after_a_corrective_reprompt() -> None:
    provider = Scripted('{"choice": "a"}', '{"answer": ["c", "b"]}')
    chosen, record = decide(provider, IDS)
    assert chosen == '["b", "c"]' == record.chosen == record.parsed_choice
    assert record.fallback is None
    assert [a.error_kind for a in record.attempts] == ["unparseable", None]
    assert '{"answer": ["<option id>", ...]}' in record.messages[2]["content"]
    assert all(r.answer_shape == "set" for r in provider.requests)


def test_a_set_question_with_one_candidate_still_asks_the_model() -> None:
    provider = Scripted('{"answer": []}')
    chosen, record = decide(provider, ("only",))
    assert chosen == "[]" and len(provider.requests) == 1


def test_the_fallback_of_a_set_answer_must_be_a_set_of_the_options() -> None:
    chosen, record = decide(Scripted("no", "still no"), IDS)
    assert (chosen, record.fallback) == ("[]", "invalid_answer")
    with pytest.raises(ValueError, match="fallback policy"):
        decide(Scripted("no", "no"), IDS, fallback=lambda view, opts: json.dumps(["z"]))
