"""Preflight of a league run: one real sample decision per model player, before any game.

``league run`` calls :func:`preflight` before it creates the run folder.  For every distinct
(model spec, locale) pair of the config's model players — one sample per pair, asked with its real
system prompt in that locale, at the config's largest table — it checks, in this order, and stops at the first problem with one line
(:class:`PreflightError`, exit code 2) naming the player, provider, model and ``base_url``:

1. a price is known (config ``price:`` or LiteLLM's map) when a dollar cap is set;
2. the API key is there (the provider's own check; for LiteLLM model strings without ``base_url``
   LiteLLM's list of the variables that model needs);
3. the sample decision of ``bangarena ask`` (:func:`harness.agents.sample_decision.sample_decision` and
   :func:`harness.agents.sample_decision.ask`, with the league's seat settings) gets a valid answer:

   * a connection error → "server unreachable", with the cause found by connecting to the URL
     (DNS lookup, connection refused, TLS handshake);
   * HTTP 401/403 → key rejected; 404 → unknown model (the provider's fatal errors);
   * a server error or a rejected request in the configured answer mode (llama-cpp-python answers
     ``json_schema`` with HTTP 500) → the same sample in the provider's other answer modes, and the
     message names the first that answered validly;
   * no answer within the decision timer → stop.

A ``max_tokens`` too small for the longest answer the answer format allows in the player's locale
(:mod:`harness.agents.answer_budget`), an invalid answer, a rate limit or a slow answer are
warnings: the run can go on, and the report will count and flag what follows.  A sample is slow
when its call took more than half the decision timer, when a request the server's prefix cache
does not hold would (timed from the server's cold reading rate, :mod:`harness.league.preflight_cold`:
a llama.cpp server's cached prefix is displaced before the sample, so the sample is read cold; a
server that reports cached tokens is timed after a sample it mostly read from its cache), or when
its latency scaled to the longest request the seat may send passes the timer.  The
sample is the seat's first request (system prompt
+ game message + decision) and the longest is, by history policy, the context budget
(``conversation``: the transcript is compacted only beyond it), the sample plus the narrated
feed's budget (``log``) or the sample itself (``since_last``), all counted with the seat's own
token counter in that locale (:class:`RequestSize`).  One line is printed per pair actually asked,
naming every player it answers for, its locale and latency.

The preflight's calls are not part of the run's game records, but they are real spend: every call
(with the tokens and cost its decision record reports) becomes a ledger line of
:mod:`harness.play.ledger` (``game_id`` null, ``purpose: "preflight"``) in
:attr:`PreflightReport.spend` (and :attr:`PreflightError.spend`), which ``league run`` writes to
the run's ``spend.jsonl`` when it opens the run folder, so the spending caps count them.

By job: :mod:`~harness.play.model_checks` (the checks that ask no model, and who a line is
about: on the play floor, as seating any model player needs them),
:mod:`~harness.league.preflight_context` (whether the smallest request fits the context),
:mod:`~harness.league.preflight_cold` (the cold reading rate), :mod:`~harness.league.preflight_latency`
(each sample's line and warnings), :mod:`~harness.league.preflight_records` (the results, the stop
and the ledger lines); this module asks the samples and runs the checks in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import get_args

from pydantic import ValidationError

from harness.agents.answer_budget import answer_budget_warning
from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.llm_agent import FatalModelError
from harness.agents.model_spec import ModelSpec
from harness.agents.providers.provider_contract import AnswerMode
from harness.play.ledger import SpendLine
from harness.play.model_checks import DEFAULT_URLS, check_key, check_price, diagnose_url, where
from harness.play.model_seats import seat_spec

from .league_config import LeagueConfig
from .preflight_cold import cold_read, holds_one_prefix
from .preflight_context import check_context, context_needed, overflow_error
from .preflight_latency import LATENCY_WARN_FRACTION, WARM_SHARE, summary
from .preflight_records import (
    ColdRead,
    PreflightError,
    PreflightReport,
    ProbeResult,
    RequestSize,
    last_error,
    record_spend,
    request_size,
    spend_lines,
    timer,
)

__all__ = [
    "LATENCY_WARN_FRACTION",
    "PreflightError",
    "PreflightReport",
    "ProbeResult",
    "RequestSize",
    "check_key",
    "check_price",
    "context_needed",
    "diagnose_url",
    "preflight",
    "record_spend",
    "request_size",
    "spend_lines",
    "where",
]

PROBE_RETRIES = 1  # one retry after a transient error: a closed port fails fast
PROBE_BACKOFF_S = 0.25
# The order in which other answer modes are tried when the configured one is rejected.
MODE_ORDER: tuple[AnswerMode, ...] = get_args(AnswerMode)
MODE_REJECTED = frozenset({"server_error", "bad_response"})


def _probe_spec(config: LeagueConfig, spec: ModelSpec) -> ModelSpec:
    """The seat's spec as the league uses it, asking the server itself (no response cache)
    and giving up quickly on a dead endpoint."""
    seat = seat_spec(config, spec)
    return seat.model_copy(
        update={
            "cache_dir": None,
            "retry_budget": min(seat.retry_budget, PROBE_RETRIES),
            "backoff": min(seat.backoff, PROBE_BACKOFF_S),
        }
    )


async def _ask(
    player: str, spec: ModelSpec, config: LeagueConfig, locale: str, spend: list[SpendLine]
) -> tuple[ModelDecisionRecord, RequestSize | None]:
    """The ``bangarena ask`` sample decision for ``spec`` in ``locale`` at the config's largest
    table (the longest game message); its calls are added to ``spend``."""
    from harness.agents.sample_decision import ask_seat, sample_decision
    from harness.views.names import default_names

    seats = max(n for t in config.tables for n in t.seats)
    sample = sample_decision(config.base_seed, seats)
    record, _system, seat = await ask_seat(spec, sample, default_names(seats), locale)
    spend += spend_lines(player, spec, record)
    return record, request_size(seat, record)


async def _cold_read(
    player: str, spec: ModelSpec, locale: str, spend: list[SpendLine]
) -> ColdRead | None:
    """:func:`harness.league.preflight_cold.cold_read` with the seat's system prompt."""
    from harness.agents.model_spec import counter_for
    from harness.views.prompts import system_prompt_text
    from harness.views.tokens import TokenizerError, request_tokens

    system = system_prompt_text(locale, False, spec.rules)
    try:
        tokens = await asyncio.to_thread(request_tokens, counter_for(spec), [system])
    except TokenizerError:
        return None
    return await cold_read(player, spec, system, tokens, spend)


