"""No model call is lost to a stop (issue 11): a run killed (SIGKILL) or stopped (SIGTERM) in the
middle of a model game keeps every decision made so far (each is appended to the game's file as it
is made); ``--resume`` replays them through the engine and the seats (same seed, same choices,
events verified) and continues from the next decision, asking the model nothing twice except the
calls that were in flight at the stop.  The resumed games equal those of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harness.records import RunStore
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer

from .model_league import (
    ROOT,
    game_files,
    league_args,
    request_bodies,
    run_dir,
    run_league,
    write_league,
)

pytest.importorskip("openai")

CONCURRENT = 2
GAMES = 4
KILL_AFTER = 25  # decisions in some game's file


def league(path: Path, server: FakeOpenAIServer) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return write_league(
        path / "resume.yaml",
        server,
        name="resume",
        games_per_table=GAMES,
        max_concurrent_games=CONCURRENT,
    )


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[str]]:
    """The games and model requests of the run played without a stop."""
    mp = pytest.MonkeyPatch()
    mp.setenv(KEY_ENV, SECRET_KEY)
    try:
        with FakeOpenAIServer() as server:
            cfg = league(tmp_path_factory.mktemp("whole"), server)
            assert run_league(cfg) == 0
            return game_files(run_dir(cfg)), request_bodies(server)
    finally:
        mp.undo()


def _recorded_prompts(run: Path) -> set[str]:
    """The user prompt of every model decision recorded in the files of unfinished games."""
    store = RunStore(run)
    finished = store.finished_ids()
    out = set()
    for f in store.games_dir.glob("*.jsonl"):
        partial = store.partial_game(f.stem) if f.stem not in finished else None
        for d in partial[1] if partial else []:
            if d.model and d.model.get("messages"):
                out.add(d.model["messages"][0]["content"])
    return out


def _decisions_in_flight(run: Path) -> int:
    """The most decision lines in the file of a game not finished yet."""
    store = RunStore(run)
    finished = store.finished_ids() if store.games_path.exists() else set()
    most = 0
    for f in store.games_dir.glob("*.jsonl"):
        if f.stem not in finished:
            most = max(most, len(f.read_text().splitlines()) - 1)
    return most


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_stopped_model_game_resumes_to_the_uninterrupted_game(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sig: signal.Signals,
    uninterrupted: tuple[dict[str, Any], list[str]],
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    whole_games, whole_requests = uninterrupted
    with FakeOpenAIServer() as server:
        server.script.delay_s = 0.01
        cfg = league(tmp_path, server)
        run = run_dir(cfg)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "harness.cli.main", *league_args(cfg)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if run.exists() and _decisions_in_flight(run) >= KILL_AFTER:
                break
            time.sleep(0.01)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        before = RunStore(run).games()
        assert len(before) < GAMES, "the run ended before the stop"
        kept = _decisions_in_flight(run)
        assert kept >= KILL_AFTER
        if sig == signal.SIGTERM:
            assert proc.returncode == 128 + signal.SIGTERM
            lines = err.splitlines()
            assert len(lines) == 1, err
            assert "interrupted by SIGTERM" in lines[0] and "--resume" in lines[0]
            assert str(cfg) in lines[0]
        else:
            assert proc.returncode == -signal.SIGKILL
        recorded = _recorded_prompts(run)

        assert run_league(cfg, "--resume") == 0
        bodies = request_bodies(server)

    # the resumed games are the uninterrupted ones (timing fields aside)
    assert game_files(run) == whole_games
    # every model call of the uninterrupted run was made; only calls in flight were made twice
    assert Counter(bodies).keys() == Counter(whole_requests).keys()
    repeated = sum(n - 1 for n in Counter(bodies).values())
    assert repeated <= CONCURRENT, f"{repeated} requests repeated"
    assert len(bodies) == len(whole_requests) + repeated
    # what was asked twice was in flight at the stop: its decision had not been recorded
    for body, n in Counter(bodies).items():
        if n > 1:
            assert json.loads(body)["messages"][-1]["content"] not in recorded
