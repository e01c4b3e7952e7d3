"""mypy, strict, passes on the files pyproject.toml names (the engine, and the rule bot, whose
answers are chosen by decision kind): a decision kind compared with a string that is no
``DecisionKind`` is a type error (strict equality), as is any other typing mistake there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

api = pytest.importorskip("mypy.api")


def test_mypy_strict_passes_on_the_checked_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    out, err, code = api.run(
        ["--config-file", os.fspath(ROOT / "pyproject.toml"), "--cache-dir", os.fspath(tmp_path)]
    )
    assert code == 0, (out + err)[-4000:]
    assert "Success: no issues found" in out


def test_a_decision_kind_that_does_not_exist_is_a_type_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from harness.engine.state import DecisionKind\n\n\n"
        "def answer(kind: DecisionKind) -> bool:\n"
        '    return kind == "respond_shots"\n'
    )
    out, _, code = api.run(
        ["--strict", "--cache-dir", os.fspath(tmp_path / "cache"), os.fspath(probe)]
    )
    assert code == 1 and "Non-overlapping equality check" in out, out
