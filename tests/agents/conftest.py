"""Fixtures for provider/agent tests: fake servers on 127.0.0.1 (see ``tests.fakes``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# LiteLLM must use the price map shipped in its wheel, never download one at import.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:  # `tests.fakes` and `harness` importable under plain `pytest`
    sys.path.insert(0, _ROOT)

from tests.fakes.backends import BACKENDS, KEY_ENV, SECRET_KEY, Backend, make_backend  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    # LiteLLM's own pydantic models trigger this third-party warning on first use.
    config.addinivalue_line("filterwarnings", "ignore:.*ReadOnly. qualifier:UserWarning")


_SDK_OF = {"openai": "openai", "anthropic": "anthropic"}


def _require_sdk(label: str) -> None:
    sdk = _SDK_OF.get(label, "litellm")
    pytest.importorskip(sdk, reason=f"the {sdk} SDK is not installed (pip install '.[llm]')")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Backend]:
    """Every provider, each through its real SDK, against the matching fake server."""
    _require_sdk(request.param)
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    made = make_backend(request.param)
    try:
        yield made
    finally:
        made.server.stop()


@pytest.fixture
def backend_for(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], Backend]]:
    """Factory for the backend of one label (servers stopped at teardown)."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    made: list[Backend] = []

    def factory(label: str) -> Backend:
        _require_sdk(label)
        made.append(make_backend(label))
        return made[-1]

    yield factory
    for b in made:
        b.server.stop()
