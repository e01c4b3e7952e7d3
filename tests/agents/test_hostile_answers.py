"""A hostile server's answers and timing (issue 11): duplicate ``choice`` keys, a 200 KB answer,
a ``Retry-After`` longer than the decision timer and a body trickled byte by byte.  Each test
checks what the decision record says and what was sent back to the model.
"""

from __future__ import annotations

from typing import Any

import pytest

from harness.agents.answer_parse import correction_message, parse_answer
from harness.agents.decision_record import QUOTE_CHARS, STORED_TEXT_CHARS, sha256_text
from harness.agents.providers.provider_contract import REASON_MAX_CHARS
from tests.fakes import Huge
from tests.fakes.backends import OPTIONS, Backend

HUGE = 200_000


# ------------------------------------------------------------------ duplicate keys


@pytest.mark.parametrize(
    "raw",
    [
        '{"choice": "end", "choice": "take"}',
        '{"choice": "take", "reason": "a", "reason": "b"}',
        '```json\n{"choice": "end",\n "choice": "end"}\n```',
    ],
)
def test_an_answer_that_repeats_a_key_is_unparseable(raw: str) -> None:
    parsed = parse_answer(raw, OPTIONS)
    assert parsed.error_kind == "unparseable" and parsed.choice is None
    assert parsed.problem is not None and "repeats the key" in parsed.problem
    assert "repeats the key" in correction_message(parsed, OPTIONS)


def test_repeated_keys_in_a_nested_value_are_refused_too() -> None:
    parsed = parse_answer('{"choice": "end", "reason": {"a": 1, "a": 2}}', OPTIONS)
    assert parsed.error_kind == "unparseable"


@pytest.mark.parametrize("label", ["openai", "litellm-openai"])
def test_duplicate_choice_over_http_is_corrected_not_accepted(backend_for: Any, label: str) -> None:
    backend = backend_for(label)
    backend.script.malformed('{"choice": "end", "choice": "take"}').answer("play:shot@2")
    choice, record, _ = backend.decide(answer_mode="text")
    assert choice == "play:shot@2"  # neither "end" (first) nor "take" (last) was taken
    assert [a.error_kind for a in record.attempts] == ["unparseable", None]
    assert 'repeats the key "choice"' in (record.attempts[0].error_message or "")


# ------------------------------------------------------------------ a 200 KB answer


def _assistant_turns(body: dict[str, Any]) -> list[str]:
    turns = []
    for message in body["messages"]:
        if message["role"] != "assistant":
            continue
        content = message["content"]
        if isinstance(content, list):
            content = "".join(block.get("text", "") for block in content)
        turns.append(content)
    return turns


def test_huge_invalid_answer_is_stored_once_capped_and_quoted_short(backend: Backend) -> None:
    padding = Huge(HUGE).padding()
    backend.script.huge(HUGE).huge(HUGE)
    choice, record, _ = backend.decide(timeout=10.0)
    assert choice == "take" and record.fallback == "invalid_answer"
    assert [a.error_kind for a in record.attempts] == ["unparseable", "unparseable"]
    for attempt in record.attempts:
        stored = attempt.tool_arguments if attempt.tool_arguments is not None else attempt.raw_text
        assert stored is not None and len(stored) == STORED_TEXT_CHARS + 1
        assert stored.endswith("…") and padding.startswith(stored[:-1])
        assert attempt.answer_chars == HUGE
        assert attempt.answer_sha256 == sha256_text(padding)
    # The re-prompt quotes a short prefix of the answer, in the request and in the record.
    sent_back = _assistant_turns(backend.script.model_requests[1].body)
    assert len(sent_back) == 1 and len(sent_back[0]) <= QUOTE_CHARS
    assert padding.startswith(sent_back[0].rstrip("…"))
    kept = [m["content"] for m in record.messages if m["role"] == "assistant"]
    assert len(kept) == 1 and len(kept[0]) <= QUOTE_CHARS
    # The answer text is stored once per attempt: two capped copies, nothing else of that size.
    size = len(record.model_dump_json())
    assert 2 * STORED_TEXT_CHARS < size < 2 * STORED_TEXT_CHARS + 8_000


def test_huge_valid_answer_counts_with_a_capped_reason(backend: Backend) -> None:
    backend.script.huge(HUGE, valid=True)
    choice, record, _ = backend.decide(timeout=10.0)
    assert choice == OPTIONS[0] and record.fallback is None
    (attempt,) = record.attempts
    assert attempt.error_kind is None and attempt.answer_chars is not None
    assert attempt.answer_chars > HUGE
    assert record.reason is not None and len(record.reason) == REASON_MAX_CHARS + 1
    assert len(record.model_dump_json()) < STORED_TEXT_CHARS + 8_000


def test_short_answers_are_stored_whole() -> None:
    parsed = parse_answer('{"choice": "end", "reason": "short"}', OPTIONS)
    assert parsed.reason == "short" and parsed.choice == "end"


# ------------------------------------------------------------------ timing


def test_retry_after_longer_than_the_timer_falls_back_at_once(backend: Backend) -> None:
    backend.script.status(429, retry_after=60).answer("end")
    choice, record, elapsed = backend.decide(timeout=1.5)
    assert choice == "take" and record.fallback == "timeout"
    assert [a.error_kind for a in record.attempts] == ["rate_limit"]
    assert len(backend.script.model_requests) == 1  # no retry that could not finish in time
    assert elapsed < 10  # it did not sleep the server's 60 s


def test_slow_trickle_is_cut_at_the_deadline(backend: Backend) -> None:
    backend.script.trickle(byte_delay=0.05)  # a ~700 byte answer would take ~35 s
    choice, record, elapsed = backend.decide(timeout=1.0)
    assert choice == "take" and record.fallback == "timeout"
    assert [a.error_kind for a in record.attempts] == ["timeout"]
    assert elapsed < 10


def test_a_short_trickle_within_the_deadline_is_an_answer(backend_for: Any) -> None:
    backend = backend_for("openai")
    backend.script.trickle(byte_delay=0.0005)
    choice, record, _ = backend.decide(timeout=10.0)
    assert choice == OPTIONS[0] and record.fallback is None
    assert [a.error_kind for a in record.attempts] == [None]
