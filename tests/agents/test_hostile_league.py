"""A league against a hostile server (issue 11): unreadable bodies and 100 KB answers mixed into
the answers.  The run ends normally (exit 0), every request the server got is one recorded
attempt, the failures are recorded with their kinds, and huge answers are stored capped, so no
record line grows with the size of what the server sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from harness.agents.decision_record import STORED_TEXT_CHARS
from harness.cli.main import main
from harness.records import RunStore
from tests.fakes import BAD_BODY_KINDS, Answer, BadBody, Huge
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.script import Behaviour
from tests.league_run.model_league import model_decisions

pytest.importorskip("openai")

HUGE = 100_000


def _hostile() -> list[Behaviour]:
    """Bad bodies of every kind and huge answers, each followed by good answers."""
    pattern: list[Behaviour] = []
    for kind in BAD_BODY_KINDS:
        pattern += [BadBody(kind), Answer(), Huge(HUGE), Answer(), Answer()]
    return pattern


def test_league_against_a_hostile_server_records_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    out = tmp_path / "out"
    with FakeOpenAIServer() as server:
        server.script.repeat(_hostile())
        model = model_player(
            "model",
            server.base_url,
            model="fake-gpt",
            price={"input": 1.0, "output": 2.0},
            backoff=0.01,
        )
        config = {
            "name": "hostile",
            "players": [model, {"name": "bot", "kind": "bot"}],
            "tables": [{"seats": [4]}],
            "games_per_table": 2,
            "decision_seconds": 5,
        }
        path = tmp_path / "hostile.yaml"
        path.write_text(yaml.safe_dump(config))
        argv = ["league", "run", str(path), "--output", str(out), "--no-progress"]
        code = main([*argv, "--no-preflight"])  # its sample calls are not run records
        requests = len(server.script.model_requests)
    _, err = capfd.readouterr()
    assert code == 0, err
    assert "Traceback" not in err

    assert len(RunStore(out / "hostile").games()) == 2
    attempts = []
    for d, record in model_decisions(out / "hostile"):
        assert record.chosen == d.chosen
        attempts += record.attempts
    # No call is lost: every request the server answered is one attempt in the records.
    assert len(attempts) == requests > 0
    kinds = [a.error_kind for a in attempts]
    assert kinds.count("bad_response") >= len(BAD_BODY_KINDS) - 1
    huge = [a for a in attempts if a.answer_chars == HUGE]
    assert huge and all(len(a.raw_text or "") == STORED_TEXT_CHARS + 1 for a in huge)
    assert all(a.error_kind == "unparseable" for a in huge)
    # Stored once and capped: no line carries the 100 KB answer, let alone several copies.
    longest = max(
        len(line) for p in (out / "hostile").rglob("*.jsonl") for line in p.read_text().splitlines()
    )
    assert longest < HUGE
