"""``bangarena leaderboard`` shows the stored advantage-adjusted score (``RUN/analysis/
advantage.jsonl``, computed by ``league report --advantage``) with its deal-clustered interval as
a column, as ``league report --luck`` does; without stored scores the column is absent, and a
row whose seats do not all have one shows "–".  Only the command line is used (the league's
reading modules may move)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from harness.cli.main import main

CONFIG = """\
name: {name}
players:
  - {{name: rulebot, kind: bot}}
  - {{name: random, kind: random}}
tables:
  - seats: [4]
games_per_table: 4
base_seed: {seed}
paired: true
"""


def _league(root: Path, name: str, seed: int) -> Path:
    cfg = root / f"{name}.yaml"
    cfg.write_text(CONFIG.format(name=name, seed=seed), encoding="utf-8")
    argv = ["league", "run", str(cfg), "--output", str(root / "out"), "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    return root / "out" / name


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("board_adv")
    scored = _league(root, "scored", seed=11)
    assert main(["league", "report", str(scored), "--advantage", "--no-progress", "--no-save"]) in (
        0,
        3,
    )
    assert (scored / "analysis" / "advantage.jsonl").is_file()
    return {"scored": scored, "plain": _league(root, "plain", seed=12)}


def _board(runs: list[Path], out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list, str]:
    capsys.readouterr()
    argv = ["leaderboard", *map(str, runs), "--out", str(out), "--bootstrap", "0"]
    assert main(argv) == 0
    with (out / "leaderboard.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return rows, capsys.readouterr().out


def _stored(run: Path) -> dict[tuple[str, str], list[float]]:
    """(player, role) → the stored advantage-adjusted scores of its seats, read independently
    from games.jsonl and advantage.jsonl."""
    adv = {
        d["game_id"]: d["adjusted"]
        for d in map(json.loads, (run / "analysis" / "advantage.jsonl").read_text().splitlines())
    }
    out: dict[tuple[str, str], list[float]] = {}
    for line in (run / "games.jsonl").read_text().splitlines():
        g = json.loads(line)
        for o in g["seat_outcomes"]:
            out.setdefault((o["player"], o["role"]), []).append(adv[g["game_id"]][o["seat"]])
    return out


def test_the_stored_advantage_adjusted_score_is_a_column(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, text = _board([runs["scored"]], tmp_path / "board", capsys)
    stored = _stored(runs["scored"])
    per_role = [r for r in rows if (r["player"], r["role"]) in stored]
    assert per_role
    for r in per_role:
        values = stored[(r["player"], r["role"])]
        assert float(r["advantage"]) == pytest.approx(sum(values) / len(values), abs=1e-5)
        lo, hi = r["adv_lo"], r["adv_hi"]
        if lo:  # an interval around the mean (none with one deal)
            assert float(lo) <= float(r["advantage"]) <= float(hi)
    assert "advantage [95% CI]" in text
    html = (tmp_path / "board" / "leaderboard.html").read_text(encoding="utf-8")
    assert "advantage-adjusted: % or pp" in html
    assert html.count("<tr") == len(rows) + 1


def test_without_stored_scores_there_is_no_column(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, text = _board([runs["plain"]], tmp_path / "board", capsys)
    assert rows and all(r["advantage"] == "" for r in rows)  # NaN in the CSV
    assert "advantage [95% CI]" not in text
    html = (tmp_path / "board" / "leaderboard.html").read_text(encoding="utf-8")
    assert "advantage-adjusted" not in html


def test_a_row_whose_seats_are_not_all_scored_shows_a_dash(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row's mean is over all its seats or none (an average over only some seats would not be
    the player's score): pooled with a run without stored scores, no row has one; a run with
    one game's scores dropped shows "–" in the rows that have a seat in it."""
    rows, _ = _board([runs["scored"], runs["plain"]], tmp_path / "board", capsys)
    assert all(r["advantage"] == "" for r in rows)
    copy = tmp_path / "scored_copy"
    shutil.copytree(runs["scored"], copy)
    lines = (copy / "analysis" / "advantage.jsonl").read_text().splitlines()
    (copy / "analysis" / "advantage.jsonl").write_text("\n".join(lines[1:]) + "\n")
    rows, text = _board([copy], tmp_path / "board2", capsys)
    assert "advantage [95% CI]" in text
    blank = {r["advantage"] == "" for r in rows}
    assert blank == {True, False}, rows
    assert "–" in text
