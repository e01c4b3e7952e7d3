"""``bangarena bench speed``: this code's rollouts against an earlier code's whole bot games, each
in a fresh process that imports that code; bad ``--against`` values end with one line, exit 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import harness
from harness.cli.main import main

ROOT = Path(harness.__file__).resolve().parent.parent
TINY = ["--rounds", "2", "--games", "1", "--positions", "2", "--rollouts", "1"]


def _result(capsys: pytest.CaptureFixture[str], against: str) -> dict:
    assert main(["bench", "speed", "--against", against, *TINY]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith(f"speed: this code's rollouts against whole bot games of {against}")
    return json.loads(out[-1])


def test_against_a_folder_measures_each_round(capsys: pytest.CaptureFixture[str]) -> None:
    r = _result(capsys, str(ROOT))
    assert r["benchmark"] == "speed" and len(r["rounds"]) == 2
    for x in r["rounds"]:
        assert x["earlier_whole_game_decisions_per_s"] > 0 and x["rollout_decisions_per_s"] > 0
        want = x["rollout_decisions_per_s"] / x["earlier_whole_game_decisions_per_s"]
        assert x["ratio"] == pytest.approx(want, rel=1e-3, abs=1e-3)
    ratios = sorted(x["ratio"] for x in r["rounds"])
    assert r["ratio_median"] == pytest.approx(sum(ratios) / 2, abs=1e-3)
    assert r["pass"] == (r["ratio_median"] >= r["goal"] == 3.0)


def _is_checkout() -> bool:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
        capture_output=True, check=False,
    )  # fmt: skip
    return found.returncode == 0


@pytest.mark.skipif(not _is_checkout(), reason="not a git checkout of the repository")
def test_against_a_commit_runs_that_commits_code(capsys: pytest.CaptureFixture[str]) -> None:
    """A commit is exported to a temporary folder; the bench checks that the measured process
    imported ``harness`` from there (not an installed copy)."""
    r = _result(capsys, "HEAD")
    assert len(r["rounds"]) == 2 and r["ratio_min"] > 0


@pytest.mark.parametrize(
    ("against", "message"),
    [
        ("no-such-revision", "not a folder with a harness package, nor a commit of"),
        ("/", "that folder holds no harness package"),
    ],
)
def test_bad_against_is_one_line_and_exit_2(
    against: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "speed", "--against", against, "--rounds", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_tree_whose_code_fails_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "harness").mkdir()
    (tmp_path / "harness" / "__init__.py").write_text("raise RuntimeError('broken tree')\n")
    assert main(["bench", "speed", "--against", str(tmp_path), "--rounds", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "failed: RuntimeError: broken tree" in err[0]
