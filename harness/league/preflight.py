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
when its call took more than half the decision timer, or when its latency scaled to the longest
request the seat may send passes the timer, and a sample the server mostly read from its prefix
cache (a re-run preflight) is said to be warm: its latency says nothing of a cold request.  The
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
"""

from __future__ import annotations

import asyncio
import math
import re
import socket
import ssl
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, get_args
from urllib.parse import urlsplit

from pydantic import ValidationError

from harness.agents.answer_budget import answer_budget_warning
from harness.agents.decision_record import ANSWERED_KINDS, ModelDecisionRecord
from harness.agents.llm_agent import FatalModelError
from harness.agents.model_spec import ModelSpec
from harness.agents.providers.provider_contract import AnswerMode
from harness.play.ledger import SPEND_FILE, SpendLedger, SpendLine, now_utc
from harness.play.model_seats import seat_spec

from .league_config import LeagueConfig
from .runner import CONFIG_FILE

__all__ = [
    "LATENCY_WARN_FRACTION",
    "PreflightError",
    "PreflightReport",
    "ProbeResult",
    "RequestSize",
    "diagnose_url",
    "preflight",
    "record_spend",
    "context_needed",
    "request_size",
    "spend_lines",
    "where",
]

LATENCY_WARN_FRACTION = 0.5  # warn when the sample call took more than this share of the timer
WARM_SHARE = 0.5  # a sample mostly read from the server's prefix cache: its latency is warm
PROBE_RETRIES = 1  # one retry after a transient error: a closed port fails fast
PROBE_BACKOFF_S = 0.25
CONNECT_TIMEOUT_S = 5.0
# The order in which other answer modes are tried when the configured one is rejected.
MODE_ORDER: tuple[AnswerMode, ...] = get_args(AnswerMode)
DEFAULT_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
MODE_REJECTED = frozenset({"server_error", "bad_response"})
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


class PreflightError(Exception):
    """The run must not start; the message is one line.  ``spend``: the calls made before."""

    spend: list[SpendLine]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.spend = []


@dataclass(frozen=True)
class RequestSize:
    """The sample request's size and the longest request the seat may send, in tokens counted
    with the seat's own counter (``reported``: the server's count of the sample, 0 if none)."""

    sample_tokens: int
    longest_tokens: int
    policy: str
    reported: int = 0

    @property
    def scale(self) -> float:
        """How many times longer than the sample the longest request is."""
        return self.longest_tokens / self.sample_tokens if self.sample_tokens else 1.0


@dataclass(frozen=True)
class ProbeResult:
    """What the sample decision of one model player's (spec, locale) pair gave; ``asked`` is
    false for a player whose pair an earlier player's sample answered."""

    player: str
    spec: ModelSpec
    record: ModelDecisionRecord
    locale: str = "en"
    players: tuple[str, ...] = ()  # every player of the pair (asked results)
    asked: bool = True
    size: RequestSize | None = None

    @property
    def call_latency_s(self) -> float:
        """The last call's latency (the one that answered), else the decision's."""
        if self.record.attempts:
            return self.record.attempts[-1].latency_s
        return self.record.latency_s

    @property
    def warm_share(self) -> float | None:
        """The share of the answering call's prompt tokens the server reported as read from its
        prefix cache (``None`` when it reported none, or no call answered)."""
        if not self.record.attempts:
            return None
        tokens = self.record.attempts[-1].tokens
        if tokens.cached_input is None or tokens.input <= 0:
            return None
        return tokens.cached_input / tokens.input


@dataclass
class PreflightReport:
    """The lines to show once every model passed (one per model, then warnings)."""

    results: list[ProbeResult] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    spend: list[SpendLine] = field(default_factory=list)  # one ledger line per call made


def where(player: str, spec: ModelSpec) -> str:
    """``player X (openai model 'm' at http://...)`` — who a preflight line is about."""
    url = spec.base_url or f"the provider's default URL{_default_hint(spec)}"
    return f"player {player} ({spec.provider} model {spec.model!r} at {url})"


def _who(players: Sequence[str], spec: ModelSpec) -> str:
    """:func:`where` for every player that shares one sample."""
    if len(players) <= 1:
        return where(players[0] if players else "?", spec)
    return where(players[0], spec).replace(
        f"player {players[0]} ", f"players {', '.join(players)} ", 1
    )


def _default_hint(spec: ModelSpec) -> str:
    url = DEFAULT_URLS.get(spec.provider)
    return f" {url}" if url else ""


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


