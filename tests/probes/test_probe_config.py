"""The ``probes:`` section of a model player (harness.agents.probe_settings): default off,
validated with one-line errors, and a run without probes keeps the config it was started with."""

from __future__ import annotations

from typing import Any

import pytest

from harness.league.league_config import parse_config
from harness.play.config_files import ConfigError

MODEL = {"provider": "openai", "model": "gpt-test", "base_url": "http://127.0.0.1:9/v1"}


def config(**player: Any) -> dict[str, Any]:
    return {
        "name": "p",
        "players": [{"name": "m", "kind": "model", "model": MODEL, **player},
                    {"name": "b", "kind": "bot"}],
        "tables": [{"seats": [4]}],
        "games_per_table": 1,
    }  # fmt: skip


def test_probes_are_off_by_default_and_parsed_when_given() -> None:
    assert parse_config(config()).player("m").probes is None
    probes = parse_config(config(probes={"every": 4, "at": ["elimination"]})).player("m").probes
    assert probes is not None and probes.every == 4 and probes.at == ["elimination"]


@pytest.mark.parametrize(
    ("probes", "words"),
    [
        ({}, "probes need 'every: N'"),
        ({"every": 0}, "players.0.probes.every"),
        ({"at": ["dawn"]}, "players.0.probes.at.0"),
        ({"at": ["elimination", "elimination"]}, "an event twice"),
        ({"every": 2, "often": True}, "often"),
        ({"every": 2, "max_tokens": 4}, "max_tokens"),
    ],
)
def test_a_bad_probes_section_is_a_one_line_error(probes: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config(config(probes=probes))
    message = str(e.value)
    assert words in message and "\n" not in message


def test_only_model_players_take_probes() -> None:
    data = config()
    data["players"][1]["probes"] = {"every": 1}
    with pytest.raises(ConfigError, match="kind 'bot' takes no 'probes' section"):
        parse_config(data)


def test_a_run_started_without_probes_resumes_with_the_same_config(tmp_path: Any) -> None:
    from harness.league.runner import CONFIG_FILE, prepare_run

    cfg = parse_config(config())
    prepare_run(cfg, tmp_path, resume=False)
    assert "probes" not in (tmp_path / CONFIG_FILE).read_text()  # as written before probes
    prepare_run(cfg, tmp_path, resume=True)
    from harness.league.runner import LeagueStopped

    with pytest.raises(LeagueStopped, match="players"):  # adding probes changes the run
        prepare_run(parse_config(config(probes={"every": 1})), tmp_path, resume=True)
