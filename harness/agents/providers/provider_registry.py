"""Name → provider factory, importing each adapter (and its SDK) only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .provider_contract import Provider

__all__ = ["get_provider", "known_providers", "register_provider"]

ProviderFactory = Callable[..., Provider]

# name -> "module:attribute", resolved lazily so importing this module imports no SDK.
_BUILTIN: dict[str, str] = {
    "openai": "harness.agents.providers.openai_provider:OpenAIProvider",
    "anthropic": "harness.agents.providers.anthropic_provider:AnthropicProvider",
    "litellm": "harness.agents.providers.litellm_provider:LiteLLMProvider",
}
_REGISTERED: dict[str, ProviderFactory] = {}


def register_provider(name: str, factory: ProviderFactory) -> None:
    """Make ``get_provider(name, **settings)`` call ``factory(**settings)`` (e.g. a mock)."""
    _REGISTERED[name] = factory


def known_providers() -> list[str]:
    """Sorted names accepted by :func:`get_provider`."""
    return sorted({*_BUILTIN, *_REGISTERED})


def get_provider(name: str, **settings: Any) -> Provider:
    """Build the provider called ``name`` with its settings (``base_url``, ``api_key_env``, ...).

    Raises ``ValueError`` naming the known providers when ``name`` is unknown, and
    ``ImportError`` with an install hint when the provider's SDK is missing.
    """
    factory = _REGISTERED.get(name)
    if factory is None:
        target = _BUILTIN.get(name)
        if target is None:
            raise ValueError(
                f"unknown provider {name!r}; known providers: {', '.join(known_providers())}"
            )
        module_name, _, attr = target.partition(":")
        factory = getattr(importlib.import_module(module_name), attr)
    return factory(**settings)
