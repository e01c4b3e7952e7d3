"""One-line messages: a misspelt config key names itself and the closest known field; every
command that reads a run words a missing folder, a non-run folder and a run without finished
games the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from harness.cli.main import main
from harness.league.league_config import parse_config
from harness.play.config_files import ConfigError

BASE = {
    "name": "t",
    "players": [{"name": "a", "kind": "bot"}, {"name": "b", "kind": "random"}],
    "tables": [{"seats": [4]}],
    "games_per_table": 1,
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(games_per_tabel=d.pop("games_per_table")),
         "config field games_per_tabel: unknown field; did you mean games_per_table?"),
        (lambda d: d["players"][0].update(knd="bot"),
         "config field players.0.knd: unknown field; did you mean kind?"),
        (lambda d: d["tables"][0].update(mode=["classic"]),
         "config field tables.0.mode: unknown field; did you mean modes?"),
        (lambda d: d.update(providers={"openai": {"concurency": 2}}),
         "config field providers.openai.concurency: unknown field; did you mean concurrency?"),
        (lambda d: d.update(spending={"zzz": 1}),
         "config field spending.zzz: unknown field (known fields: max_usd, max_tokens)"),
    ],
)  # fmt: skip
def test_unknown_keys_name_themselves_and_the_closest_field(change, message) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(json.dumps(BASE))
    change(data)
    with pytest.raises(ConfigError) as e:
        parse_config(data, "league.yaml")
    assert str(e.value) == f"league.yaml: {message}"


def test_a_misspelt_key_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dict(BASE)
    data["games_per_tabel"] = data.pop("games_per_table")
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["league", "run", str(path), "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"bangarena: error: {path}: config field games_per_tabel: unknown field; did you mean "
        "games_per_table?"
    ]
    assert not (tmp_path / "t").exists()


def _folders(tmp_path: Path) -> dict[str, Path]:
    empty = tmp_path / "empty"
    empty.mkdir()
    started = tmp_path / "started"  # a run that has not finished a game yet
    (started / "games").mkdir(parents=True)
    (started / "config.json").write_text(json.dumps(BASE), encoding="utf-8")
    return {"missing": tmp_path / "missing", "empty": empty, "started": started}


@pytest.mark.parametrize("kind", ["missing", "empty", "started"])
def test_one_wording_for_runs_that_cannot_be_read(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folders(tmp_path)[kind]
    messages = set()
    for command in (["league", "report"], ["report"], ["replay"]):
        assert main([*command, str(folder)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("bangarena: error: ")
        messages.add(err[0])
    assert len(messages) == 1, messages
    expected = {
        "missing": f"no run folder {folder}",
        "empty": f"{folder} is not a run folder",
        "started": f"no finished games in {folder} yet",
    }[kind]
    assert expected in messages.pop()
