"""Keeping API keys out of everything the harness writes or prints.

:func:`redact` replaces, in any text about to leave the process (error messages, records, logs,
reports, terminal output):

* the value of every environment variable that holds an API key: the variables named by model
  specs (``api_key_env``, registered with :func:`register_key_env` when a provider reads its key),
  the providers' usual variables, and any variable whose name says it holds a secret
  (``*_API_KEY``, ``*_KEY``, ``*_TOKEN``, ``*_SECRET``, ``*_PASSWORD``);
* anything shaped like a key: ``sk-…`` / ``sk-ant-…`` strings, ``Bearer …`` tokens and long
  key-like values after ``key=`` / ``api_key:`` / ``token=`` / ``x-api-key:`` and the like.

The replacement :data:`REDACTED` contains no quote or backslash, so redacting a JSON line keeps
it valid JSON.  Values shorter than :data:`MIN_SECRET_CHARS` are not treated as secrets (a
variable set to ``1`` must not erase every digit).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "MIN_SECRET_CHARS",
    "REDACTED",
    "register_key_env",
    "redact",
    "secret_values",
]

REDACTED = "[redacted]"
MIN_SECRET_CHARS = 8

# The variables the providers (and LiteLLM) read when a spec names none.
DEFAULT_KEY_ENVS = frozenset(
    {
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "AZURE_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "MISTRAL_API_KEY",
        "GROQ_API_KEY",
        "TOGETHER_API_KEY",
        "OPENROUTER_API_KEY",
        "DEEPSEEK_API_KEY",
        "XAI_API_KEY",
        "COHERE_API_KEY",
        "HF_TOKEN",
        "HUGGINGFACE_API_KEY",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
    }
)
_SECRET_NAME = re.compile(r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)$", re.IGNORECASE)

_registered: set[str] = set()
_lock = threading.Lock()

_NAME_BOUNDARY = r"(?<![A-Za-z0-9_])"
_KEY_SHAPES = re.compile(
    # sk-... and sk-ant-... keys (OpenAI, Anthropic and their imitators)
    _NAME_BOUNDARY + r"sk-[A-Za-z0-9_\-]{12,}"
    # bearer tokens, in headers or prose
    r"|(?<=Bearer )[A-Za-z0-9._~+/=\-]{8,}"
    r"|(?<=bearer )[A-Za-z0-9._~+/=\-]{8,}",
)
_KEY_ASSIGNMENT = re.compile(
    _NAME_BOUNDARY + r"((?:x-)?api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?key"
    r"|key|token|secret|password)"
    r"""((?:\\?["'])?\s*[=:]\s*(?:\\?["'])?)"""
    r"([A-Za-z0-9._~+/\-]{16,})",
    re.IGNORECASE,
)


def register_key_env(name: str | None) -> None:
    """Treat the value of environment variable ``name`` as a secret from now on."""
    if name:
        with _lock:
            _registered.add(name)


def _key_env_names() -> set[str]:
    with _lock:
        names = set(_registered)
    names.update(DEFAULT_KEY_ENVS)
    names.update(n for n in os.environ if _SECRET_NAME.search(n))
    return names


def secret_values() -> list[str]:
    """The current values of every key-holding variable, longest first."""
    values = set()
    for name in _key_env_names():
        value = os.environ.get(name, "").strip()
        if len(value) >= MIN_SECRET_CHARS:
            values.add(value)
    return sorted(values, key=lambda v: (-len(v), v))


@lru_cache(maxsize=8)
def _values_pattern(values: tuple[str, ...]) -> re.Pattern[str] | None:
    if not values:
        return None
    return re.compile("|".join(re.escape(v) for v in values))


def _redact_values(text: str, values: Iterable[str]) -> str:
    pattern = _values_pattern(tuple(values))
    return text if pattern is None else pattern.sub(REDACTED, text)


def redact(text: str) -> str:
    """``text`` with every known key value and key-shaped string replaced by :data:`REDACTED`."""
    if not text:
        return text
    text = _redact_values(text, secret_values())
    text = _KEY_SHAPES.sub(REDACTED, text)
    return _KEY_ASSIGNMENT.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)
