"""Progress between games (issue 26): when stderr is not a terminal, ``league run`` prints a line
every ``--progress-interval`` seconds even in the middle of a game longer than the interval, and
the line counts the decisions made and model calls sent so far, not only finished games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.records import RunStore
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer

from .model_league import run_dir, write_league

pytest.importorskip("openai")

LINE = re.compile(r"^league: (\d+)/1 games? .* · (\d+) decisions? · (\d+) model calls? · ")


def test_a_long_game_prints_progress_with_its_decisions_before_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.delay_s = 0.3  # a slow model: the one game takes a few seconds
        cfg = write_league(
            tmp_path / "slow.yaml", server, name="slow", model_players=1, bots=3,
            games_per_table=1, paired=False,
        )  # fmt: skip
        argv = ["league", "run", str(cfg), "--no-preflight", "--progress-interval", "0.3"]
        assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    [game] = RunStore(run_dir(cfg)).games()
    during = [m for line in err if (m := LINE.match(line)) and m.group(1) == "0"]
    assert len(during) >= 2, err  # lines came while the only game was still in play
    decisions = [int(m.group(2)) for m in during]
    calls = [int(m.group(3)) for m in during]
    assert decisions == sorted(decisions) and 0 < decisions[-1] < game.decisions
    assert calls[-1] > 0
    finished = [line for line in err if line.startswith("finished 1/1 game in ")]
    assert finished and f"· {game.decisions} decisions · " in finished[0]
