"""Provider ↔ fake-server pairs and a one-call decision runner, shared by agent tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers import Provider, get_provider

from .anthropic_server import FakeAnthropicServer
from .openai_server import FakeOpenAIServer
from .script import Script
from .server import FakeServer

__all__ = [
    "BACKENDS",
    "KEY_ENV",
    "OPTIONS",
    "SECRET_KEY",
    "Backend",
    "StubPrompts",
    "last_option",
    "make_backend",
    "model_player",
]

SECRET_KEY = "sk-test-SECRET-do-not-leak-4711"
KEY_ENV = "BANGARENA_TEST_API_KEY"
OPTIONS = ("end", "play:shot@2", "take")


class StubPrompts:
    """Minimal prompt builder: static system prompt, options as a backticked list."""

    def system_prompt(self, view: Any) -> str:
        return 'You are playing BangArena. Answer with a JSON object {"choice": "<option id>"}.'

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str:
        return "Choose one option:\n" + "\n".join(f"- `{o}`" for o in options)


def model_player(
    name: str, base_url: str, provider: str = "openai", **model: Any
) -> dict[str, Any]:
    """A ``players`` entry of a league or web config: a model player whose calls go to the fake
    server at ``base_url`` (``gpt-test`` answering JSON objects, or ``claude-test`` answering by
    tool call; the key from ``KEY_ENV``).  ``model`` adds or replaces fields of its model."""
    spec: dict[str, Any] = {
        "provider": provider,
        "model": "gpt-test" if provider == "openai" else "claude-test",
        "base_url": base_url,
        "api_key_env": KEY_ENV,
        "answer_mode": "json_object" if provider == "openai" else "tool",
        **model,
    }
    return {"name": name, "kind": "model", "model": spec}


def last_option(view: Any, options: Sequence[str]) -> str:
    """Deterministic fallback used in tests (distinct from the fake's default first option)."""
    return options[-1]


@dataclass
class Backend:
    """One provider wired to one fake server."""

    label: str
    provider_name: str
    model: str
    server: FakeServer
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def script(self) -> Script:
        return self.server.script

    def provider(self) -> Provider:
        return get_provider(self.provider_name, **self.settings)

    def agent(self, provider: Provider, **kwargs: Any) -> LLMAgent:
        kwargs.setdefault("fallback", last_option)
        kwargs.setdefault("price_table", PriceBook({}, use_litellm=False))
        kwargs.setdefault("backoff", 0.05)
        return LLMAgent(provider, self.model, StubPrompts(), **kwargs)

    def decide(
        self,
        options: Sequence[str] = OPTIONS,
        *,
        timeout: float = 15.0,  # answered decisions: room for a loaded machine's first call
        context: dict[str, Any] | None = None,
        **agent_kwargs: Any,
    ) -> tuple[str, ModelDecisionRecord, float]:
        """Run one decision in a fresh event loop; returns (choice, record, elapsed seconds)."""

        async def go() -> tuple[str, ModelDecisionRecord, float]:
            provider = self.provider()
            try:
                agent = self.agent(provider, **agent_kwargs)
                start = time.monotonic()
                choice, record = await agent.decide(
                    {"seat": 0}, options, start + timeout, context or {"game_id": "g1"}
                )
                return choice, record, time.monotonic() - start
            finally:
                await provider.aclose()

        return asyncio.run(go())


BACKENDS = ["openai", "anthropic", "litellm-openai", "litellm-anthropic"]


def make_backend(label: str) -> Backend:
    """Start the fake server for ``label`` and describe the provider pointed at it.

    The caller sets the environment variable ``KEY_ENV`` (e.g. with monkeypatch).
    """
    if label == "openai":
        server: FakeServer = FakeOpenAIServer().start()
        settings = {"base_url": server.base_url, "api_key_env": KEY_ENV}
        return Backend(label, "openai", "fake-gpt", server, settings)
    if label == "anthropic":
        server = FakeAnthropicServer().start()
        settings = {"base_url": server.base_url, "api_key_env": KEY_ENV}
        return Backend(label, "anthropic", "claude-fake", server, settings)
    if label == "litellm-openai":
        server = FakeOpenAIServer().start()
        settings = {"api_base": server.base_url, "api_key_env": KEY_ENV}
        return Backend(label, "litellm", "openai/fake-gpt", server, settings)
    if label == "litellm-anthropic":
        server = FakeAnthropicServer().start()
        settings = {"api_base": server.base_url, "api_key_env": KEY_ENV}
        return Backend(label, "litellm", "anthropic/claude-fake", server, settings)
    raise ValueError(label)
