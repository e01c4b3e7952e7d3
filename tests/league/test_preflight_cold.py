"""The preflight's latency check measures the cold case (issue 37 item 5: a re-run preflight
answered in 53 s, its prefix read from the server's cache, for a request that took 626 s cold):
a llama.cpp server (one that counts with its tokenize endpoint) first gets a short request no
cache can hold — a random first line — which displaces its cached prefix and times its cold
reading rate; the sample's cold latency is estimated from that rate and warned about; the request
is a ``preflight`` line of the ledger.  Servers that report cached tokens are timed only after a
sample they mostly read from their cache."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from harness.agents.decision_record import Attempt, ModelDecisionRecord, TokenCounts
from harness.league.league_config import parse_config
from harness.league.preflight import preflight
from harness.league.preflight_cold import COLD_TOKENS, cold_text
from harness.league.preflight_latency import cold_seconds, summary
from harness.league.preflight_records import ColdRead, ProbeResult
from harness.views.prompts import system_prompt_text
from tests.fakes import FakeOpenAIServer
from tests.fakes.backends import KEY_ENV, SECRET_KEY

from .test_preflight import league

pytest.importorskip("openai")

NONCE = re.compile(r"^[0-9a-f]{32}\n")


def sample(latency: float, tokens: TokenCounts, cold: ColdRead | None) -> ProbeResult:
    spec = parse_config(league("http://127.0.0.1:1/v1", decision_seconds=60)).players[0].model
    assert spec is not None
    record = ModelDecisionRecord(
        provider="openai", model="gpt-test", answer_mode="grammar", options=["a", "b"],
        system_prompt_sha256="0" * 64, attempts=[Attempt(latency_s=latency, tokens=tokens)],
        chosen="a",
    )  # fmt: skip
    spec = spec.model_copy(update={"decision_seconds": 60.0})
    return ProbeResult("gpt-test", spec, record, "ru", cold=cold)


def test_a_warm_sample_with_no_cached_count_is_timed_at_the_cold_rate() -> None:
    """llama-cpp-python reports no cached tokens: the 13,135-token sample at the cold rate of
    20 tokens/s takes ~657 s, past the 60 s timer, though it answered in 5 s."""
    result = sample(5.0, TokenCounts(input=13_135, output=9), ColdRead(512, 25.6))
    assert cold_seconds(result) == pytest.approx(13_135 / 20)
    line, warnings = summary(result)
    assert "valid answer in 5.00 s" in line and "cold read 20 prompt tokens/s" in line
    assert len(warnings) == 1, warnings
    assert "reads all 13,135 prompt tokens" in warnings[0]
    assert "~657 s, 1095 % of the decision timer (60 s)" in warnings[0]
    assert "timed on a 512-token request no cache holds" in warnings[0]


def test_a_reported_cached_count_adds_the_cached_tokens_at_the_cold_rate() -> None:
    result = sample(5.0, TokenCounts(input=13_135, cached_input=13_000, output=9),
                    ColdRead(512, 5.12))  # fmt: skip
    assert cold_seconds(result) == pytest.approx(5.0 + 13_000 / 100)
    assert "~135 s" in summary(result)[1][0]


def test_a_fast_cold_rate_warns_of_nothing() -> None:
    result = sample(5.0, TokenCounts(input=13_135, output=9), ColdRead(512, 0.5))
    assert cold_seconds(result) == pytest.approx(13_135 / 1024)
    line, warnings = summary(result)
    assert "cold read 1,024 prompt tokens/s" in line and warnings == []


def test_the_cold_text_is_a_random_line_and_the_head_of_the_system_prompt() -> None:
    system = system_prompt_text("en")
    a, b = cold_text(system, 4000), cold_text(system, 4000)
    assert NONCE.match(a) and NONCE.match(b) and a != b  # no cache holds either
    head = a.split("\n", 1)[1]
    assert system.startswith(head)
    assert len(head) == int(len(system) * COLD_TOKENS / 4000)


@pytest.fixture
def llama_like(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """A fake with llama-cpp-python's tokenize endpoint, reporting no cached tokens, slow."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer(tokenize="llama-cpp-python") as s:
        s.script.report_cached = False
        s.script.delay_s = 0.3
        yield s


def test_a_llama_cpp_server_gets_the_cold_request_before_the_sample(
    llama_like: FakeOpenAIServer,
) -> None:
    config = parse_config(league(llama_like.base_url, decision_seconds=4))
    report = preflight(config)
    requests = llama_like.script.model_requests
    assert len(requests) == 2
    systems = [next(m["content"] for m in r.body["messages"] if m["role"] == "system")
               for r in requests]  # fmt: skip
    assert NONCE.match(systems[0]) and not NONCE.match(systems[1])  # the cold one first
    assert requests[0].body["max_tokens"] == 1
    (result,) = report.results
    assert result.cold is not None and result.cold.tokens > 100
    assert [x.purpose for x in report.spend] == ["preflight", "preflight"]
    assert report.spend[0].input_tokens == result.cold.tokens
    assert any("cold read" in line for line in report.lines), report.lines
    # ~2,600 fake tokens of sample at ~{cold tokens / 0.3 s}: past half of the 4 s timer
    cold = cold_seconds(result)
    assert cold is not None and cold > 2.0
    assert any("a request the server's prefix cache does not hold" in w
               for w in report.warnings), report.warnings  # fmt: skip


def test_a_server_that_reports_a_cold_sample_gets_no_cold_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fake reports 0 cached tokens and has no tokenize endpoint: the sample was cold."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        report = preflight(parse_config(league(server.base_url)))
        assert len(server.script.model_requests) == 1
    assert report.results[0].cold is None and len(report.spend) == 1


def test_a_sample_the_server_says_it_read_from_its_cache_is_timed_cold_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sample first, then the cold request; this fake says it cached every prompt — even the
    random one — so no rate can be had, and the sample is said to be warm instead."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.cached_tokens = 10**6  # every prompt token "cached"
        report = preflight(parse_config(league(server.base_url)))
        requests = server.script.model_requests
        assert len(requests) == 2
        first = next(m["content"] for m in requests[1].body["messages"] if m["role"] == "system")
        assert NONCE.match(first)
    (result,) = report.results
    assert result.cold is None and [x.purpose for x in report.spend] == ["preflight"] * 2
    assert any("from its prefix cache" in w for w in report.warnings), report.warnings
