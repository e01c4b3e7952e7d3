"""Wording a newcomer stumbled on (issue 36): one error for every table size outside 4..8; a
resumed run with nothing left says so instead of "0 decisions"; counts take their plural
("1 run", not "1 runs")."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli.main import main

from ..bot_league import play_league

CONFIG = """name: done
players:
  - name: bot
    kind: bot
  - name: rnd
    kind: random
tables:
  - seats: [4]
    modes: [classic]
games_per_table: 2
base_seed: 6
paired: false
"""


@pytest.mark.parametrize("command", [["play"], ["ask"], ["prompt-stats"]])
def test_every_table_size_outside_4_to_8_gets_the_same_error(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    errors = set()
    for seats in ("-1", "0", "3", "9", "12"):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--seats", seats])
        assert stop.value.code == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        errors.add(line)
    assert errors == {
        f"bangarena {command[0]}: error: argument --seats: seats must be 4..8 (see --help)"
    }


def test_a_resumed_finished_run_says_it_is_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = play_league(tmp_path, CONFIG, "done")
    capsys.readouterr()
    argv = ["league", "run", str(tmp_path / "done.yaml"), "--output", str(tmp_path / "out"),
            "--resume", "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == f"league done: all 2 games already finished → {run}"
    assert "decisions" not in out + err and "0/" not in err


def test_the_leaderboard_counts_runs_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = play_league(tmp_path, CONFIG, "done")
    capsys.readouterr()
    assert main(["leaderboard", str(run), "--out", str(tmp_path / "board")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"leaderboard: 2 games from 1 run ({run});"), first