async def _working_mode(
    player: str, spec: ModelSpec, config: LeagueConfig, locale: str, spend: list[SpendLine]
) -> AnswerMode | None:
    """The first other answer mode of the provider in which the sample gets a valid answer."""
    current = spec.effective_answer_mode()
    for mode in MODE_ORDER:
        if mode == current:
            continue
        try:  # the spec's own validation says which modes the provider supports
            alt = ModelSpec.model_validate({**spec.model_dump(), "answer_mode": mode})
        except ValidationError:
            continue
        try:
            record, _ = await _ask(player, alt, config, locale, spend)
        except FatalModelError:
            continue
        if record.fallback is None:
            return mode
    return None


async def _mode_message(
    player: str,
    spec: ModelSpec,
    config: LeagueConfig,
    locale: str,
    error: str,
    spend: list[SpendLine],
) -> PreflightError:
    mode = spec.effective_answer_mode()
    works = await _working_mode(player, spec, config, locale, spend)
    if works is not None:
        return PreflightError(
            f"preflight: {where(player, spec)}: the server rejects answer mode {mode} ({error}); "
            f"answer mode {works} works: set 'answer_mode: {works}' in its model section"
        )
    return PreflightError(
        f"preflight: {where(player, spec)}: the server fails the sample decision in answer mode "
        f"{mode} and in every other mode it was tried in ({error})"
    )


