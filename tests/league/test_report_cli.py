"""``bangarena league report`` on a tiny real league: tables printed, CSV and Markdown written;
a bad run folder is one line on stderr and exit code 2."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from harness.cli.main import main
from harness.runs import build_report

CONFIG = """\
name: tiny
players:
  - name: rulebot
    kind: bot
  - name: random
    kind: random
tables:
  - seats: [4, 5]
    modes: [classic]
games_per_table: 2
base_seed: 3
paired: true
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("league")
    cfg = root / "tiny.yaml"
    cfg.write_text(CONFIG, encoding="utf-8")
    code = main(
        [
            "league",
            "run",
            str(cfg),
            "--output",
            str(root / "out"),
            "--workers",
            "1",
            "--no-progress",
        ]  # fmt: skip
    )
    assert code == 0
    return root / "out" / "tiny"


def test_report_prints_tables_and_writes_files(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["league", "report", str(run_dir), "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "League report — run tiny: 4 games" in out
    assert "Win rate by player × role" in out
    lines = out.splitlines()
    for player in ("rulebot", "random"):
        assert any(player in line and "marshal" in line for line in lines), player
        assert any(player in line and "raider" in line for line in lines), player
    report = run_dir / "report"
    with (report / "win_rates.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["player"] for r in rows} == {"rulebot", "random"}
    assert sum(int(r["games"]) for r in rows) == 4 + 5 + 4 + 5  # every seat of every game
    summary = list(csv.DictReader((report / "summary.csv").open(encoding="utf-8")))
    assert {r["player"] for r in summary} == {"rulebot", "random"}
    for name in ("role_adjusted", "ratings", "rates", "base_rates"):
        assert (report / f"{name}.csv").is_file()
    md = (report / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# League report — run tiny")
    assert "| player | role | games | wins | win rate | 95% CI |" in md


def test_report_from_python_matches_records(run_dir: Path) -> None:
    r = build_report(run_dir, bootstrap=10)
    assert r.games == 4 and r.seat_games == 18
    assert int(r.win_rates["games"].sum()) == 18
    assert set(r.ratings["player"]) == {"rulebot", "random"}
    assert (r.rates["decisions"] > 0).all()


def test_no_save_writes_nothing(tmp_path: Path, run_dir: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy, ignore=shutil.ignore_patterns("report"))
    assert main(["league", "report", str(copy), "--no-save", "--bootstrap", "0"]) == 0
    assert not (copy / "report").exists()


@pytest.mark.parametrize("kind", ["missing", "empty", "malformed"])
def test_bad_run_folder_is_one_line_exit_2(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    if kind != "missing":
        folder.mkdir()
    if kind == "malformed":
        (folder / "games.jsonl").write_text('{"oops": 1}\n{"oops": 2}\n', encoding="utf-8")
    assert main(["league", "report", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bangarena: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_report_of_a_model_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A model seat against the instant local server: its calls, tokens and cost reach the
    rates table from the records."""
    from harness.bench.instant_server import InstantServer

    with InstantServer() as server:
        cfg = tmp_path / "model.yaml"
        model = {"provider": "openai", "model": "instant", "base_url": server.base_url,
                 "price": {"input": 1.0, "output": 2.0}}  # fmt: skip
        config = {
            "name": "withmodel",
            "players": [
                {"name": "fast", "kind": "model", "model": model},
                {"name": "rulebot", "kind": "bot"},
            ],
            "tables": [{"seats": [4], "modes": ["classic"]}],
            "games_per_table": 2,
        }
        cfg.write_text(yaml.safe_dump(config), encoding="utf-8")
        out_dir = tmp_path / "out"
        assert main(["league", "run", str(cfg), "--output", str(out_dir), "--no-progress"]) == 0
    assert server.served and server.served > 0
    capsys.readouterr()
    assert main(["league", "report", str(out_dir / "withmodel"), "--bootstrap", "5"]) == 0
    assert "openai/instant" in capsys.readouterr().out
    rates = build_report(out_dir / "withmodel", bootstrap=0).rates.set_index("player")
    fast = rates.loc["fast"]
    # every call the server served is in the records, but the preflight's sample decision
    assert fast["model_calls"] == server.served - 1 and fast["fallback_rate"] == 0.0
    assert fast["tokens_per_game"] > 0 and fast["cost_per_game_usd"] > 0
    assert rates.loc["rulebot", "cost_usd"] == 0.0
