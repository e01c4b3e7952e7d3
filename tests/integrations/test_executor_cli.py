"""`bangarena league run --executor`: bad combinations and a missing Ray are one line on stderr
with exit 2, before any run folder is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import extras
from harness.cli.main import main
from harness.league.executors import make_executor

CONFIG = """\
name: exec
players:
  - {name: a, kind: bot}
  - {name: b, kind: random}
tables:
  - {seats: [4], modes: [classic]}
games_per_table: 2
"""


def _config(tmp_path: Path) -> Path:
    cfg = tmp_path / "exec.yaml"
    cfg.write_text(CONFIG, encoding="utf-8")
    return cfg


def test_ray_address_needs_the_ray_executor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["league", "run", str(_config(tmp_path)), "--output", str(tmp_path / "out")]
    assert main([*argv, "--ray-address", "127.0.0.1:6379", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--ray-address needs --executor ray" in err[0]
    assert not (tmp_path / "out").exists()


def test_missing_ray_is_one_line_naming_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(module: str, extra: str) -> None:
        raise extras.MissingExtra(f"{module} is not installed: pip install -e '.[{extra}]'")

    monkeypatch.setattr(extras, "require", missing)
    argv = ["league", "run", str(_config(tmp_path)), "--output", str(tmp_path / "out")]
    assert main([*argv, "--executor", "ray", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith("ray is not installed: pip install -e '.[ray]'")
    assert not (tmp_path / "out").exists()


def test_local_executor_is_the_runners_own_pool() -> None:
    assert make_executor("local") is None
    with pytest.raises(ValueError, match="executor must be one of local, ray"):
        make_executor("dask")
