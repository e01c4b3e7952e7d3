"""Whether a model's ``max_tokens`` holds the longest answer its answer format allows.

An answer is ``{"choice": "<option id>", "reason": "<at most REASON_MAX_CHARS characters>"}`` (the
GBNF grammar enforces the length; the other modes ask for "one short sentence").  An answer cut by
the token limit is recorded as ``truncated`` and falls back, so the limit should hold the longest
answer in the locale the seat plays in: its reason at full length, written in the locale's densest
prose (the :data:`~harness.agents.providers.provider_contract.REASON_MAX_CHARS`-character window of the locale's
system prompt with the most tokens, as the model's tokenizer counts them), and the longest option
id the engine offers.  :func:`answer_budget_warning` is the preflight's check; ``bangarena
prompt-stats``-style figures come from :func:`answer_tokens`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .providers.anthropic_provider import DEFAULT_MAX_TOKENS as ANTHROPIC_DEFAULT_MAX_TOKENS
from .providers.provider_contract import REASON_MAX_CHARS

__all__ = [
    "LONGEST_OPTION_ID",
    "answer_budget_warning",
    "answer_tokens",
    "densest_reason",
    "longest_answer",
    "max_tokens_of",
]

# The longest option id in 20 seeded 7-seat games of random play (27 characters).
LONGEST_OPTION_ID = "play:knock_off@2/long_rifle"
WINDOW_STRIDE = 20  # characters between two windows of the locale's prose

TokenCounter = Callable[[str], int]


def _prose(locale: str) -> str:
    from harness.views.prompts import system_prompt_text

    return system_prompt_text(locale)


def densest_reason(locale: str, count: TokenCounter, chars: int = REASON_MAX_CHARS) -> str:
    """The ``chars``-character window of ``locale``'s system prompt (its rules, in the language
    the seat's reasons are written in) that ``count`` finds the most tokens in, on one line."""
    text = " ".join(_prose(locale).split())
    if len(text) <= chars:
        return text
    best, most = text[:chars], -1
    for start in range(0, len(text) - chars + 1, WINDOW_STRIDE):
        window = text[start : start + chars]
        n = count(window)
        if n > most:
            best, most = window, n
    return best


def longest_answer(locale: str, count: TokenCounter) -> str:
    """The answer object at its longest: the longest option id and a reason of
    :data:`REASON_MAX_CHARS` characters of ``locale``'s densest prose."""
    reason = densest_reason(locale, count)
    return json.dumps({"choice": LONGEST_OPTION_ID, "reason": reason}, ensure_ascii=False)


@lru_cache(maxsize=64)
def _answer_tokens(locale: str, count: TokenCounter) -> int:
    return count(longest_answer(locale, count))


def answer_tokens(locale: str, count: TokenCounter) -> int:
    """Tokens of :func:`longest_answer` in ``locale`` as ``count`` counts them."""
    return _answer_tokens(locale, count)


def max_tokens_of(provider: str, params: dict[str, Any]) -> int | None:
    """The output token limit of a model's calls: ``max_tokens`` / ``max_completion_tokens`` of
    its params, Anthropic's default when it sets none, else ``None`` (the server's own)."""
    for key in ("max_completion_tokens", "max_tokens"):
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return ANTHROPIC_DEFAULT_MAX_TOKENS if provider == "anthropic" else None


def answer_budget_warning(
    who: str,
    provider: str,
    model: str,
    params: dict[str, Any],
    locale: str,
    count: TokenCounter | None = None,
) -> str | None:
    """A one-line warning when the longest answer in ``locale`` needs more tokens than the
    model's ``max_tokens`` (``None`` when it fits or there is no limit).  ``count`` defaults to
    the model's prompt token counter (:func:`harness.agents.tokenizers.prompt_token_counter`)."""
    limit = max_tokens_of(provider, params)
    if limit is None:
        return None
    if count is None:
        count = _counter(model)
    needed = answer_tokens(locale, count)
    if needed <= limit:
        return None
    return (
        f"warning: {who}: max_tokens {limit} may cut answers: the longest answer the format "
        f"allows (a {REASON_MAX_CHARS}-character reason in {locale}) takes {needed} tokens; "
        f"cut answers are recorded as truncated and fall back (raise max_tokens to {needed} "
        "or more)"
    )


@lru_cache(maxsize=16)
def _counter(model: str) -> TokenCounter:
    """One counter per model, so :func:`answer_tokens` is measured once per model and locale."""
    from harness.agents.tokenizers import prompt_token_counter

    return prompt_token_counter(model)
