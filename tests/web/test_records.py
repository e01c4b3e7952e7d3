"""A finished web game is a league record: ``replay``, ``inspect``, ``league report`` and
``report`` read the run folder unchanged, and people appear as players of kind ``human``."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli.main import main
from harness.records import RunStore
from harness.web.records import read_signals
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import Client, LiveServer, drive, no_timeouts


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("web-records")
    mp = pytest.MonkeyPatch()
    mp.setenv(KEY_ENV, SECRET_KEY)
    try:
        with FakeOpenAIServer() as fake:
            player = model_player("gpt-test", fake.base_url)
            with LiveServer(out, players=[player], seed=lambda: 77) as srv:
                a, b = Client(srv.ws_url), Client(srv.ws_url)
                a.send(type="create", name="Ann", settings={"seats": 5})
                code = a.wait_type("joined")["code"]
                b.send(type="join", code=code, name="Bob")
                b.wait_type("joined")
                a.send(type="seat_bot", seat=2, player="gpt-test")
                a.send(type="start")
                a.wait(lambda f: f["type"] == "view")
                a.send(type="signal", kind="claim", role="deputy")
                drive([a, b])
    finally:
        mp.undo()
    return out / "web"


def test_the_record_names_people_bots_and_the_model(run_dir: Path) -> None:
    store = RunStore(run_dir)
    (g,) = store.games()
    start, decisions, end = store.read_game(g.game_id)
    assert [(s.player, s.kind, s.model) for s in start.seating] == [
        ("Ann", "human", None),
        ("Bob", "human", None),
        ("gpt-test", "model", "openai/gpt-test"),
        ("bot", "bot", None),
        ("bot", "bot", None),
    ]
    assert [s.name for s in start.seating] == ["Ann", "Bob", "AI 3", "Bot 4", "Bot 5"]
    asked = [d for d in decisions if d.player in ("Ann", "Bob") and len(d.options) > 1]
    assert asked and all(d.latency_s > 0 and d.fallback is None for d in asked)
    assert not no_timeouts(run_dir)
    assert all(d.model is not None for d in decisions if d.seat == 2 and len(d.options) > 1)
    assert [o.kind for o in g.seat_outcomes] == ["human", "human", "model", "bot", "bot"]
    assert end.events and g.decisions == len(decisions)
    (sig,) = read_signals(run_dir)[g.game_id].signals
    assert (sig.seat, sig.kind, sig.role) == (0, "claim", "deputy")


def test_replay_verifies_the_web_game(run_dir: Path) -> None:
    assert main(["replay", str(run_dir), "--no-progress"]) == 0


def test_inspect_shows_a_persons_decisions(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inspect", str(run_dir), "--player", "Bob", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "Bob" in out


def test_league_report_has_people_in_the_win_rate_tables(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["league", "report", str(run_dir), "--no-save", "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "Bob" in out and "human" in out and "gpt-test" in out


def test_html_report_is_written(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "html"
    assert main(["report", str(run_dir), "--out", str(out), "--workers", "1"]) == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Ann" in index or any("Ann" in p.read_text("utf-8") for p in out.rglob("*.js"))