# ------------------------------------------------------------------------------ static checks


def check_price(player: str, spec: ModelSpec, config: LeagueConfig) -> str | None:
    """A warning when the price is unknown; :class:`PreflightError` when a dollar cap is set."""
    if spec.price_book().price(spec.model, spec.provider) is not None:
        return None
    if config.spending.max_usd is not None:
        raise PreflightError(
            f"preflight: {where(player, spec)}: unknown price, so the dollar cap cannot be "
            "enforced; add 'price: {input: …, output: …}' ($ per million tokens) to its model "
            "section"
        )
    return (
        f"warning: {where(player, spec)}: unknown price; its cost will be recorded as unknown "
        "(add 'price' to the model section)"
    )


def check_key(player: str, spec: ModelSpec) -> None:
    """LiteLLM model strings read their key from the vendor's variables: check them up front.

    (The openai and anthropic adapters check their key when they are built.)"""
    if spec.provider != "litellm" or spec.api_key_env is not None or spec.base_url is not None:
        return
    from harness.agents.providers.litellm_provider import import_litellm

    try:
        env = import_litellm().validate_environment(model=spec.model)
    except Exception:  # an unknown model string: the sample call will say more
        return
    missing = [k for k in env.get("missing_keys") or [] if isinstance(k, str)]
    if not env.get("keys_in_environment", True) and missing:
        names = " or ".join(missing)
        raise PreflightError(
            f"preflight: {where(player, spec)}: no API key: set the environment variable {names}"
        )


# ------------------------------------------------------------------------------ network checks


def diagnose_url(url: str, timeout: float = CONNECT_TIMEOUT_S) -> str | None:
    """Why ``url`` cannot be reached (DNS lookup, TCP connection, TLS handshake), or ``None``
    when a connection can be made."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        return f"{url} has no host"
    secure = parts.scheme == "https"
    try:
        port = parts.port or (443 if secure else 80)
    except ValueError:
        return f"{url} has an invalid port"
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        return f"DNS lookup of {host} failed ({e.strerror or e})"
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        return f"connection refused at {host}:{port}"
    except TimeoutError:
        return f"no connection to {host}:{port} within {timeout:g} s"
    except OSError as e:
        return f"cannot connect to {host}:{port} ({e.strerror or e})"
    try:
        if secure:
            context = ssl.create_default_context()
            try:
                with context.wrap_socket(sock, server_hostname=host):
                    pass
            except (ssl.SSLError, ssl.CertificateError) as e:
                reason = getattr(e, "reason", None) or str(e)
                return f"TLS handshake with {host}:{port} failed ({reason})"
            except OSError as e:
                return f"TLS handshake with {host}:{port} failed ({e.strerror or e})"
    finally:
        sock.close()
    return None


def spend_lines(player: str, spec: ModelSpec, record: ModelDecisionRecord) -> list[SpendLine]:
    """One preflight ledger line per call of ``record`` (cache hits cost nothing)."""
    out = []
    prices = spec.price_book()
    for a in record.attempts:
        if a.cached:
            continue
        failed = a.error_kind is not None and a.error_kind not in ANSWERED_KINDS
        line = SpendLine(
            at=now_utc(),
            player=player,
            provider=spec.provider,
            model=spec.model,
            outcome="failed" if failed else "answered",
            error_kind=a.error_kind if failed else None,
            latency_s=round(a.latency_s, 6),
            input_tokens=a.tokens.input,
            cached_input_tokens=a.tokens.cached_input,
            output_tokens=a.tokens.output,
            reasoning_tokens=a.tokens.reasoning,
            purpose="preflight",
            finish_reason=a.finish_reason,
        )
        line.price(prices)
        out.append(line)
    return out


def request_size(seat: Any, record: ModelDecisionRecord) -> RequestSize | None:
    """The sample's request size and the longest request ``seat`` may send (see the module
    docstring), or ``None`` when the seat's conversation does not count tokens."""
    conv = getattr(getattr(seat, "llm", None), "conversation", None)
    count = getattr(conv, "tokens", None)
    if conv is None or count is None or not record.messages:
        return None
    sample = int(count(conv.system())) + int(count(record.messages[0]["content"]))
    policy = str(getattr(conv, "policy", None) or "conversation")
    budget = getattr(conv, "context_tokens", None)
    room = budget - int(getattr(conv, "reserve_tokens", 0)) if budget else None
    if policy == "conversation":
        longest = room if room is not None else sample
    elif policy == "log":
        longest = sample + int(getattr(conv, "log_feed_tokens", 0))
        longest = min(longest, room) if room is not None else longest
    else:
        longest = sample
    first = record.attempts[0].tokens.input if record.attempts else 0
    return RequestSize(sample, max(sample, longest), policy, int(first or 0))


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


