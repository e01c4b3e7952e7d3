"""The checks on seating a model player that ask no model: who a line is about (:func:`where`),
a known price when a dollar cap is set (:func:`check_price`), a LiteLLM model's API key
(:func:`check_key`) and why a server cannot be reached (:func:`diagnose_url`: DNS lookup,
connection, TLS handshake); the one-line stop they raise (:class:`PreflightError`).
The league's preflight (:mod:`harness.league.preflight`), the web table's spending caps
(:mod:`harness.web.spending`) and the quiz (:mod:`harness.quiz.run`) run them."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Sequence
from urllib.parse import urlsplit

from harness.agents.model_spec import ModelSpec

from .ledger import SpendLine
from .players import SpendingCaps

__all__ = [
    "CONNECT_TIMEOUT_S",
    "DEFAULT_URLS",
    "PreflightError",
    "check_key",
    "check_price",
    "diagnose_url",
    "where",
    "where_players",
]

CONNECT_TIMEOUT_S = 5.0
DEFAULT_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}


class PreflightError(Exception):
    """The run must not start; the message is one line.  ``spend``: the calls made before."""

    spend: list[SpendLine]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.spend = []


def where(player: str, spec: ModelSpec) -> str:
    """``player X (openai model 'm' at http://...)`` — who a preflight line is about."""
    url = spec.base_url or f"the provider's default URL{_default_hint(spec)}"
    return f"player {player} ({spec.provider} model {spec.model!r} at {url})"


def where_players(players: Sequence[str], spec: ModelSpec) -> str:
    """:func:`where` for every player that shares one sample."""
    if len(players) <= 1:
        return where(players[0] if players else "?", spec)
    return where(players[0], spec).replace(
        f"player {players[0]} ", f"players {', '.join(players)} ", 1
    )


def _default_hint(spec: ModelSpec) -> str:
    url = DEFAULT_URLS.get(spec.provider)
    return f" {url}" if url else ""


# ------------------------------------------------------------------------------ static checks


def check_price(player: str, spec: ModelSpec, caps: SpendingCaps) -> str | None:
    """A warning when the price is unknown; :class:`PreflightError` when a dollar cap is set
    (``caps``: the run's spending caps)."""
    if spec.price_book().price(spec.model, spec.provider) is not None:
        return None
    if caps.max_usd is not None:
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
