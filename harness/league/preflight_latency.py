"""The preflight's lines and warnings about each sample: valid or not, and whether the decision
timer covers the seat's requests — the sample's own latency, a request its server's prefix cache
does not hold (:func:`cold_seconds`, from the cold rate :mod:`harness.league.preflight_cold`
measures; a sample the server says it mostly read from its cache without that rate is said to be
warm), and its latency scaled to the longest request the seat may send (see
:mod:`harness.league.preflight`)."""

from __future__ import annotations

from harness.play.model_checks import where_players

from .preflight_records import ProbeResult, last_error, timer

__all__ = ["LATENCY_WARN_FRACTION", "WARM_SHARE", "cold_seconds", "summary"]

LATENCY_WARN_FRACTION = 0.5  # warn when the sample call took more than this share of the timer
WARM_SHARE = 0.5  # a sample mostly read from the server's prefix cache: its latency is warm


def cold_seconds(result: ProbeResult) -> float | None:
    """How long the sample takes when the server's prefix cache holds none of it, from the
    server's cold reading rate (:class:`~harness.league.preflight_records.ColdRead`): the
    sample's latency plus its cached tokens at that rate when the server reports them, else at
    least all its prompt tokens at that rate.  ``None`` when the rate was not measured."""
    cold, record = result.cold, result.record
    if cold is None or not record.attempts:
        return None
    tokens = record.attempts[-1].tokens
    if tokens.input <= 0:
        return None
    latency = result.call_latency_s
    if tokens.cached_input is not None:
        return latency + tokens.cached_input / cold.rate
    return max(latency, tokens.input / cold.rate)


def summary(result: ProbeResult) -> tuple[str, list[str]]:
    spec, record = result.spec, result.record
    who = where_players(result.players or (result.player,), spec)
    latency = result.call_latency_s
    head = f"preflight: {who}, locale {result.locale}, answer mode {record.answer_mode}: "
    warnings = []
    if record.fallback is None:
        line = head + f"valid answer in {latency:.2f} s (decision timer {timer(spec)})"
    elif record.fallback == "invalid_answer":
        line = head + f"answered in {latency:.2f} s but not validly"
        warnings.append(
            f"warning: {who} answered the sample decision invalidly "
            f"({last_error(record)}); its decisions may fall back"
        )
    else:
        line = head + f"no valid answer ({last_error(record)})"
        warnings.append(
            f"warning: {who}: {last_error(record)}; its decisions may "
            "fall back (check the provider limits in the config)"
        )
    cold = cold_seconds(result)
    if cold is not None and result.cold is not None:
        line += f"; cold read {result.cold.rate:,.0f} prompt tokens/s"
    if latency > LATENCY_WARN_FRACTION * spec.decision_seconds:
        warnings.append(
            f"warning: {who}: the sample call took {latency:.1f} s, "
            f"{100 * latency / spec.decision_seconds:.0f} % of the decision timer "
            f"({timer(spec)}); decisions may time out: raise decision_seconds"
        )
    elif cold is not None and result.cold is not None:
        if cold > LATENCY_WARN_FRACTION * spec.decision_seconds:
            tokens = record.attempts[-1].tokens
            warnings.append(
                f"warning: {who}, locale {result.locale}: a request the server's prefix cache "
                f"does not hold (a run's first, or any after the server restarts) reads all "
                f"{tokens.input:,} prompt tokens of the sample: at the server's cold rate "
                f"({result.cold.rate:,.0f} tokens/s, timed on a {result.cold.tokens:,}-token "
                f"request no cache holds) that takes ~{cold:.0f} s, "
                f"{100 * cold / spec.decision_seconds:.0f} % of the decision timer "
                f"({timer(spec)}); decisions may time out: raise decision_seconds"
            )
    elif (warm := result.warm_share) is not None and warm >= WARM_SHARE:
        tokens = record.attempts[-1].tokens
        warnings.append(
            f"warning: {who}, locale {result.locale}: the server read {tokens.cached_input:,} of "
            f"the sample's {tokens.input:,} prompt tokens from its prefix cache, so its "
            f"{latency:.1f} s says little about a request the cache does not hold (a run's "
            f"first, or any after the server restarts), which reads all {tokens.input:,}: "
            f"check that the decision timer ({timer(spec)}) covers that"
        )
    elif (size := result.size) is not None and latency * size.scale > spec.decision_seconds:
        longest = {
            "conversation": "the context budget, its conversation's limit",
            "log": "the sample plus the narrated feed's budget",
        }.get(size.policy, "the sample itself")
        warnings.append(
            f"warning: {who}, locale {result.locale}: the sample call took {latency:.1f} s for "
            f"~{size.sample_tokens:,} prompt tokens; the longest request its {size.policy} "
            f"history may send (~{size.longest_tokens:,} tokens: {longest}) would take "
            f"~{latency * size.scale:.0f} s at that rate, past the decision timer "
            f"({timer(spec)}): raise decision_seconds or lower context_tokens"
        )
    return line, warnings
