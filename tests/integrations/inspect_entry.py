"""The ``bangarena`` Inspect entry point as pyproject.toml declares it, for an interpreter whose
installed metadata predates it: :func:`entry_point_path` writes a minimal ``*.dist-info`` with that
``entry_points.txt`` to put on ``PYTHONPATH`` (``pip install -e '.[inspect]'`` makes it
unnecessary; with both, Inspect imports the same module)."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def declared_entry_points() -> dict[str, str]:
    """pyproject.toml's ``[project.entry-points.inspect_ai]``."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(data["project"]["entry-points"]["inspect_ai"])


def installed() -> bool:
    """Whether the installed metadata already declares the ``bangarena`` entry point."""
    return bool(importlib.metadata.entry_points(group="inspect_ai", name="bangarena"))


def entry_point_path(tmp: Path) -> Path:
    """A directory holding a dist-info that declares pyproject.toml's Inspect entry points."""
    info = tmp / "bangarena_inspect_entry-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: bangarena-inspect-entry\nVersion: 0\n", encoding="utf-8"
    )
    lines = [f"{name} = {value}" for name, value in declared_entry_points().items()]
    (info / "entry_points.txt").write_text("[inspect_ai]\n" + "\n".join(lines) + "\n")
    return tmp
