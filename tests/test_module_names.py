"""A name means one thing (docs/architecture.md, "Names"): no two modules under `harness/` share a
basename, `__init__.py` aside, so a module's name alone says which one is meant."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shared_basenames(root: Path) -> dict[str, list[str]]:
    """Each basename used by more than one module under ``root`` (``__init__.py`` left out), with
    the modules' paths relative to ``root``'s parent, sorted."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if path.name != "__init__.py":
            by_name[path.name].append(path.relative_to(root.parent).as_posix())
    return {name: paths for name, paths in sorted(by_name.items()) if len(paths) > 1}


def test_module_basenames_are_unique() -> None:
    shared = shared_basenames(ROOT / "harness")
    lines = [f"{name}: {', '.join(paths)}" for name, paths in shared.items()]
    assert not shared, "modules sharing a basename:\n" + "\n".join(lines)


def test_a_shared_basename_is_found(tmp_path: Path) -> None:
    root = tmp_path / "harness"
    for rel in (
        "a/config.py",
        "b/config.py",
        "b/c/config.py",
        "a/__init__.py",
        "b/__init__.py",
        "a/x.py",
    ):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    assert shared_basenames(root) == {
        "config.py": ["harness/a/config.py", "harness/b/c/config.py", "harness/b/config.py"]
    }
