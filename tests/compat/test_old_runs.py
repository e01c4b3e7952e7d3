"""Runs written by the code before the play floor and the split of the league read, replay and
resume the same with the code of today (issue 38: behaviour unchanged across the change).

The run folders were made by commit ``OLD_COMMIT`` (:mod:`tests.compat.old_runs`): a league of a
model player (fake OpenAI server) and three rule bots, once run to its end and once stopped by its
token cap in the middle of its third game."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from harness.play.ledger import SPEND_FILE, SpendLedger
from harness.records import RunStore
from harness.replay.verify import replay_game
from tests.fakes.openai_server import FakeOpenAIServer
from tests.league_run.model_league import game_files

from .old_runs import HERE, ROOT, bangarena, league, put_port, replay_data

pytest.importorskip("openai")


def _copy(name: str, into: Path) -> Path:
    run = into / f"out-{name}" / "old"
    shutil.copytree(HERE / name, run)
    return run


def _bangarena(*args: str) -> subprocess.CompletedProcess[str]:
    """``bangarena ARGS`` of this tree's code."""
    return bangarena(ROOT, ROOT, *args)


def test_an_old_runs_league_report_prints_what_the_old_code_printed(tmp_path: Path) -> None:
    run = _copy("complete", tmp_path)
    done = _bangarena("league", "report", str(run), "--no-save", "--no-progress")
    assert done.returncode == 0, done.stderr[-2000:]
    old = (HERE / "complete.league_report.txt").read_text(encoding="utf-8")
    assert done.stdout.replace(str(run), "RUN") == old


def test_an_old_runs_games_replay_and_show_as_they_did(tmp_path: Path) -> None:
    run = _copy("complete", tmp_path)
    store = RunStore(run)
    ids = [g.game_id for g in store.games()]
    assert len(ids) == 3
    for game_id in ids:
        result = replay_game(store, game_id)
        assert result.ok, result.summary()
    done = _bangarena("report", str(run), "--out", str(tmp_path / "html"), "--workers", "1",
                      "--no-progress")  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    old = json.loads((HERE / "complete.replay_data.json").read_text())
    assert replay_data(tmp_path / "html") == old


def test_a_run_stopped_by_the_old_code_resumes_into_the_old_codes_whole_run(
    tmp_path: Path,
) -> None:
    complete = _copy("complete", tmp_path)
    stopped = _copy("stopped", tmp_path)
    store = RunStore(stopped)
    assert len(store.games()) == 2
    partial = store.partial_game("4p-classic-0002")
    assert partial is not None and len(partial[1]) > 0  # stopped inside its third game
    with FakeOpenAIServer() as server:
        put_port(stopped, server.base_url)
        data = league("stopped", server.base_url, spending={"max_tokens": 10_000_000})
        data.update(name="old", output=str(stopped.parent))
        cfg = tmp_path / "resume.yaml"
        cfg.write_text(yaml.safe_dump(data))
        done = _bangarena("league", "run", str(cfg), "--resume", "--no-progress",
                          "--no-preflight")  # fmt: skip
        put_port(complete, server.base_url)
    assert done.returncode == 0, done.stderr[-2000:]
    resumed = game_files(stopped)
    assert list(resumed) == ["4p-classic-0000", "4p-classic-0001", "4p-classic-0002"]
    assert resumed == game_files(complete)
    tokens = [
        sum(x.tokens for x in SpendLedger(r / SPEND_FILE).lines()) for r in (stopped, complete)
    ]
    assert tokens[0] == tokens[1]
