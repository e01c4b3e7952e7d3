"""Which tokenizer a seat counts with (:func:`harness.agents.model_spec.counter_for`): the one its
config names, the server's tokenize endpoint (llama.cpp's and llama-cpp-python's, against the fake
OpenAI server), LiteLLM's for a model it knows, else the estimate times the stated margin; and the correction a
seat's counter learns from the server's reported prompt tokens."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.agents import tokenizers
from harness.agents.model_spec import ModelSpec, counter_for
from harness.agents.tokenizers import counter_named, server_tokenizer
from harness.views import tokens
from harness.views.prompts import system_prompt_text
from harness.views.tokens import ESTIMATE_MARGIN, TokenCounter, TokenizerError
from tests.fakes.openai_server import FakeOpenAIServer, count_tokens

RUSSIAN = "Шериф стреляет в бандита: «Бах!» — и у того остаётся одна пуля."


@pytest.fixture(autouse=True)
def _fresh_servers() -> Iterator[None]:
    tokenizers.forget_servers()
    yield
    tokenizers.forget_servers()


def _spec(**kw: object) -> ModelSpec:
    return ModelSpec(**{"provider": "openai", "model": "local-model", **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["llama.cpp", "llama-cpp-python"])
def test_the_servers_tokenize_endpoint_is_detected_and_counts(kind: str) -> None:
    with FakeOpenAIServer(tokenize=kind) as server:  # type: ignore[arg-type]
        counter = counter_for(_spec(base_url=server.base_url))
        route = "/tokenize" if kind == "llama.cpp" else "/extras/tokenize"
        assert counter.source == f"server {server.root_url}{route}"
        assert counter(RUSSIAN) == count_tokens(RUSSIAN)  # the server's count, not an estimate
        calls = server.tokenize_calls
        assert counter(RUSSIAN) == count_tokens(RUSSIAN) and server.tokenize_calls == calls
        # detected once per server: another seat asks no probe
        other = counter_for(_spec(base_url=server.base_url))
        assert other.tokenizer is counter.tokenizer and server.tokenize_calls == calls
        assert not server.script.model_requests  # tokenize calls are not model calls


def test_a_server_without_an_endpoint_gets_the_estimate_with_its_margin() -> None:
    with FakeOpenAIServer() as server:
        counter = counter_for(_spec(base_url=server.base_url))
    base = tokens.Encoding("cl100k_base").count(RUSSIAN)
    assert counter.source == f"estimate (cl100k_base x {ESTIMATE_MARGIN:g})"
    assert counter(RUSSIAN) == -(-base * ESTIMATE_MARGIN // 1)


def test_the_margin_covers_every_shipped_locales_system_prompt_as_measured() -> None:
    """docs/models.md: SmolLM2's real system-prompt tokens (llama-cpp-python /extras/tokenize)
    over the cl100k_base count; the margin must not be below any of them."""
    real = {"en": 3669, "ru": 8980, "zh": 7952, "ja": 9799, "ar": 10163}
    estimate = counter_named("estimate")
    for locale, n in real.items():
        counted = estimate(system_prompt_text(locale))
        assert counted >= n, (locale, counted, n)


def test_a_config_named_tokenizer_comes_first(tmp_path: Path) -> None:
    pytest.importorskip("tokenizers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    hf = Tokenizer(models.WordLevel({"[UNK]": 0, "bang": 1}, unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    with FakeOpenAIServer(tokenize="llama.cpp") as server:
        counter = counter_for(_spec(base_url=server.base_url, tokenizer=str(path)))
        assert counter.source == "tokenizer.json tokenizer.json"
        assert counter("bang bang bang") == 3 and server.tokenize_calls == 0
        named = counter_for(_spec(base_url=server.base_url, tokenizer="o200k_base"))
        assert named.source == "tiktoken o200k_base" and named("hello world") == 2
        assert counter_for(_spec(base_url=server.base_url, tokenizer="server")).source.startswith(
            "server "
        )
    with FakeOpenAIServer() as bare, pytest.raises(TokenizerError, match="no tokenize endpoint"):
        counter_for(_spec(base_url=bare.base_url, tokenizer="server"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("server", "needs the model's base_url"),
        ("missing/tokenizer.json", "no tokenizer.json file"),
        ("r50k_base", "must be 'server', a tokenizer.json path or one of"),
    ],
)
def test_a_bad_tokenizer_setting_is_one_clear_config_error(value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _spec(tokenizer=value)


def test_litellm_counts_the_models_it_knows() -> None:
    assert counter_for(_spec(model="gpt-4o")).source == "litellm gpt-4o"
    assert counter_for(_spec(model="smollm2")).source.startswith("estimate")


def test_the_correction_learns_an_upper_biased_ratio_from_reported_counts() -> None:
    counter = TokenCounter(tokens.Estimate())
    assert counter.ratio == 1.0 and counter.corrected(1000) == 1000
    counter.learn(1000, 1300)
    counter.learn(1000, 1100)
    assert counter.ratio == pytest.approx(1.3)  # the largest recent ratio, not the mean
    assert counter.corrected(1000) == 1300
    counter.learn(1000, 0)  # no count reported: nothing learned
    counter.learn(1000, 100_000)  # an absurd count is not learned from
    assert counter.ratio == pytest.approx(1.3)
    for _ in range(tokens.RATIO_WINDOW):
        counter.learn(1000, 900)
    assert counter.ratio == pytest.approx(0.9)  # the window moved on
    assert counter.fork().ratio == 1.0  # another seat starts from the tokenizer alone


def test_a_server_that_stops_answering_is_estimated_not_cached() -> None:
    with FakeOpenAIServer(tokenize="llama.cpp") as server:
        found = server_tokenizer(server.base_url)
        assert found is not None
    # the server is gone: the count falls back to the estimate and is tried again next time
    n = found.count(RUSSIAN + "!")
    assert n == tokens.Estimate().count(RUSSIAN + "!") and found.failures == 1
    assert RUSSIAN + "!" not in found._cache


def test_prompt_stats_tokenizer_names(tmp_path: Path) -> None:
    assert counter_named("gpt-4o").source == "litellm gpt-4o"
    assert counter_named("cl100k_base").source == "tiktoken cl100k_base"
    with FakeOpenAIServer(tokenize="llama-cpp-python") as server:
        assert counter_named(server.base_url).source.startswith("server ")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"not": "a tokenizer"}))
    with pytest.raises(TokenizerError, match="not a readable tokenizer.json"):
        counter_named(str(bad))
