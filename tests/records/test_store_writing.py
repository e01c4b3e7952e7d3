"""A run's game files are the same bytes whichever way a finished game reaches the writer: as
records in this process or as the JSON text a worker process sends (no second serialisation),
alone or several at a time; and nothing key-shaped is written either way (issue 11)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.agents.key_redaction import REDACTED
from harness.league.game_play import play_scheduled
from harness.league.league_config import parse_config
from harness.league.schedule import build_schedule
from harness.play.recorder import GameOutput
from harness.records import RunStore


@pytest.fixture(scope="module")
def outputs() -> list[GameOutput]:
    config = parse_config(
        {
            "name": "w",
            "players": [{"name": "bot", "kind": "bot"}, {"name": "rnd", "kind": "random"}],
            "tables": [{"seats": [4, 5], "modes": ["classic"]}],
            "games_per_table": 2,
            "base_seed": 3,
        },
        "test config",
    )
    specs = build_schedule(config)[:3]
    return [asyncio.run(play_scheduled(s, config, "w")) for s in specs]


def _store(path: Path) -> RunStore:
    store = RunStore(path)
    store.prepare()
    return store


def test_text_parts_write_the_same_bytes_as_records(
    tmp_path: Path, outputs: list[GameOutput]
) -> None:
    a, b, c = _store(tmp_path / "a"), _store(tmp_path / "b"), _store(tmp_path / "c")
    for out in outputs:
        a.write_game(out.start, out.decisions, out.end, out.record)
        assert b.write_game_parts(out.parts()) == out.record
    records = c.write_games_parts([out.parts() for out in outputs])
    assert [r.game_id for r in records] == [o.record.game_id for o in outputs]
    for out in outputs:
        name = f"{out.start.game_id}.jsonl"
        text = (a.games_dir / name).read_bytes()
        assert text == (b.games_dir / name).read_bytes() == (c.games_dir / name).read_bytes()
        start, decisions, end = c.read_game(out.start.game_id)
        assert (start, decisions, end) == (out.start, out.decisions, out.end)
    lines = a.games_path.read_bytes()
    assert lines == b.games_path.read_bytes() == c.games_path.read_bytes()
    assert len(lines.splitlines()) == len(outputs)
    assert c.finished_ids() == {o.record.game_id for o in outputs}


def test_parts_read_back_as_the_same_records(outputs: list[GameOutput]) -> None:
    for out in outputs:
        assert GameOutput.from_parts(out.parts()) == out


def test_key_shaped_text_in_parts_is_not_written(tmp_path: Path, outputs: list[GameOutput]) -> None:
    out = outputs[0]
    key = "sk-ant-abcdefghijklmnopqrstuv"
    first = out.decisions[0].model_copy(update={"error": f"provider said: bad key {key}"})
    leaky = GameOutput(out.start, [first, *out.decisions[1:]], out.end, out.record)
    store = _store(tmp_path / "k")
    store.write_games_parts([leaky.parts()])
    text = (store.games_dir / f"{out.start.game_id}.jsonl").read_text(encoding="utf-8")
    assert key not in text and REDACTED in text
    assert store.read_game(out.start.game_id)[1][0].error == f"provider said: bad key {REDACTED}"
