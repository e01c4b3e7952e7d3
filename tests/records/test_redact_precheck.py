"""Redaction of written files stays complete when it is made cheap (issue 11, "secrets never
written"): :func:`harness.records.record_redaction.redact_text` returns exactly what the full redaction
returns for every text, and only skips the regular expressions when they could not match."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from harness.agents import key_redaction as redact_module
from harness.agents.key_redaction import REDACTED, redact, register_key_env
from harness.records import record_redaction as fast_module
from harness.records.record_redaction import may_hold_secret, redact_text

PLAIN_ENV = "BANGARENA_TEST_SEAT_CREDENTIAL"
PLAIN_KEY = "plainCredential0123456789xyz"

# Pieces that make or break every pattern of harness.agents.key_redaction, including the characters a
# case-insensitive pattern matches outside ASCII (Kelvin sign, long s, dotted and dotless i).
FRAGMENTS = [
    "key", "KEY", "\u212aey", "Token", "\u017fecret", "SECRET", "password", "api_key",
    "x-api-key", "access-token", "auth_token", "=", ":", " ", "\t", '"', "'", '\\"', "\\",
    "abcdefghij", "ABCDEFGHIJ", "0123456789", "\u0130", "\u0131", "-", ".", "~", "/", "+",
    "sk-", "sk-ant-", "Bearer ", "bearer ", PLAIN_KEY, "\u00e9", "\u00df", "{", "}", ",", "_",
    "\n", "\ufb05", "tokens", "monkey",
]  # fmt: skip


@pytest.fixture
def plain_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(redact_module, "_registered", set())
    monkeypatch.setenv(PLAIN_ENV, PLAIN_KEY)
    register_key_env(PLAIN_ENV)
    yield


def test_fast_redaction_equals_the_full_redaction(plain_key: None) -> None:
    rng = random.Random(11)
    changed = 0
    for _ in range(20_000):
        text = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 14)))
        full = redact(text)
        assert redact_text(text) == full, repr(text)
        changed += full != text
    assert changed > 2_000  # the samples exercise the patterns, not only the skip


@pytest.mark.parametrize(
    "text",
    [
        '{"error":"401 Incorrect API key provided: sk-proj-abcdefghijklmnop"}',
        '{"error":"Authorization: Bearer abcdefgh12345678"}',
        '{"raw":"api_key=\\"ABCDEFGHIJKLMNOPQRSTUV\\""}',
        '{"raw":"\u212aEY: abcdefghijklmnopqrstuvwxyz"}',
        '{"raw":"\u017fecret = \u0130\u0131abcdefghijklmnopqrs"}',
        f'{{"error":"echo {PLAIN_KEY}"}}',
    ],
)
def test_key_shaped_text_is_redacted(plain_key: None, text: str) -> None:
    out = redact_text(text)
    assert may_hold_secret(text)
    assert REDACTED in out and out == redact(text)
    assert PLAIN_KEY not in out and "abcdefghijklmnop" not in out


def test_text_without_anything_key_shaped_skips_the_regular_expressions(
    plain_key: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(text: str) -> str:
        raise AssertionError("the full redaction ran")

    monkeypatch.setattr(fast_module, "redact", fail)
    line = (
        '{"kind":"decision","secret":{"role":"raider"},"input_tokens":512,'
        '"model":{"raw":"{\\"choice\\": \\"play-bang-2\\"}","output_tokens":9}}'
    )
    assert redact_text(line) is line
