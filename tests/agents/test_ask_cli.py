"""``bangarena ask`` against the fake servers, and ``bangarena bench llm``.

The commands are run through ``harness.cli.main.main`` (its error handling and exit codes) with
``ask`` and ``bench llm`` registered for the test, whether or not ``main.py`` lists them yet.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from harness.cli import ask_cmd, llm_bench_cmd, main
from tests.fakes.backends import KEY_ENV, SECRET_KEY, Backend

Cli = Callable[..., tuple[int, str, str]]


class _BenchLLM:
    """A ``bench`` command group holding only ``llm`` (as ``bench_cmd`` will once wired)."""

    @staticmethod
    def register(sub: Any) -> None:
        p = sub.add_parser("bench")
        llm_bench_cmd.register_bench(p.add_subparsers(dest="bench", required=True))


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Cli]:
    """Run ``bangarena ARGS...``; returns (exit code, stdout, stderr)."""
    monkeypatch.setattr(main, "COMMANDS", (ask_cmd, _BenchLLM))

    def run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            code = main.main(list(argv))
        except SystemExit as e:  # argparse errors
            code = int(e.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    yield run


def ask_args(backend: Backend, *extra: str) -> list[str]:
    url = backend.settings.get("base_url") or backend.settings.get("api_base")
    return [
        "ask",
        "--provider",
        backend.provider_name,
        "--model",
        backend.model,
        "--base-url",
        url,
        "--api-key-env",
        KEY_ENV,
        "--seed",
        "3",
        *extra,
    ]


def test_ask_valid_answer(cli: Cli, backend_for: Callable[[str], Backend]) -> None:
    backend = backend_for("openai")
    backend.script.answer(None, "closest target", reasoning="weighing the options")
    code, out, err = cli(*ask_args(backend, "--param", "temperature=0", "--param", "max_tokens=64"))
    assert code == 0, err
    assert "model: openai:fake-gpt (answer mode json_schema)" in out
    assert "system prompt: " in out and " tokens, counted with estimate (" in out
    assert "first request: counted " in out and ", the server reported " in out
    assert "--- decision prompt ---" in out and "**Decision" in out
    assert 'raw answer: {"choice": ' in out and "reasoning: weighing the options" in out
    assert "parsed choice: " in out and "(reason: closest target)" in out
    assert "tokens: input " in out and "latency: " in out and "cost: " in out
    assert "retries after errors: 0" in out
    assert SECRET_KEY not in out + err
    (request,) = backend.script.model_requests
    assert request.body["temperature"] == 0 and request.body["max_tokens"] == 64
    assert SECRET_KEY in json.dumps(request.headers)  # the key was read from the environment


def test_ask_prints_tool_arguments_for_anthropic(
    cli: Cli, backend_for: Callable[[str], Backend]
) -> None:
    backend = backend_for("anthropic")
    code, out, _ = cli(*ask_args(backend))
    assert code == 0
    assert "(answer mode tool)" in out and 'tool arguments: {"choice": ' in out


def test_ask_sample_is_deterministic_and_a_real_choice() -> None:
    first, again = ask_cmd.sample_decision(7, 5), ask_cmd.sample_decision(7, 5)
    assert first.step == again.step and first.options == again.options
    assert len(first.options) > 1 and first.view.pending is not None
    assert first.view.viewer == first.game.pending.seat
    assert len({ask_cmd.sample_decision(s, 4).step for s in range(1, 6)}) > 1  # seed picks it


def test_ask_fallback_exits_1(cli: Cli, backend_for: Callable[[str], Backend]) -> None:
    backend = backend_for("openai")
    backend.script.illegal("play:shot@9").illegal("PLAY:SHOT@9")
    code, out, err = cli(*ask_args(backend))
    assert code == 1, err
    assert out.count("verdict: illegal_option") == 2
    assert "failure: invalid_answer (last attempt: illegal_option)" in out
    assert "fallback simplest chose " in out and "corrections: 1" in out


def test_ask_transient_errors_show_retries(cli: Cli, backend_for: Callable[[str], Backend]) -> None:
    backend = backend_for("openai")
    backend.script.status(500).answer()
    code, out, _ = cli(*ask_args(backend))
    assert code == 0 and "verdict: server_error" in out and "retries after errors: 1" in out


@pytest.mark.parametrize("failure", ["401", "unknown model"])
def test_ask_fatal_error_exits_2_on_one_line(
    cli: Cli, backend_for: Callable[[str], Backend], failure: str
) -> None:
    backend = backend_for("openai")
    if failure == "401":
        backend.script.status(401, message="invalid api key")
    else:
        backend.script.unknown_model()
    code, out, err = cli(*ask_args(backend))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("bangarena: error: openai model 'fake-gpt': ")
    assert ("authentication failed" if failure == "401" else "unknown model") in err
    assert SECRET_KEY not in out + err


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--api-key-env", SECRET_KEY], "api_key_env: must be the NAME"),
        (["--param", "api_key=" + SECRET_KEY], "params: api_key cannot be set"),
        (["--param", "no-equals-sign"], "expected K=V"),
        (["--seats", "12"], "seats must be"),
        (["--answer-mode", "telepathy"], "invalid choice"),
    ],
)
def test_ask_bad_arguments_exit_2(
    cli: Cli, backend_for: Callable[[str], Backend], extra: list[str], needle: str
) -> None:
    backend = backend_for("openai")
    code, out, err = cli(*ask_args(backend), *extra)
    assert code == 2 and needle in err and err.count("\n") == 1
    assert SECRET_KEY not in out + err
    assert backend.script.model_requests == []


def test_ask_unsupported_answer_mode_for_provider(cli: Cli) -> None:
    code, _, err = cli(
        "ask",
        "--provider",
        "anthropic",
        "--model",
        "claude-x",
        "--base-url",
        "http://127.0.0.1:9",
        "--answer-mode",
        "grammar",
    )
    assert code == 2 and "answer_mode: 'grammar' is not supported" in err


def test_bench_llm_prints_a_json_line(cli: Cli) -> None:
    code, out, err = cli("bench", "llm", "--decisions", "20")
    assert code == 0, err
    assert "median per decision" in out and "p95" in out
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["benchmark"] == "llm" and figures["decisions"] == 20
    assert 0 < figures["median_ms"] <= figures["p95_ms"] <= figures["max_ms"]
