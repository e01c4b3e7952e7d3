"""`executor:` and `ray_address:` in a league config choose where games run; the command line's
--executor / --ray-address override them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import harness.extras as extras
import harness.league.executors as executors
from harness.cli.league_cmd import run
from harness.cli.main import build_parser


class Chosen(Exception):
    pass


def _config(tmp: Path, **extra: object) -> Path:
    data = {
        "name": "where",
        "players": [{"name": "a", "kind": "bot"}, {"name": "b", "kind": "random"}],
        "tables": [{"seats": [4]}],
        "games_per_table": 1,
        "output": str(tmp / "results"),
        **extra,
    }
    path = tmp / "where.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("extra", "flags", "expected"),
    [
        ({"executor": "ray", "ray_address": "10.0.0.5:6379"}, [], ("ray", "10.0.0.5:6379")),
        ({"executor": "ray"}, [], ("ray", None)),
        ({"executor": "ray", "ray_address": "10.0.0.5:6379"}, ["--executor", "local"],
         ("local", None)),
        ({}, ["--executor", "ray", "--ray-address", "h:1"], ("ray", "h:1")),
        ({}, [], ("local", None)),
    ],
)  # fmt: skip
def test_the_config_names_the_executor_and_flags_override_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    extra: dict[str, object],
    flags: list[str],
    expected: tuple[str, str | None],
) -> None:
    def chosen(name: str, address: str | None = None) -> None:
        raise Chosen((name, address))

    monkeypatch.setattr(executors, "make_executor", chosen)
    monkeypatch.setattr(extras, "require", lambda *a, **k: None)
    args = build_parser().parse_args(
        ["league", "run", str(_config(tmp_path, **extra)), "--no-progress", *flags]
    )
    with pytest.raises(Chosen) as got:
        run(args)
    assert got.value.args[0] == expected
    assert not (tmp_path / "results").exists()  # nothing written before the executor is known
