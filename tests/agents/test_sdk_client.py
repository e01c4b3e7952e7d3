"""The providers built on a vendor SDK client share one set-up (harness.agents.providers.sdk_client):
the key only from its environment variable, required unless ``base_url`` names a local server,
a placeholder key for a local server, the SDK's own retries off, headers passed through."""

from __future__ import annotations

import pytest

from harness.agents.providers import get_provider
from harness.agents.providers.provider_errors import AuthenticationFailed

pytest.importorskip("openai")
pytest.importorskip("anthropic")

LOCAL = "http://127.0.0.1:9/v1"


@pytest.mark.parametrize(
    ("name", "default_env", "placeholder"),
    [
        ("openai", "OPENAI_API_KEY", "sk-no-key-required"),
        ("anthropic", "ANTHROPIC_API_KEY", "sk-ant-no-key-required"),
    ],
)
def test_the_key_comes_from_its_variable_and_is_required_without_base_url(
    monkeypatch: pytest.MonkeyPatch, name: str, default_env: str, placeholder: str
) -> None:
    monkeypatch.delenv(default_env, raising=False)
    with pytest.raises(AuthenticationFailed, match=default_env):
        get_provider(name)
    local = get_provider(name, base_url=LOCAL, default_headers={"X-Run": "r1"})
    assert local._client.api_key == placeholder  # type: ignore[attr-defined]
    assert local._client.max_retries == 0  # type: ignore[attr-defined]
    assert local._client.default_headers["X-Run"] == "r1"  # type: ignore[attr-defined]
    assert local.base_url == LOCAL  # type: ignore[attr-defined]
    monkeypatch.setenv("BANGARENA_TEST_KEY", "sk-test-123")
    keyed = get_provider(name, api_key_env="BANGARENA_TEST_KEY", default_answer_mode="text")
    assert keyed._client.api_key == "sk-test-123"  # type: ignore[attr-defined]
    assert keyed.default_answer_mode == "text"
    assert type(keyed).default_answer_mode != "text"  # the class default is left alone
