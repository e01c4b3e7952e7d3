"""`bangarena position` and `bangarena bench engine`: output, and one-line errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli.main import main

EXAMPLE = str(Path(__file__).resolve().parents[1] / "positions" / "duel_example.json")


def test_position_prints_the_pending_decision(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", EXAMPLE, "--do", "play:duel@1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pending: seat 1 · respond_duel · options: match:ricochet take")


def test_position_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", EXAMPLE, "--do", "play:duel@1", "match:ricochet", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pending"] == {"seat": 0, "kind": "respond_duel", "options": ["match:shot", "take"]}
    assert data["position"]["seats"][1]["hand"] == []


def test_illegal_action_names_the_legal_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", EXAMPLE, "--do", "play:shot@9"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "illegal action 'play:shot@9'" in err and "legal: play:shot@1" in err


def test_malformed_action(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", EXAMPLE, "--do", "fire!"]) == 2
    err = capsys.readouterr().err
    assert "malformed action id 'fire!'" in err and "legal:" in err


def test_bad_position_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"seats": [1, 2, 3, 4]}')
    assert main(["position", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bangarena: error: position field seats.0") and err.count("\n") == 1
    bad.write_text("{not json")
    assert main(["position", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["position", str(tmp_path / "missing.json")]) == 2


def test_write_resulting_position(tmp_path: Path) -> None:
    out = tmp_path / "next.json"
    assert main(["position", EXAMPLE, "--do", "play:duel@1", "--write", str(out)]) == 0
    assert json.loads(out.read_text())["stack"][-1][0] == "respond_duel"


def test_bench_engine_prints_a_final_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--games", "5"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert data["benchmark"] == "engine" and data["games"] == 5 and data["decisions_per_s"] > 0


def test_bad_cli_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["bench", "engine", "--seats", "12"])
    assert e.value.code == 2
    assert "seats must be 4..8" in capsys.readouterr().err


def test_play_watch_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--watch", "--opponents", "random", "--seed", "3", "--seats", "4"]) == 0
    out = capsys.readouterr().out
    assert "Round 1" in out and "Game over" in out
