"""The layer order of docs/architecture.md holds: `lint-imports` checks the contracts in pyproject.toml
(cli on top, engine at the bottom, imports only downward; a web room's modules in layers; the
engine imports nothing else of the project)."""

from __future__ import annotations

import os
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_imports_follow_the_layers(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(os.fspath(ROOT))
    code = lint_imports(config_filename=os.fspath(ROOT / "pyproject.toml"), no_cache=True)
    out = capsys.readouterr().out
    assert code == 0, out[-4000:]
    assert "3 kept, 0 broken" in out