def _last_error(record: ModelDecisionRecord) -> str:
    for a in reversed(record.attempts):
        if a.error_kind:
            return f"{a.error_kind}: {a.error_message}" if a.error_message else a.error_kind
    return "no call was made"


def _timer(spec: ModelSpec) -> str:
    return f"{spec.decision_seconds:g} s"


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
    system = request_tokens(counter, [system_prompt_text(locale, signals)])
    answer = int(spec.params.get("max_tokens") or 0)
    if system + answer <= spec.context_tokens:
        return
    raise PreflightError(
        f"preflight: {where(player, spec)}, locale {locale}: the smallest request cannot fit "
        f"context_tokens {spec.context_tokens:,}: its system prompt alone is {system:,} tokens "
        f"({counter.source}) and max_tokens {answer:,}; " + _context_advice(spec, system + answer)
    )


def _overflow_error(
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


async def _check_model(
    player: str, spec: ModelSpec, config: LeagueConfig, locale: str, spend: list[SpendLine]
) -> ProbeResult:
    check_context(player, spec, locale, config.signals)
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
    result = ProbeResult(player, spec, record, locale, (player,), True, size)
    if record.fallback == "context_overflow":
        raise _overflow_error(player, spec, locale, record, size)
    if record.fallback is None or record.fallback == "invalid_answer":
        return result
    kinds = {a.error_kind for a in record.attempts if a.error_kind}
    error = _last_error(record)
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
            f"({_timer(spec)}; {error}): raise decision_seconds or check the server"
        )
    return result  # rate limited: a warning


def _summary(result: ProbeResult) -> tuple[str, list[str]]:
    spec, record = result.spec, result.record
    who = _who(result.players or (result.player,), spec)
    latency = result.call_latency_s
    head = f"preflight: {who}, locale {result.locale}, answer mode {record.answer_mode}: "
    warnings = []
    if record.fallback is None:
        line = head + f"valid answer in {latency:.2f} s (decision timer {_timer(spec)})"
    elif record.fallback == "invalid_answer":
        line = head + f"answered in {latency:.2f} s but not validly"
        warnings.append(
            f"warning: {who} answered the sample decision invalidly "
            f"({_last_error(record)}); its decisions may fall back"
        )
    else:
        line = head + f"no valid answer ({_last_error(record)})"
        warnings.append(
            f"warning: {who}: {_last_error(record)}; its decisions may "
            "fall back (check the provider limits in the config)"
        )
    if latency > LATENCY_WARN_FRACTION * spec.decision_seconds:
        warnings.append(
            f"warning: {who}: the sample call took {latency:.1f} s, "
            f"{100 * latency / spec.decision_seconds:.0f} % of the decision timer "
            f"({_timer(spec)}); decisions may time out: raise decision_seconds"
        )
    elif (warm := result.warm_share) is not None and warm >= WARM_SHARE:
        tokens = record.attempts[-1].tokens
        warnings.append(
            f"warning: {who}, locale {result.locale}: the server read {tokens.cached_input:,} of "
            f"the sample's {tokens.input:,} prompt tokens from its prefix cache, so its "
            f"{latency:.1f} s says little about a request the cache does not hold (a run's "
            f"first, or any after the server restarts), which reads all {tokens.input:,}: "
            f"check that the decision timer ({_timer(spec)}) covers that"
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
            f"({_timer(spec)}): raise decision_seconds or lower context_tokens"
        )
    return line, warnings


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


def record_spend(run_dir: Path, spend: Sequence[SpendLine]) -> None:
    """Append the preflight's ``spend`` to the ledger of the run folder ``run_dir`` (when it has
    one: a run being resumed whose preflight failed)."""
    if not spend or not (run_dir / CONFIG_FILE).exists():
        return
    ledger = SpendLedger(run_dir / SPEND_FILE)
    try:
        for line in spend:
            ledger.add(line)
    finally:
        ledger.close()


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
        warning = check_price(p.name, spec, config)
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
        line, warnings = _summary(result)
        report.lines.append(line)
        report.warnings += warnings
    return report
