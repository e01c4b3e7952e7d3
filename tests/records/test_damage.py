"""Damage and bad paths: a run folder that cannot be written is one line; a damaged game file
is reported on one line and skipped while the rest of the run still reads (replay, inspect,
analyze, inspect --blunders, report, league report --luck); a damaged line of ``games.jsonl`` is
reported, and a resumed run writes after it on a line of its own (issue 36)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.records import RunStore
from harness.records.notices import RecordWarning
from harness.records.store import DamagedGame

from ..bot_league import play_league

CONFIG = """name: {name}
players:
  - name: bot
    kind: bot
  - name: rnd
    kind: random
tables:
  - seats: [4]
    modes: [classic]
games_per_table: 4
base_seed: 5
paired: false
output: {output}
"""
DAMAGED = "4p-classic-0001"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("damage")
    return play_league(root, CONFIG.format(name="dmg", output=root / "out"), "dmg")


@pytest.fixture
def run(played: Path, tmp_path: Path) -> Path:
    """A copy of the run whose game ``DAMAGED`` has lost its end (cut mid-line)."""
    dst = tmp_path / "out" / "dmg"
    shutil.copytree(played, dst)
    path = dst / "games" / f"{DAMAGED}.jsonl"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 200], encoding="utf-8")
    return dst


def _err_lines(capsys: pytest.CaptureFixture[str]) -> tuple[str, list[str]]:
    captured = capsys.readouterr()
    return captured.out, captured.err.strip().splitlines()


def _warnings(err: list[str]) -> list[str]:
    return [line for line in err if line.startswith("bangarena: warning: ")]


# ------------------------------------------------------------------------- bad output paths


def _config(tmp_path: Path, output: str, name: str = "t") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(CONFIG.format(name=name, output=output), encoding="utf-8")
    return str(path)


def test_a_run_folder_under_a_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["league", "run", _config(tmp_path, str(blocker)), "--no-progress"]) == 2
    _out, err = _err_lines(capsys)
    assert err == [
        f"bangarena: error: cannot create the run folder {blocker / 't'}: {blocker} is a file, "
        "not a folder"
    ]
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_a_run_folder_that_is_a_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "t").write_text("not a folder", encoding="utf-8")
    config = _config(tmp_path, str(tmp_path / "out"))
    assert main(["league", "run", config, "--no-progress"]) == 2
    _out, err = _err_lines(capsys)
    assert len(err) == 1 and err[0].endswith(
        f"{tmp_path / 'out' / 't'}: it is a file, not a folder"
    )


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux /proc")
def test_a_run_folder_that_cannot_be_made_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["league", "run", _config(tmp_path, "/proc/nope"), "--no-progress"]) == 2
    _out, err = _err_lines(capsys)
    assert len(err) == 1, err
    assert err[0].startswith("bangarena: error: cannot create the run folder /proc/nope/t: ")


def test_an_out_folder_under_a_file_is_one_line(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["leaderboard", str(played), "--out", str(blocker / "board")]) == 2
    _out, err = _err_lines(capsys)
    assert err == [
        f"bangarena: error: cannot write {blocker / 'board'}: {blocker} is a file, not a folder"
    ]


def test_any_command_names_a_path_it_cannot_write_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command without its own wording for it (``quiz build --out``) still ends with one line
    naming the path, not a traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["quiz", "build", "--n", "1", "--out", str(blocker / "quiz")]) == 2
    _out, err = _err_lines(capsys)
    assert err == [
        f"bangarena: error: cannot use {blocker / 'quiz'}: {blocker} is a file, not a folder"
    ]


# ------------------------------------------------------------------------- a damaged game


def test_replay_verifies_the_rest_and_names_the_damaged_game(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(run), "--no-progress"]) == 1  # not every game is verified
    out, err = _err_lines(capsys)
    assert out.strip().splitlines()[-1].startswith("verified: 3 games, ")
    assert out.strip().endswith("; 1 of 4 games damaged, not verified")
    path = run / "games" / f"{DAMAGED}.jsonl"
    assert err == [
        f"bangarena: warning: {path}: line {len(path.read_text().splitlines())} is not the "
        f"game's end (the file is cut short); game {DAMAGED} skipped"
    ]


def test_inspect_reads_the_other_games_and_refuses_only_the_damaged_one(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = RunStore(run)
    others = sum(len(store.read_game(g.game_id)[1]) for g in store.games() if g.game_id != DAMAGED)
    assert main(["inspect", str(run), "--limit", "1", "--forced"]) == 0
    _out, err = _err_lines(capsys)
    assert len(_warnings(err)) == 1 and DAMAGED in _warnings(err)[0]
    assert err[-1] == f"1 of {others} matching decisions shown (--limit)"
    assert main(["inspect", str(run), "--game", DAMAGED]) == 2
    _out, err = _err_lines(capsys)
    assert len(err) == 1 and err[0].startswith(f"bangarena: error: {run / 'games' / DAMAGED}")


def test_analyze_and_inspect_blunders_skip_the_damaged_game(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(run), "--worlds", "1", "--workers", "1", "--no-progress"]) == 0
    out, err = _err_lines(capsys)
    assert len(_warnings(err)) == 1 and f"game {DAMAGED} not analysed" in err[0]
    assert out.startswith("analyzed 3 games, ")
    moves = (run / "analysis" / "moves.jsonl").read_text(encoding="utf-8").splitlines()
    analysed = [json.loads(x)["game_id"] for x in moves]
    assert sorted(analysed) == sorted(
        g.game_id for g in RunStore(run).games() if g.game_id != DAMAGED
    )
    assert main(["inspect", str(run), "--mistakes", "--limit", "1"]) == 0
    _out, err = _err_lines(capsys)
    assert len(_warnings(err)) == 1 and "matching decisions shown (--limit)" in err[-1]


def test_the_report_and_the_luck_table_read_the_rest(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(run), "--no-progress", "--workers", "1"]) == 0
    out, err = _err_lines(capsys)
    assert "(4 games," in out and f"game {DAMAGED} has no replay" in out
    assert main(["league", "report", str(run), "--luck", "--no-save"]) == 0
    out, err = _err_lines(capsys)
    assert len(_warnings(err)) == 1 and DAMAGED in err[0]
    assert "Luck-adjusted" in out


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda lines: lines[:-1], "line {n} is not the game's end (the file is cut short)"),
        (lambda lines: [lines[0], "{", *lines[2:]], "line 2 is not a decision record"),
        (lambda lines: ["{", *lines[1:]], "line 1 is not the game start"),
        (lambda lines: lines[:1], "ends after the game's start"),
        (lambda lines: [], "empty, not a game record"),
    ],
)
def test_each_damage_is_named(played: Path, tmp_path: Path, edit: object, why: str) -> None:
    dst = tmp_path / "dmg"
    shutil.copytree(played, dst)
    path = dst / "games" / f"{DAMAGED}.jsonl"
    lines = edit(path.read_text(encoding="utf-8").splitlines())  # type: ignore[operator]
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    with pytest.raises(DamagedGame) as caught:
        RunStore(dst).read_game(DAMAGED)
    assert str(caught.value) == f"{path}: {why.format(n=len(lines))}"
    assert caught.value.game_id == DAMAGED


def test_a_game_file_that_is_not_text_is_damaged(played: Path, tmp_path: Path) -> None:
    dst = tmp_path / "dmg"
    shutil.copytree(played, dst)
    path = dst / "games" / f"{DAMAGED}.jsonl"
    path.write_bytes(b"\xff\xfe" + path.read_bytes())
    store = RunStore(dst)
    with pytest.warns(RecordWarning, match=f"not UTF-8 text.*game {DAMAGED} skipped"):
        ids = [
            start.game_id for start, _d, _e in store.read_games(g.game_id for g in store.games())
        ]
    assert DAMAGED not in ids and len(ids) == 3


# ------------------------------------------------------------------------- games.jsonl


def _tear_last_line(run: Path) -> str:
    """Cut ``games.jsonl``'s last line mid-record (a kill mid-write); the torn game's id."""
    path = run / "games.jsonl"
    text = path.read_text(encoding="utf-8")
    last = text.splitlines()[-1]
    path.write_text(text[: len(text) - len(last) // 2], encoding="utf-8")
    return str(json.loads(last)["game_id"])


def test_a_torn_last_line_of_games_jsonl_is_reported_once(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _tear_last_line(run)
    assert main(["league", "report", str(run), "--no-save"]) == 0
    out, err = _err_lines(capsys)
    assert _warnings(err) == [
        f"bangarena: warning: {run / 'games.jsonl'}: line 4 is damaged and skipped (its game is "
        "not counted as finished; league run --resume plays it again)"
    ]
    assert "3 games" in out.splitlines()[0]


def test_a_damaged_middle_line_of_games_jsonl_leaves_the_rest(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = run / "games.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1] = "{not json"
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    with pytest.warns(RecordWarning, match="line 2 is damaged and skipped"):
        assert len(RunStore(run).games()) == 3


def test_a_resumed_run_writes_after_a_torn_line_and_then_reads_whole(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "out" / "dmg"
    shutil.copytree(played, run)
    torn = _tear_last_line(run)
    config = _config(tmp_path, str(tmp_path / "out"), "dmg")
    assert main(["league", "run", config, "--resume", "--workers", "1", "--no-progress"]) == 0
    _out, err = _err_lines(capsys)
    games = RunStore(run).games()  # the torn line stays, alone; its game was played again
    assert sorted(g.game_id for g in games) == sorted(g.game_id for g in RunStore(played).games())
    assert [g.game_id for g in games][-1] == torn
    assert main(["league", "report", str(run), "--no-save"]) == 0
    out, err = _err_lines(capsys)
    assert not _warnings(err), err  # nothing is missing any more
    assert "4 games" in out.splitlines()[0]
