"""League runs with model seats over real HTTP (fake OpenAI server on 127.0.0.1): records,
spending caps, fatal errors stopping the run, keys never recorded."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from harness.cli.main import main
from harness.records import RunStore
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

pytest.importorskip("openai")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def config(tmp_path: Path, server: FakeOpenAIServer, **over: object) -> Path:
    data = {
        "name": "models",
        "players": [
            model_player(
                "gpt-test",
                server.base_url,
                price={"input": 1.0, "output": 2.0},
                params={"max_tokens": 64},
            ),
            {"name": "bot", "kind": "bot"},
        ],
        "tables": [{"seats": [4]}],
        "games_per_table": 4,
        "decision_seconds": 5,
        "providers": {"openai": {"concurrency": 4}},
    }
    data.update(over)
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_model_league_records_every_model_decision(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    out = tmp_path / "out"
    assert (
        main(
            ["league", "run", str(config(tmp_path, server)), "--output", str(out), "--no-progress"]
        )
        == 0
    )
    store = RunStore(out / "models")
    games = store.games()
    assert len(games) == 4
    model_lines = 0
    for g in games:
        _, decisions, _ = store.read_game(g.game_id)
        for d in decisions:
            if d.player == "gpt-test" and len(d.options) > 1:
                assert d.model is not None and d.model["chosen"] == d.chosen
                model_lines += 1
        assert any(o.kind == "model" and o.input_tokens > 0 for o in g.seat_outcomes)
        assert g.cost_usd > 0
    # one call per model decision, plus the preflight's sample decision (not recorded)
    assert model_lines > 0 and model_lines + 1 == len(server.script.model_requests)
    assert store.system_prompts()
    for path in (out / "models").rglob("*.jsonl"):
        assert SECRET_KEY not in path.read_text()


def test_spending_cap_stops_the_run_cleanly(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    cfg = config(tmp_path, server, spending={"max_usd": 0.0001}, max_concurrent_games=1)
    assert main(["league", "run", str(cfg), "--output", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "spending cap reached" in err
    done = len(RunStore(out / "models").games())
    assert done < 4
    # raising the cap and resuming finishes the run
    cfg = config(tmp_path, server, spending={"max_usd": 100.0})
    assert main(["league", "run", str(cfg), "--output", str(out), "--resume", "--no-progress"]) == 0
    assert len(RunStore(out / "models").games()) == 4


def test_authentication_error_stops_the_run_at_once(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    for _ in range(200):  # a bad key fails every call
        server.script.status(401)
    out = tmp_path / "out"
    cfg = str(config(tmp_path, server))
    # a key rejected during the run (the preflight would stop it before: tests/league/)
    assert (
        main(["league", "run", cfg, "--output", str(out), "--no-progress", "--no-preflight"]) == 2
    )
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("bangarena: error:")]
    assert len(errors) == 1
    # the line names the player and its model
    assert errors[0].startswith("bangarena: error: stopped: player gpt-test (openai/gpt-test): ")
    assert "authentication failed" in errors[0]
    assert SECRET_KEY not in err
    assert RunStore(out / "models").games() == []
    assert len(server.script.model_requests) <= 4  # no fallback storm: it stopped at once
