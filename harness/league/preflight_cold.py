"""The server's cold reading rate: a short request no prefix cache can hold.

A preflight whose sample the server read from its prefix cache (a re-run preflight: 53 s for a
request that took 626 s cold) says nothing of a request the cache does not hold — a run's first,
or any after the server restarts.  :func:`cold_read` sends the first ~:data:`COLD_TOKENS` tokens of
the seat's system prompt behind a random first line (so no cached prefix matches), asking for one
token, and times it: the server's cold rate of reading prompt tokens.  From it
:func:`harness.league.preflight_latency.summary` estimates how long the whole sample takes cold.

When the seat counts with a llama.cpp server's tokenize endpoint (:func:`holds_one_prefix`), the
preflight sends it *before* the sample: such a server keeps one cached prefix per slot and does
not say how many prompt tokens it read from it, so the cold request displaces a prefix an earlier
run left there and the sample that follows is read cold (and stays cached for the run's first
game).  Other servers report their cached tokens; for them the preflight measures the rate after
a sample they mostly read from their cache.  The call is real spend: a ``preflight`` ledger line.
"""

from __future__ import annotations

import time
import uuid

from harness.agents.model_spec import ModelSpec, build_provider
from harness.agents.providers.provider_contract import ProviderRequest
from harness.agents.providers.provider_errors import ProviderError
from harness.play.ledger import SpendLine, now_utc

from .preflight_records import ColdRead

__all__ = ["COLD_TOKENS", "cold_read", "holds_one_prefix"]

COLD_TOKENS = 512  # the cold request's size: long enough to time, short enough to cost little
COLD_QUESTION = "Say OK."


def holds_one_prefix(spec: ModelSpec) -> bool:
    """Whether the seat counts with a llama.cpp server's tokenize endpoint (llama.cpp's
    ``/tokenize``, llama-cpp-python's ``/extras/tokenize``): a server that keeps one cached
    prefix per slot and reports no cached tokens."""
    from harness.agents.model_spec import counter_for
    from harness.views.tokens import TokenizerError

    try:
        return counter_for(spec).source.startswith("server ")
    except TokenizerError:
        return False


def cold_text(system: str, system_tokens: int, tokens: int = COLD_TOKENS) -> str:
    """A random first line, then the first ~``tokens`` tokens' worth of ``system`` (whose
    length is ``system_tokens``): a prompt no prefix cache holds."""
    share = min(1.0, tokens / system_tokens) if system_tokens > 0 else 1.0
    return f"{uuid.uuid4().hex}\n{system[: max(200, int(len(system) * share))]}"


async def cold_read(
    player: str, spec: ModelSpec, system: str, system_tokens: int, spend: list[SpendLine]
) -> ColdRead | None:
    """Time one request of :func:`cold_text` at the server of ``spec`` (one answer token);
    its call is added to ``spend``.  ``None`` when it failed or the server counted no tokens."""
    try:
        provider = build_provider(spec)
    except Exception:  # no key: the sample that follows says so in one line
        return None
    request = ProviderRequest(
        model=spec.model,
        system=cold_text(system, system_tokens),
        messages=[{"role": "user", "content": COLD_QUESTION}],
        answer_mode=spec.effective_answer_mode(),
        option_ids=("ok",),
        params={**spec.params, "max_tokens": 1},
        timeout=spec.decision_seconds,
    )
    started = time.monotonic()
    try:
        reply = await provider.complete(request)
    except (ProviderError, TimeoutError) as e:
        spend.append(
            SpendLine(
                at=now_utc(),
                player=player,
                provider=spec.provider,
                model=spec.model,
                outcome="failed",
                error_kind=getattr(e, "kind", "timeout"),
                latency_s=round(time.monotonic() - started, 6),
                input_tokens=None,
                output_tokens=None,
                reasoning_tokens=None,
                cost_usd=None,
                purpose="preflight",
            )  # fmt: skip
        )
        return None
    finally:
        await provider.aclose()
    latency = time.monotonic() - started
    line = SpendLine(
        at=now_utc(),
        player=player,
        provider=spec.provider,
        model=spec.model,
        outcome="answered",
        latency_s=round(latency, 6),
        input_tokens=reply.input_tokens,
        cached_input_tokens=reply.cached_input_tokens,
        output_tokens=reply.output_tokens,
        reasoning_tokens=reply.reasoning_tokens,
        purpose="preflight",
        finish_reason=reply.finish_reason,
    )
    line.price(spec.price_book())
    spend.append(line)
    read = reply.input_tokens - (reply.cached_input_tokens or 0)
    if read <= 0:  # no count, or a server that says it held even a random prefix: no rate
        return None
    return ColdRead(read, latency)
