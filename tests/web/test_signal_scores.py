"""People's table talk is scored like the models' (issue 23 item 3): a person's claims and marks
at the web table are recorded with the game (``signals.jsonl``) and ``league report`` on the web
run folder scores them by the person's and the marked player's true roles."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.records import RunStore
from harness.runs import build_report
from harness.runs.talk_table import team_role
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import LiveServer
from .test_signals import play_one


def test_league_report_scores_a_persons_claims_and_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as fake:
        player = model_player("gpt-test", fake.base_url)
        with LiveServer(tmp_path, players=[player], seed=lambda: 4242) as srv:
            play_one(srv, signals=True)  # Ann claims Deputy, marks seat 1 Raider, reacts
    run = tmp_path / "web"
    (g,) = RunStore(run).games()
    ann = next(o for o in g.seat_outcomes if o.seat == 0)
    marked = next(o for o in g.seat_outcomes if o.seat == 1)
    report = build_report(run)
    assert report.talk.startswith("Table talk: people's signals")
    row = report.signals.set_index(["player", "role"]).loc[(ann.player, ann.role)]
    assert (row["claims"], row["as_deputy"], row["marks"], row["reactions"]) == (1, 1, 1, 1)
    assert row["honest"] == float(team_role(ann.role) == "deputy")
    assert row["accurate"] == float(team_role(marked.role) == "raider")
    effect = report.claim_effect.set_index(["player", "claimed"]).loc[(ann.player, "deputy")]
    assert effect["claims"] == 1
