"""Provider-neutral errors.

Every provider adapter translates its SDK's exceptions into these classes, so the shared
:class:`~harness.agents.llm_agent.LLMAgent` handles retries, fallbacks and fatal stops once.

Transient (the agent retries them within its budget and deadline):
    :class:`RateLimited`, :class:`ServerError`, :class:`ConnectionFailed`, :class:`ProviderTimeout`,
    :class:`BadResponse` (an HTTP 200 whose body is not the vendor's answer).
Fatal (the agent raises ``harness.agents.llm_agent.FatalModelError``; never a fallback):
    :class:`AuthenticationFailed`, :class:`UnknownModel`, :class:`BadRequest`.
Neither: :class:`ContextOverflow` (the request is longer than the model's context; the agent
    compacts the seat's history and asks once more, then falls back with reason
    ``context_overflow``).
"""

from __future__ import annotations

import email.utils
import importlib
import re
import time
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

__all__ = [
    "AuthenticationFailed",
    "BadRequest",
    "BadResponse",
    "ConnectionFailed",
    "ContextOverflow",
    "FatalProviderError",
    "ProviderError",
    "ProviderTimeout",
    "RateLimited",
    "ServerError",
    "TransientKind",
    "TransientProviderError",
    "error_from_status",
    "exception_chain",
    "is_context_overflow",
    "parse_retry_after",
    "transport_failure",
]


class ProviderError(Exception):
    """Base of every error a provider adapter raises.

    ``kind`` is the short label stored in decision records (``Attempt.error_kind``).
    """

    kind: ClassVar[str] = "provider_error"
    fatal: ClassVar[bool] = False

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


TransientKind = Literal["rate_limit", "server_error", "connection_error", "timeout", "bad_response"]


class TransientProviderError(ProviderError):
    """An error worth retrying (after a back-off)."""

    kind: ClassVar[TransientKind] = "server_error"


class RateLimited(TransientProviderError):
    """HTTP 429 (or a vendor 'overloaded' answer); ``retry_after`` in seconds when the server said."""

    kind = "rate_limit"

    def __init__(
        self, message: str, *, retry_after: float | None = None, status: int | None = 429
    ) -> None:
        super().__init__(message, status=status)
        self.retry_after = retry_after


class ServerError(TransientProviderError):
    """HTTP 5xx (or another server-side failure such as an unreadable response body)."""

    kind = "server_error"


class ConnectionFailed(TransientProviderError):
    """The connection could not be made or was dropped before a response arrived."""

    kind = "connection_error"


class ProviderTimeout(TransientProviderError):
    """The request did not complete within its timeout."""

    kind = "timeout"


class BadResponse(TransientProviderError):
    """A success status whose body is not the vendor's answer: not JSON (truncated, an HTML page),
    a non-JSON content type, an event stream that was not asked for, or missing / mistyped fields.
    Retried like a 5xx; the message is one short line (never the whole body).
    """

    kind = "bad_response"


class ContextOverflow(ProviderError):
    """The server refused the request as longer than the model's context window (an
    OpenAI-compatible 400 ``context_length_exceeded``, llama.cpp's "exceeds the available context
    size", Anthropic's "prompt is too long", LiteLLM's ``ContextWindowExceededError``).  Not
    fatal and not retried as it is: the request must get shorter first."""

    kind = "context_overflow"


# How servers word a request longer than the context (matched case-insensitively).
_CONTEXT_OVERFLOW = re.compile(
    r"context[ _-]length|maximum context|context[ _-]window|n_ctx|available context size"
    r"|prompt is too long|input is too long|too many tokens in the prompt",
    re.IGNORECASE,
)


def is_context_overflow(message: str, code: str | None = None) -> bool:
    """Whether an error's message (or its vendor ``code``) says the request exceeds the context."""
    if code and _CONTEXT_OVERFLOW.search(str(code)):
        return True
    return bool(_CONTEXT_OVERFLOW.search(message or ""))


class FatalProviderError(ProviderError):
    """A configuration problem that no retry can fix."""

    fatal = True


class AuthenticationFailed(FatalProviderError):
    """HTTP 401/403, or no API key configured."""

    kind = "authentication_failed"


class UnknownModel(FatalProviderError):
    """HTTP 404: the model (or endpoint) does not exist."""

    kind = "unknown_model"


class BadRequest(FatalProviderError):
    """HTTP 400/422 and other client errors: the request itself is wrong."""

    kind = "bad_request"


def parse_retry_after(
    headers: Mapping[str, Any] | None, *, now: float | None = None
) -> float | None:
    """Seconds to wait from ``retry-after-ms`` / ``retry-after`` headers (delta or HTTP date).

    Returns ``None`` when absent or unreadable; never negative.
    """
    if not headers:
        return None
    lowered = {str(k).lower(): v for k, v in headers.items()}
    ms = lowered.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except (TypeError, ValueError):
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        pass
    try:
        when = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def error_from_status(
    status: int, message: str, headers: Mapping[str, Any] | None = None
) -> ProviderError:
    """Map an HTTP status (plus headers) to the provider-neutral error class; a 400, 413, 422 or
    5xx whose message says the request exceeds the context is :class:`ContextOverflow`."""
    if (status in (400, 413, 422) or status >= 500) and is_context_overflow(message):
        return ContextOverflow(message, status=status)
    if status == 429:
        return RateLimited(message, retry_after=parse_retry_after(headers), status=status)
    if status in (401, 403):
        return AuthenticationFailed(message, status=status)
    if status == 404:
        return UnknownModel(message, status=status)
    if status == 529:  # Anthropic "overloaded"
        return RateLimited(message, retry_after=parse_retry_after(headers), status=status)
    if status >= 500 or status in (408, 409):
        return ServerError(message, status=status)
    return BadRequest(message, status=status)


def exception_chain(exc: BaseException, limit: int = 8) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from (``__cause__`` / ``__context__``)."""
    links: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(links) < limit:
        links.append(current)
        current = current.__cause__ or current.__context__
    return links


def _transport_error_types() -> tuple[
    tuple[type[BaseException], ...], tuple[type[BaseException], ...]
]:
    """(timeout types, connection-failure types) of the HTTP clients present (``httpx`` for
    LiteLLM, ``httpx2`` for the vendor SDKs) and the standard library."""
    timeouts: list[type[BaseException]] = [TimeoutError]
    connection: list[type[BaseException]] = [ConnectionError]
    for name in ("httpx", "httpx2"):
        try:
            client = importlib.import_module(name)
        except ImportError:
            continue
        timeouts.append(client.TimeoutException)
        connection.append(client.TransportError)
    return tuple(timeouts), tuple(connection)


def transport_failure(exc: BaseException, message: str | None = None) -> ProviderError | None:
    """``ProviderTimeout`` / ``ConnectionFailed`` when an HTTP-client or socket error is in
    ``exc``'s chain (the request or its body never fully arrived), else ``None``."""
    text = message if message is not None else str(exc)
    timeouts, connection_errors = _transport_error_types()
    for link in exception_chain(exc):
        if isinstance(link, timeouts):
            return ProviderTimeout(text)
        if isinstance(link, connection_errors):
            return ConnectionFailed(text)
    return None
