"""The preflight warns when ``max_tokens`` cannot hold the longest answer the answer format allows
in the player's locale, and the shipped configs' limits hold it in every locale (issue 26)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from harness.agents.answer_budget import (
    answer_budget_warning,
    answer_tokens,
    densest_reason,
    longest_answer,
    max_tokens_of,
)
from harness.agents.providers.provider_contract import REASON_MAX_CHARS
from harness.agents.tokenizers import prompt_token_counter
from harness.league.league_config import parse_config
from harness.league.preflight import preflight
from harness.views.prompts import system_prompt_text
from tests.fakes import FakeOpenAIServer
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("en", "ru", "zh", "ja", "ar")


def test_the_longest_answer_is_a_full_reason_of_the_locale_s_densest_prose() -> None:
    count = prompt_token_counter("gpt-4o")
    reason = densest_reason("ru", count)
    assert len(reason) == REASON_MAX_CHARS
    assert sum("а" <= ch <= "я" for ch in reason.lower()) > REASON_MAX_CHARS // 3
    answer = json.loads(longest_answer("ru", count))
    assert answer["reason"] == reason and answer["choice"]
    # no window of the prose (every 20th character) has more tokens than the one chosen
    text = " ".join(system_prompt_text("ru").split())
    starts = range(0, len(text) - REASON_MAX_CHARS, 1000)
    assert count(reason) >= max(count(text[i : i + REASON_MAX_CHARS]) for i in starts)
    assert answer_tokens("zh", count) > answer_tokens("en", count)


def test_max_tokens_of_the_params() -> None:
    assert max_tokens_of("openai", {"max_tokens": 128}) == 128
    assert max_tokens_of("openai", {"max_completion_tokens": 90, "max_tokens": 128}) == 90
    assert max_tokens_of("openai", {}) is None
    assert max_tokens_of("anthropic", {}) == 1024  # the adapter's default


def test_warning_names_the_locale_and_the_tokens_needed() -> None:
    def count(text: str) -> int:  # one token a character
        return len(text)

    needed = answer_tokens("ru", count)
    text = answer_budget_warning("player p", "openai", "m", {"max_tokens": 128}, "ru", count)
    assert text is not None and "ru" in text and f"{needed} tokens" in text
    assert "truncated" in text
    assert answer_budget_warning("p", "openai", "m", {"max_tokens": needed}, "ru", count) is None
    assert answer_budget_warning("p", "openai", "m", {}, "ru", count) is None


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def test_preflight_warns_per_locale(server: FakeOpenAIServer) -> None:
    players = [
        {**model_player("model-en", server.base_url, params={"max_tokens": 200}), "locale": "en"},
        {**model_player("model-zh", server.base_url, params={"max_tokens": 200}), "locale": "zh"},
        {"name": "bot", "kind": "bot"},
    ]
    data = {"name": "pre", "players": players, "tables": [{"seats": [4]}], "games_per_table": 1}
    report = preflight(parse_config(data))
    budget = [w for w in report.warnings if "max_tokens 200 may cut answers" in w]
    assert len(budget) == 1 and "model-zh" in budget[0] and "in zh" in budget[0]


def _shipped_models() -> list[tuple[str, str, str, dict]]:
    out = []
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for p in data.get("players") or []:
            if p.get("kind") == "model":
                m = p["model"]
                out.append((path.name, m["provider"], m["model"], m.get("params") or {}))
    return out


@pytest.mark.parametrize(("config", "provider", "model", "params"), _shipped_models())
def test_shipped_configs_hold_the_longest_answer_in_every_locale(
    config: str, provider: str, model: str, params: dict
) -> None:
    """With the harness's counter for the model (LiteLLM's tokenizer, or its default for a
    local server's model): the measured figures for SmolLM2's own tokenizer are in docs."""
    count = prompt_token_counter(model)
    for locale in LOCALES:
        warning = answer_budget_warning(config, provider, model, params, locale, count)
        assert warning is None, warning
