"""``bangarena leaderboard``: comparable runs pool into the numbers of one league of all their
games; an incomparable run is left out with the reason; a player whose spec differs is told
apart; CSV and a self-contained HTML page are written; bad arguments are one line."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from harness.cli.main import main
from harness.report.leaderboard import leaderboard_table
from harness.runs import ROLE_ADJUSTED, compute_ratings, pool_runs
from harness.runs.stats import clustered_wilson, load_run

BASE = """\
name: {name}
players:
  - {{name: rulebot, kind: {kind}}}
  - {{name: random, kind: random}}
tables:
  - seats: [{seats}]
games_per_table: {games}
base_seed: {seed}
paired: true
"""


def _league(root: Path, name: str, seats: int = 4, seed: int = 1, kind: str = "bot") -> Path:
    cfg = root / f"{name}.yaml"
    games = 8 if seats == 4 else 5
    cfg.write_text(
        BASE.format(name=name, kind=kind, seats=seats, seed=seed, games=games), encoding="utf-8"
    )
    argv = ["league", "run", str(cfg), "--output", str(root / "out"), "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    return root / "out" / name


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("board")
    return {
        "a": _league(root, "runa"),
        "b": _league(root, "runb", seed=2),
        "five": _league(root, "runfive", seats=5),
        "other": _league(root, "runother", seed=3, kind="random"),  # rulebot is a random seat
    }


def _luck(run: Path) -> dict[str, list[float]]:
    lines = (run / "analysis" / "luck.jsonl").read_text().splitlines()
    return {d["game_id"]: d["adjusted"] for d in map(json.loads, lines)}


def test_two_comparable_runs_pool_into_one_league(runs: dict[str, Path]) -> None:
    pool = pool_runs([str(runs["a"]), str(runs["b"])])
    assert pool.left_out == [] and pool.notes == []
    table = leaderboard_table(pool, bootstrap=20)
    # counted independently from each run's games.jsonl and luck.jsonl
    rows = []
    for run in (runs["a"], runs["b"]):
        luck = _luck(run)
        for line in (run / "games.jsonl").read_text().splitlines():
            g = json.loads(line)
            for o in g["seat_outcomes"]:
                adjusted = luck[g["game_id"]][o["seat"]]
                rows.append((o["player"], o["role"], float(o["won"]), adjusted))
    expected = pd.DataFrame(rows, columns=["player", "role", "won", "adjusted"])
    agg = expected.groupby(["player", "role"]).agg(
        n=("won", "size"), raw=("won", "mean"), adj=("adjusted", "mean")
    )
    per_role = table[table["role"] != ROLE_ADJUSTED].set_index(["player", "role"])
    assert len(per_role) == len(agg)
    for key, e in agg.iterrows():
        assert per_role.loc[key, "seat_games"] == e["n"]
        assert per_role.loc[key, "raw"] == pytest.approx(e["raw"])
        assert per_role.loc[key, "adjusted"] == pytest.approx(e["adj"], abs=1e-9)
    assert (table[table["role"] != ROLE_ADJUSTED]["runs"] == 2).all()
    # ratings: one openskill run over both runs' games, in run order
    a, b = load_run(runs["a"]).seats, load_run(runs["b"]).seats
    a["game_id"] = "0:" + a["game_id"]
    b["game_id"] = "1:" + b["game_id"]
    rated = compute_ratings(pd.concat([a, b], ignore_index=True), bootstrap=0).set_index("player")
    overall = table[table["role"] == ROLE_ADJUSTED].set_index("player")
    for player in ("rulebot", "random"):
        assert overall.loc[player, "mu"] == pytest.approx(rated.loc[player, "mu"])
        assert overall.loc[player, "ordinal"] == pytest.approx(rated.loc[player, "ordinal"])
        assert overall.loc[player, "mu_lo"] <= overall.loc[player, "mu_hi"]
        assert overall.loc[player, "seat_games"] == 32  # 2 of 4 seats × 16 games


def test_an_incomparable_run_is_left_out_with_the_reason(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    newer = tmp_path / "newer"
    shutil.copytree(runs["b"], newer)
    recorded = json.loads((newer / "rules_version.json").read_text())
    assert recorded["rules_version"] == 1  # league run records it
    (newer / "rules_version.json").write_text(json.dumps({**recorded, "rules_version": 2}))
    pool = pool_runs([str(runs["a"]), str(runs["five"]), str(newer), str(runs["a"])])
    assert pool.runs == [str(runs["a"])]
    assert pool.left_out == [
        (str(runs["five"]), "seat counts 5 ≠ 4"),
        (str(newer), "rules version 2 ≠ 1"),
        (str(runs["a"]), "the same run folder was given before"),
    ]
    assert set(pool.seats["run"]) == {"runa"}


def test_a_player_with_another_spec_is_told_apart(runs: dict[str, Path]) -> None:
    pool = pool_runs([str(runs["a"]), str(runs["other"])])
    assert set(pool.seats["player"]) == {"rulebot", "random", "rulebot (runother)"}
    assert pool.notes == [
        "player rulebot of run runother differs from run runa in kind: shown as rulebot (runother)"
    ]
    assert pool.runs_of["random"] == ["runa", "runother"]


def test_the_command_writes_csv_and_html(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board"
    argv = ["leaderboard", str(runs["a"]), str(runs["b"]), str(runs["five"]), "--out", str(out),
            "--bootstrap", "10"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert f"left out {runs['five']}: seat counts 5 ≠ 4" in text
    with (out / "leaderboard.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["player"] for r in rows} == {"rulebot", "random"}
    assert (
        sum(int(r["seat_games"]) for r in rows if r["role"] != ROLE_ADJUSTED) == 64
    )  # 16 games × 4
    html = (out / "leaderboard.html").read_text(encoding="utf-8")
    assert "Left out" in html and "seat counts 5 ≠ 4" in html
    assert html.count("<tr") == len(rows) + 1
    assert "http://" not in html and "https://" not in html and "<script src" not in html


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["leaderboard", "/nonexistent/run"], "no run folder /nonexistent/run"),
        (["leaderboard", "{a}", "--out", "{file}"], "is not a folder"),
        (["leaderboard", "{a}", "--bootstrap", "-1"], "--bootstrap: must be at least 0"),
        (["leaderboard"], "the following arguments are required: RUN"),
    ],
)
def test_bad_arguments_are_one_line(
    argv: list[str],
    message: str,
    runs: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    file = tmp_path / "f.txt"
    file.write_text("x")
    argv = [a.format(a=runs["a"], file=file) for a in argv]
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_run_without_a_recorded_rules_version_is_version_1(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = tmp_path / "older"
    shutil.copytree(runs["b"], older)
    (older / "rules_version.json").unlink()
    pool = pool_runs([str(runs["a"]), str(older)])
    assert pool.left_out == [] and pool.key.rules_version == 1
    (older / "rules_version.json").write_text("{not json")
    assert main(["leaderboard", str(runs["a"]), str(older), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "rules_version.json is not a rules version record" in err
    assert len(err.strip().splitlines()) == 1


def test_a_game_pooled_twice_counts_once(runs: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(runs["a"], copy)  # the same games under another folder
    alone = leaderboard_table(pool_runs([str(runs["a"])]), bootstrap=10)
    pool = pool_runs([str(runs["a"]), str(copy)])
    assert pool.runs == [str(runs["a"])]
    assert pool.left_out == [(str(copy), "its games are those of run runa, pooled already")]
    pd.testing.assert_frame_equal(leaderboard_table(pool, bootstrap=10), alone)
    # a longer replay of the same seeds: its first 8 games are runa's, its other 4 are new
    cfg = tmp_path / "long.yaml"
    cfg.write_text(BASE.format(name="runlong", kind="bot", seats=4, seed=1, games=12))
    argv = ["league", "run", str(cfg), "--output", str(tmp_path / "out"), "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    longer = load_run(tmp_path / "out" / "runlong")
    pool = pool_runs([str(runs["a"]), str(tmp_path / "out" / "runlong")])
    assert pool.notes == [
        "8 of the 12 games of run runlong were pooled already from an earlier run: counted once"
    ]
    assert pool.seats["game_id"].nunique() == 12
    assert len(pool.seats) == len(longer.seats)
    kept = pool.seats[pool.seats["run"] == "runlong"]
    new = set(longer.seats["game_id"]) - set(load_run(runs["a"]).seats["game_id"])
    assert {g.split("/", 1)[1] for g in kept["game_id"]} == new


@pytest.mark.parametrize("config", ['{"players": 5}', '{"players": [1, {"name": "rulebot"}]}'])
def test_a_run_config_of_the_wrong_shape_is_read_as_none(
    config: str, runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "odd"
    shutil.copytree(runs["b"], odd)
    (odd / "config.json").write_text(config)
    pool = pool_runs([str(runs["a"]), str(odd)])
    assert pool.left_out == [] and pool.specs["random"] == {"kind": "random"}
    assert main(["leaderboard", str(odd), "--out", str(tmp_path / "o"), "--bootstrap", "0"]) == 0
    assert main(["league", "report", str(odd)]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_runs_of_the_same_seeds_share_their_deals(runs: dict[str, Path], tmp_path: Path) -> None:
    """Two runs that played the same seeds at the same table share those deals: one cluster
    each in every pooled interval (docs/statistics.md)."""
    same = _league(tmp_path, "runsame", kind="random")  # run a's seeds, other players' games
    pool = pool_runs([str(runs["a"]), str(same)])
    assert pool.left_out == []
    assert (pool.seats.groupby("deal_key")["run"].nunique() == 2).all()
    table = leaderboard_table(pool, bootstrap=0)
    row = table[(table["player"] == "random") & (table["role"] == "raider")].iloc[0]
    seats = pool.seats[(pool.seats["player"] == "random") & (pool.seats["role"] == "raider")]
    by_deal = clustered_wilson(seats["won"], seats["deal_key"])
    assert (row["raw_lo"], row["raw_hi"]) == pytest.approx(by_deal)
    assert by_deal != pytest.approx(clustered_wilson(seats["won"], seats["game_id"]))


def test_a_run_with_some_of_the_first_runs_cells_is_pooled_with_a_note(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    """A run whose table sizes (or modes) are a subset of the first run's is pooled, with a note;
    one that plays a size the first run does not is still left out (issue 36)."""
    wide = tmp_path / "wide"
    both = BASE.replace("seats: [{seats}]", "seats: [4, 5]")
    (tmp_path / "wide.yaml").write_text(
        both.format(name="wide", kind="bot", seats="", seed=4, games=4), encoding="utf-8"
    )
    argv = ["league", "run", str(tmp_path / "wide.yaml"), "--output", str(tmp_path), "--workers",
            "1", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    pool = pool_runs([str(wide), str(runs["five"]), str(runs["a"])])
    assert pool.runs == [str(wide), str(runs["five"]), str(runs["a"])] and not pool.left_out
    assert pool.notes == [
        "run runfive plays only modes classic and seat counts 5 of the first run's",
        "run runa plays only modes classic and seat counts 4 of the first run's",
    ]
    assert set(pool.seats["run"]) == {"wide", "runfive", "runa"}
    narrow = pool_runs([str(runs["a"]), str(wide)])
    assert narrow.left_out == [(str(wide), "seat counts 4, 5 ≠ 4")]


def test_players_are_ranked_by_score_with_units_one_way(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36: the leaderboard sorts players by role-adjusted score (not by name), prints
    win rates in % and role-adjusted scores in pp, never a rate below 0 % or above 100 %, and
    its page opens with the report's front in the same order."""
    out = tmp_path / "board"
    argv = ["leaderboard", str(runs["a"]), str(runs["b"]), "--out", str(out), "--bootstrap", "10"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    with (out / "leaderboard.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    score = {r["player"]: float(r["raw"]) for r in rows if r["role"] == ROLE_ADJUSTED}
    ranked = sorted(score, key=lambda p: -score[p])
    assert ranked[0] == "rulebot" and score["rulebot"] > score["random"]  # rule bots beat random
    order = list(dict.fromkeys(r["player"] for r in rows))
    assert order == ranked  # "random" is not above "rulebot" by name
    lines = [ln for ln in text.splitlines() if ln.startswith("  ") and ln.split()[0] in score]
    assert list(dict.fromkeys(ln.split()[0] for ln in lines)) == ranked
    for ln in lines:
        cells = ln[49:]
        if ROLE_ADJUSTED in ln:
            assert cells.count(" pp") == 2 and "%" not in cells, ln
        else:
            assert " pp" not in cells and cells.count("%") >= 2, ln
            assert "-" not in cells.replace("–", ""), ln  # no negative win rate
            assert all(float(v) <= 100.0 for v in re.findall(r"(\d+\.\d)%", cells)), ln
    html = (out / "leaderboard.html").read_text(encoding="utf-8")
    front = html[html.index('id="front-scores"') : html.index('id="front-roles"')]
    assert [front.index(f">{p}<") for p in ranked] == sorted(front.index(f">{p}<") for p in ranked)
