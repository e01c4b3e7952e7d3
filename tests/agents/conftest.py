"""Fixtures for provider/agent tests: fake servers on 127.0.0.1, a stub prompt builder and helpers
that run one decision end to end through the real SDK client code."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# LiteLLM must use the price map shipped in its wheel, never download one at import.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:  # `tests.fakes` and `harness` importable under plain `pytest`
    sys.path.insert(0, _ROOT)

from harness.agents.decision_record import ModelDecisionRecord  # noqa: E402
from harness.agents.llm_agent import LLMAgent  # noqa: E402
from harness.agents.pricing import PriceBook  # noqa: E402
from harness.agents.providers import Provider, get_provider  # noqa: E402
from tests.fakes import FakeAnthropicServer, FakeOpenAIServer, Script  # noqa: E402
from tests.fakes.server import FakeServer  # noqa: E402

SECRET_KEY = "sk-test-SECRET-do-not-leak-4711"
KEY_ENV = "BANGARENA_TEST_API_KEY"
OPTIONS = ("end", "play:shot@2", "take")


class StubPrompts:
    """Minimal prompt builder: static system prompt, options as a backticked list."""

    def system_prompt(self, view: Any) -> str:
        return "You are playing BangArena. Answer with a JSON object {\"choice\": \"<option id>\"}."

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str:
        return "Choose one option:\n" + "\n".join(f"- `{o}`" for o in options)


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
        timeout: float = 2.0,
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


def _make_backend(label: str, monkeypatch: pytest.MonkeyPatch) -> Backend:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    if label == "openai":
        server: FakeServer = FakeOpenAIServer().start()
        settings = {"base_url": server.base_url, "api_key_env": KEY_ENV}  # type: ignore[attr-defined]
        return Backend(label, "openai", "fake-gpt", server, settings)
    if label == "anthropic":
        server = FakeAnthropicServer().start()
        settings = {"base_url": server.base_url, "api_key_env": KEY_ENV}  # type: ignore[attr-defined]
        return Backend(label, "anthropic", "claude-fake", server, settings)
    if label == "litellm-openai":
        server = FakeOpenAIServer().start()
        settings = {"api_base": server.base_url, "api_key_env": KEY_ENV}  # type: ignore[attr-defined]
        return Backend(label, "litellm", "openai/fake-gpt", server, settings)
    if label == "litellm-anthropic":
        server = FakeAnthropicServer().start()
        settings = {"api_base": server.base_url, "api_key_env": KEY_ENV}  # type: ignore[attr-defined]
        return Backend(label, "litellm", "anthropic/claude-fake", server, settings)
    raise ValueError(label)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Backend]:
    """Every provider, each through its real SDK, against the matching fake server."""
    made = _make_backend(request.param, monkeypatch)
    try:
        yield made
    finally:
        made.server.stop()


@pytest.fixture
def make_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], Backend]]:
    """Factory for a specific backend label (stopped at teardown)."""
    made: list[Backend] = []

    def factory(label: str) -> Backend:
        made.append(_make_backend(label, monkeypatch))
        return made[-1]

    yield factory
    for b in made:
        b.server.stop()
