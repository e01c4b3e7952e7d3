"""Whether a seat's smallest request fits the model's context: counted before any call when the
spec sets ``context_tokens`` (:func:`check_context`), or read from the server's refusal of the
sample (:func:`overflow_error`); either stops the run with one line naming the context needed
(:func:`context_needed`)."""

from __future__ import annotations

import math
import re

from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.model_spec import ModelSpec
from harness.play.model_checks import where

from .preflight_records import PreflightError, RequestSize

__all__ = ["check_context", "context_needed", "overflow_error"]

# How servers word the request's and the context's sizes in a context overflow: llama-cpp-python
# "Requested tokens (12898) exceed context window of 8192"; llama.cpp "request (9000 tokens) exceeds
# the available context size (8192 tokens)"; OpenAI "maximum context length is 8192 tokens.
# However, your messages resulted in 9000 tokens".
_REQUESTED = re.compile(
    r"requested tokens \((\d+)\)|request \((\d+) tokens\)|resulted in (\d+) tokens"
    r"|requested (\d+) tokens",
    re.IGNORECASE,
)
_WINDOW = re.compile(
    r"context window of (\d+)|context length is (\d+)|context size \((\d+)", re.IGNORECASE
)


def _number(pattern: re.Pattern[str], text: str) -> int | None:
    found = pattern.search(text)
    if found is None:
        return None
    return int(next(g for g in found.groups() if g))


def context_needed(tokens: int) -> int:
    """The context to configure for a request of ``tokens``: the next power of two (servers and
    ``context_tokens`` are usually set so), at least 1,024."""
    return max(1024, 1 << math.ceil(math.log2(max(tokens, 1))))


def _context_advice(spec: ModelSpec, needed: int) -> str:
    size = context_needed(needed)
    return (
        f"it needs a context of at least {needed:,} tokens: serve the model with a context of "
        f"{size} (llama.cpp's server: --n_ctx {size}) and set 'context_tokens: {size}' in its "
        "model section"
    )


def check_context(player: str, spec: ModelSpec, locale: str, signals: bool = False) -> None:
    """Stop before any call when ``spec`` sets ``context_tokens`` and the smallest request a seat
    can send in ``locale`` — the system prompt plus room for the answer (``max_tokens``) —
    cannot fit it.  Counted only with an exact tokenizer (the server's endpoint, a tokenizer
    file or an encoding), never with the estimate and its margin."""
    if spec.context_tokens is None:
        return
    from harness.agents.model_spec import counter_for
    from harness.views.prompts import system_prompt_text
    from harness.views.tokens import TokenizerError, request_tokens

    try:
        counter = counter_for(spec)
    except TokenizerError:
        return
    if counter.source.startswith("estimate"):
        return
    system = request_tokens(counter, [system_prompt_text(locale, signals, spec.rules)])
    answer = int(spec.params.get("max_tokens") or 0)
    if system + answer <= spec.context_tokens:
        return
    raise PreflightError(
        f"preflight: {where(player, spec)}, locale {locale}: the smallest request cannot fit "
        f"context_tokens {spec.context_tokens:,}: its system prompt alone is {system:,} tokens "
        f"({counter.source}) and max_tokens {answer:,}; " + _context_advice(spec, system + answer)
    )


def overflow_error(
    player: str, spec: ModelSpec, locale: str, record: ModelDecisionRecord, size: RequestSize | None
) -> PreflightError:
    """The sample — the smallest request a seat sends — was refused as longer than the
    server's context: nothing can play, so the run stops naming the context it needs."""
    message = next((a.error_message or "" for a in reversed(record.attempts) if a.error_kind), "")
    requested = _number(_REQUESTED, message)
    window = _number(_WINDOW, message)
    answer = int(spec.params.get("max_tokens") or 0)
    if requested is not None:
        needed = requested
    elif size is not None:
        needed = max(size.sample_tokens, size.reported) + answer
    else:
        needed = 0
    server = f"the server's context ({window:,} tokens)" if (window) else "the server's context"
    advice = (
        _context_advice(spec, needed)
        if needed
        else (
            "serve the model with a larger context (llama.cpp's server: --n_ctx) and set "
            "'context_tokens' in its model section"
        )
    )
    return PreflightError(
        f"preflight: {where(player, spec)}, locale {locale}: the sample decision, the smallest "
        f"request a seat sends, does not fit {server}; {advice}"
    )
