"""``bangarena analyze --executor ray``: the games analysed as Ray tasks on a Ray instance of
this machine give exactly the local analysis."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")

from harness.analysis.run_moves import MOVES_DIR, read_moves  # noqa: E402
from harness.cli.main import main  # noqa: E402

BOTS = """\
name: bots
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 2
"""


def test_ray_analysis_equals_local(tmp_path: Path) -> None:
    (tmp_path / "bots.yaml").write_text(BOTS, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["league", "run", str(tmp_path / "bots.yaml"), "--output", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    local, remote = out / "bots", tmp_path / "copy"
    shutil.copytree(local, remote, ignore=shutil.ignore_patterns(MOVES_DIR))
    args = ["--worlds", "2", "--max-worlds", "2", "--no-progress"]
    assert main(["analyze", str(local), *args]) == 0
    assert main(["analyze", str(remote), "--executor", "ray", "--workers", "2", *args]) == 0
    assert not ray.is_initialized()  # the instance it started is shut down
    assert read_moves(remote) == read_moves(local) != {}
