"""Long commands show their progress while they work (issue 36): ``league report --luck`` while
it computes the luck-adjusted scores (nothing once they are stored) and ``prompt-stats`` while it
plays its sampled games; ``--no-progress`` turns both off."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from harness.bench.progress_display import Progress
from harness.cli import league_report_cmd, prompt_stats_cmd
from harness.cli.main import main

from ..bot_league import play_league

CONFIG = """name: luck
players:
  - name: bot
    kind: bot
  - name: rnd
    kind: random
tables:
  - seats: [4]
    modes: [classic]
games_per_table: 3
base_seed: 2
paired: false
"""


def _every_step(monkeypatch: pytest.MonkeyPatch, module: object) -> None:
    """The command's progress writes a plain line at every step (not every 10 s)."""
    monkeypatch.setattr(module, "Progress", functools.partial(Progress, interval=0, terminal=False))


def test_league_report_luck_shows_its_progress_until_the_scores_are_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = play_league(tmp_path, CONFIG, "luck")
    capsys.readouterr()
    _every_step(monkeypatch, league_report_cmd)
    assert main(["league", "report", str(run), "--luck", "--no-save"]) == 0
    err = capsys.readouterr().err.splitlines()
    steps = [line for line in err if line.startswith("luck-adjusted scores: ")]
    counts = [re.match(r"luck-adjusted scores: (\d/3) games", s) for s in steps]
    assert [c.group(1) for c in counts if c] == ["0/3", "1/3", "2/3", "3/3", "3/3"]
    assert "ETA" in steps[1] and "done in" in steps[-1]
    assert main(["league", "report", str(run), "--luck", "--no-save"]) == 0  # all stored now
    assert not [x for x in capsys.readouterr().err.splitlines() if x.startswith("luck")]
    (run / "analysis" / "luck.jsonl").unlink()
    assert main(["league", "report", str(run), "--luck", "--no-save", "--no-progress"]) == 0
    assert not [x for x in capsys.readouterr().err.splitlines() if x.startswith("luck")]


def test_prompt_stats_shows_its_progress_per_sampled_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _every_step(monkeypatch, prompt_stats_cmd)
    argv = ["prompt-stats", "--games", "2", "--seats", "4", "--tokenizer", "estimate"]
    assert main([*argv, "--history", "log"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line.split(" · ")[0] for line in err] == [
        "prompt-stats: 1/2 games (50.0 %)",
        "prompt-stats: 2/2 games (100.0 %)",
        "prompt-stats: 2/2 games (100.0 %)",
    ]
    assert main([*argv, "--history", "log", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
