"""A run folder's ``signals.jsonl`` that is not what the web table writes (a line that is not a
game's signals, a signal naming a seat the game does not have) is a one-line error of the
reports, exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli.main import main
from tests.bot_league import play_league

CONFIG = """\
name: talk
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 2
base_seed: 3
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("talk")
    return play_league(root, CONFIG, "talk")


def _game_id(run: Path) -> str:
    return str(json.loads((run / "games.jsonl").read_text().splitlines()[0])["game_id"])


def _signals(game_id: str, **signal: object) -> str:
    sig = {"index": 1, "kind": "react", "reaction": "gg", "event_index": 2, "t": 0.5, **signal}
    return json.dumps({"kind": "signals", "game_id": game_id, "signals": [sig]})


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"kind": "signals"', "{gid}"], "signals.jsonl: line 1 is not a game's signals"),
        (["{seat99}"], "names seat '99', not one of its 4 seats"),
        (["{target7}"], "names seat '7', not one of its 4 seats"),
    ],
)
def test_a_corrupt_signals_file_is_a_one_line_error(
    run: Path, lines: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = _game_id(run)
    good = _signals(gid, seat=0)
    seat99 = _signals(gid, seat=99)
    target7 = _signals(gid, seat=1, kind="mark", reaction=None, role="raider", target=7)
    shown = {"{gid}": good, "{seat99}": seat99, "{target7}": target7}
    text = "\n".join(shown.get(line, line) for line in lines)
    path = run / "signals.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    try:
        assert main(["league", "report", str(run)]) == 2
    finally:
        path.unlink()
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_good_signals_file_is_read(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = run / "signals.jsonl"
    path.write_text(_signals(_game_id(run), seat=2) + "\n", encoding="utf-8")
    try:
        assert main(["league", "report", str(run)]) == 0
    finally:
        path.unlink()
    assert "people's signals at the web table" in capsys.readouterr().out
