"""Play a small league from a YAML text for a test: the run folder it writes."""

from __future__ import annotations

from pathlib import Path

from harness.cli.main import main


def play_league(root: Path, config: str, name: str) -> Path:
    """Write ``config`` (whose ``name:`` is ``name``) to ``root/<name>.yaml``, run it with one
    worker into ``root/out`` and return the run folder."""
    (root / f"{name}.yaml").write_text(config, encoding="utf-8")
    argv = ["league", "run", str(root / f"{name}.yaml"), "--output", str(root / "out"),
            "--workers", "1", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    return root / "out" / name
