"""A resumed run keeps the settings that decide its results (``RESULT_FIELDS``): a changed one is
refused in one line; a setting added to the code after the run started (at any depth, such as a
model's ``rules``) reads as its default, the value the run was played with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.league.league_config import parse_config
from harness.league.runner import LeagueStopped, prepare_run

CONFIG = {
    "name": "kept",
    "players": [
        {"name": "bot", "kind": "bot"},
        {"name": "m", "kind": "model", "model": {"provider": "openai", "model": "gpt-test",
                                                 "api_key_env": "NO_SUCH_KEY"}},
    ],
    "tables": [{"seats": [4]}],
    "games_per_table": 2,
}  # fmt: skip


def _started(tmp_path: Path) -> Path:
    run = tmp_path / "kept"
    prepare_run(parse_config(CONFIG), run, resume=False)
    return run


def test_a_setting_added_after_the_start_reads_as_its_default(tmp_path: Path) -> None:
    run = _started(tmp_path)
    stored = json.loads((run / "config.json").read_text())
    del stored["players"][1]["model"]["rules"]  # as a run started before `rules` existed
    del stored["signals"]
    (run / "config.json").write_text(json.dumps(stored))
    prepare_run(parse_config(CONFIG), run, resume=True)  # no error


def test_a_changed_setting_is_refused_in_one_line(tmp_path: Path) -> None:
    run = _started(tmp_path)
    changed = json.loads(json.dumps(CONFIG))
    changed["players"][1]["model"]["rules"] = "brief"
    with pytest.raises(LeagueStopped) as err:
        prepare_run(parse_config(changed), run, resume=True)
    assert "differs from the one" in str(err.value) and "in players;" in str(err.value)
    assert "\n" not in str(err.value)


def test_an_unreadable_stored_config_is_compared_as_it_is(tmp_path: Path) -> None:
    run = _started(tmp_path)
    stored = json.loads((run / "config.json").read_text())
    stored["players"][0]["kind"] = "retired-kind"  # a kind this code no longer knows
    (run / "config.json").write_text(json.dumps(stored))
    with pytest.raises(LeagueStopped, match="in players;"):
        prepare_run(parse_config(CONFIG), run, resume=True)