async def _check_model(
    player: str, spec: ModelSpec, config: LeagueConfig, locale: str, spend: list[SpendLine]
) -> ProbeResult:
    check_context(player, spec, locale, config.signals)
    cold = None
    if await asyncio.to_thread(holds_one_prefix, spec):  # displace its cached prefix first
        cold = await _cold_read(player, spec, locale, spend)
    try:
        record, size = await _ask(player, spec, config, locale, spend)
    except FatalModelError as e:
        cause = getattr(e.cause, "kind", "")
        if cause == "bad_request":  # some servers reject an unsupported answer mode with a 400
            raise await _mode_message(player, spec, config, locale, str(e), spend) from None
        raise PreflightError(f"preflight: {where(player, spec)}: {e}") from None
    except ImportError as e:
        raise PreflightError(
            f"preflight: {where(player, spec)}: provider unavailable: {e}"
        ) from None
    result = ProbeResult(player, spec, record, locale, (player,), True, size, cold)
    if record.fallback == "context_overflow":
        raise overflow_error(player, spec, locale, record, size)
    if record.fallback is None or record.fallback == "invalid_answer":
        if cold is None and (warm := result.warm_share) is not None and warm >= WARM_SHARE:
            result = replace(result, cold=await _cold_read(player, spec, locale, spend))
        return result
    kinds = {a.error_kind for a in record.attempts if a.error_kind}
    error = last_error(record)
    if kinds and kinds <= {"connection_error"}:
        url = spec.base_url or DEFAULT_URLS.get(spec.provider)
        cause = await asyncio.to_thread(diagnose_url, url) if url else None
        raise PreflightError(
            f"preflight: {where(player, spec)}: server unreachable: {cause or error}"
        )
    if kinds & MODE_REJECTED:
        raise await _mode_message(player, spec, config, locale, error, spend)
    if record.fallback == "timeout" and "rate_limit" not in kinds:
        raise PreflightError(
            f"preflight: {where(player, spec)}: no answer within the decision timer "
            f"({timer(spec)}; {error}): raise decision_seconds or check the server"
        )
    return result  # rate limited: a warning


async def _run(
    checks: Sequence[tuple[str, ModelSpec, str]], config: LeagueConfig, spend: list[SpendLine]
) -> list[ProbeResult]:
    """One result per player; one sample per distinct (spec, locale)."""
    out: list[ProbeResult] = []
    done: dict[tuple[str, str], ProbeResult] = {}
    sharing: dict[tuple[str, str], list[str]] = {}
    for player, spec, locale in checks:
        key = (spec.model_dump_json(), locale)
        sharing.setdefault(key, []).append(player)
        if key in done:  # the same model, settings, server and language: one sample is enough
            first = done[key]
            out.append(ProbeResult(player, spec, first.record, locale, asked=False))
            continue
        try:
            result = await _check_model(player, spec, config, locale, spend)
        except PreflightError as e:
            e.spend = spend
            raise
        done[key] = result
        out.append(result)
    return [
        replace(r, players=tuple(sharing[(r.spec.model_dump_json(), r.locale)])) if r.asked else r
        for r in out
    ]


def preflight(config: LeagueConfig, *, network: bool = True) -> PreflightReport:
    """Check every model player of ``config`` (see the module docstring).

    Raises :class:`PreflightError` (one line) at the first problem.  ``network=False`` keeps the
    checks that need no server (price with a dollar cap, LiteLLM keys): ``league run
    --no-preflight`` still refuses a dollar cap it cannot enforce.
    """
    report = PreflightReport()
    checks: list[tuple[str, ModelSpec, str]] = []
    for p in config.players:
        if p.model is None:
            continue
        spec = _probe_spec(config, p.model)
        warning = check_price(p.name, spec, config.spending)
        if warning:
            report.warnings.append(warning)
        checks.append((p.name, spec, config.locale_of(p.name)))
    if not network or not checks:
        return report
    for player, spec, locale in checks:
        check_key(player, spec)
        budget = answer_budget_warning(where(player, spec), spec.provider, spec.model,
                                       spec.params, locale)  # fmt: skip
        if budget:
            report.warnings.append(budget)
    report.results = asyncio.run(_run(checks, config, report.spend))
    for result in report.results:
        if not result.asked:
            continue
        line, warnings = summary(result)
        report.lines.append(line)
        report.warnings += warnings
    return report
