"""The example agents of ``examples/agents/`` against the fake OpenAI server: the scratchpad agent
carries its notes from decision to decision, the voter takes the majority of its samples, both
report the provider's usage; a league seats them and prices their calls."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from examples.agents.scratchpad import ScratchpadAgent
from examples.agents.voter import VoterAgent
from harness.agents.python_agent import PythonBackend
from harness.cli.main import main
from harness.records import RunStore
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.script import Answer, Behaviour, options_in_request

from .conftest import play_with


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as fake:
        yield fake


def model(server: FakeOpenAIServer) -> dict[str, Any]:
    return {
        "provider": "openai", "model": "gpt-test", "base_url": server.base_url,
        "api_key_env": KEY_ENV, "answer_mode": "json_schema", "retry_budget": 0,
        "price": {"input": 1.0, "output": 2.0},
    }  # fmt: skip


def _prompt(request: Any) -> str:
    return str(request.body["messages"][-1]["content"])


def test_the_scratchpad_agent_reads_the_notes_it_wrote(server: FakeOpenAIServer) -> None:
    notes = itertools.count(1)
    server.script.default = lambda body: Answer(reason=f"note {next(notes)}")
    played = asyncio.run(
        play_with(PythonBackend(ScratchpadAgent, {"model": model(server), "max_notes": 3}))
    )
    mine = played.seat_decisions(0)
    prompts = [_prompt(r) for r in server.script.model_requests]
    assert len(prompts) == len(mine) > 4 and all(d.fallback is None for d in mine)
    assert "Your notes" not in prompts[0] and "# Your game" in prompts[0]
    assert "- note 1\n" in prompts[1]
    assert "- note 1\n" not in prompts[4] and "- note 2\n- note 3\n- note 4\n" in prompts[4]
    r = mine[0].record
    assert r.model == "openai/gpt-test" and r.reason == "note 1" and r.input_tokens > 0
    assert r.cost_usd == pytest.approx((r.input_tokens * 1.0 + r.output_tokens * 2.0) / 1e6)


def test_the_voter_answers_the_majority_of_its_samples(server: FakeOpenAIServer) -> None:
    turn = itertools.count()

    def default(body: Mapping[str, Any]) -> Behaviour:  # per decision: second, second, first
        ids = options_in_request(body)
        return Answer(choice=ids[1] if next(turn) % 3 else ids[0])

    server.script.default = default
    played = asyncio.run(play_with(PythonBackend(VoterAgent, {"model": model(server), "k": 3})))
    mine = played.seat_decisions(0)
    assert len(server.script.model_requests) == 3 * len(mine)
    temps = {r.body.get("temperature") for r in server.script.model_requests}
    assert temps == {0.8}
    for d in mine:
        assert d.fallback is None and d.option == d.record.options[1]
        assert d.record.reason.startswith("2 of 3 votes")
        assert d.record.input_tokens == sum(a.tokens.input for a in d.record.attempts) > 0


def test_a_voter_without_a_valid_sample_falls_back(server: FakeOpenAIServer) -> None:
    server.script.default = lambda body: Answer(choice="no-such-option")
    played = asyncio.run(
        play_with(PythonBackend(VoterAgent, {"model": model(server), "k": 2}), max_fallbacks=2)
    )
    mine = played.seat_decisions(0)
    assert mine and all(d.fallback == "invalid_answer" for d in mine)
    assert all(d.record.input_tokens > 0 for d in mine)  # the samples' usage is still counted


def test_a_league_seats_the_examples_and_prices_their_calls(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    spec = model(server)
    players = [
        {"name": "notes", "kind": "agent", "agent": "examples.agents.scratchpad:ScratchpadAgent",
         "options": {"model": spec}},
        {"name": "votes", "kind": "agent", "agent": "examples.agents.voter:VoterAgent",
         "options": {"model": spec, "k": 2}},
        {"name": "bot1", "kind": "bot"}, {"name": "bot2", "kind": "bot"},
    ]  # fmt: skip
    cfg = tmp_path / "ex.yaml"
    cfg.write_text(json.dumps({"name": "ex", "players": players, "tables": [{"seats": [4]}],
                               "games_per_table": 1, "decision_seconds": 10}))  # fmt: skip
    assert main(["league", "run", str(cfg), "--output", str(tmp_path / "o"), "--no-progress"]) == 0
    run = tmp_path / "o" / "ex"
    spend = [json.loads(x) for x in (run / "spend.jsonl").read_text().splitlines()]
    (game,) = RunStore(run).games()
    for player in ("notes", "votes"):
        lines = [x for x in spend if x["player"] == player]
        outcome = next(o for o in game.seat_outcomes if o.player == player)
        assert lines and outcome.kind == "agent" and outcome.cost_usd > 0
        assert sum(x["cost_usd"] for x in lines) == pytest.approx(outcome.cost_usd, abs=1e-6)
    assert SECRET_KEY not in (run / "spend.jsonl").read_text()
