"""``inspect eval bangarena/bangarena`` finds the task through the package's Inspect entry point
(pyproject.toml's ``[project.entry-points.inspect_ai]``), from any directory, without the task
file's path (issue 37: ``inspect eval /ABSOLUTE/PATH/inspect_task.py`` fails inside Inspect)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .inspect_entry import ROOT, declared_entry_points, entry_point_path

pytest.importorskip("inspect_ai")


def test_pyproject_declares_the_registry_module() -> None:
    entries = declared_entry_points()
    assert entries == {"bangarena": "harness.integrations.inspect_registry"}
    module = importlib.import_module(entries["bangarena"])
    assert sorted(module.TASKS) == ["bangarena"]


def test_the_tasks_are_registered_under_the_entry_points_name() -> None:
    from inspect_ai.util import registry_info

    from harness.integrations import inspect_registry, inspect_task

    info = registry_info(inspect_registry.bangarena)
    assert info.type == "task" and info.name == "bangarena/bangarena"
    assert info.metadata["params"] == registry_info(inspect_task.bangarena).metadata["params"]


def run_with_entry_point(script: str, package_dir: Path, tmp_path: Path) -> Any:
    """``script`` in a fresh interpreter in ``tmp_path`` that imports ``harness`` from
    ``package_dir`` and sees the entry point; it must exit 0."""
    path = os.pathsep.join([str(package_dir), str(entry_point_path(tmp_path / "ep"))])
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": path})  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_inspect_finds_the_task_by_name_through_the_entry_point(tmp_path: Path) -> None:
    """A fresh interpreter in another directory: Inspect loads the entry point for the name."""
    script = (
        "from inspect_ai._util.registry import registry_lookup\n"
        "from inspect_ai.util import registry_info\n"
        "found = registry_lookup('task', 'bangarena/bangarena')\n"
        "print(registry_info(found).name if found is not None else 'missing')\n"
        "task = found(seats=4, games=1)\n"
        "print(type(task).__name__, len(task.dataset))\n"
    )
    done = run_with_entry_point(script, ROOT, tmp_path)
    assert done.stdout.split("\n")[:2] == ["bangarena/bangarena", "Task 1"], done.stdout


def test_the_name_is_the_same_for_a_package_installed_in_site_packages(tmp_path: Path) -> None:
    """A wheel puts ``harness`` in ``site-packages``, where Inspect prefixes a task's name with the
    top-level package of its module (``harness/…``; an editable install gets no prefix): the
    checkout's package seen through a folder named so stands in for the wheel."""
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "harness").symlink_to(ROOT / "harness", target_is_directory=True)
    script = (
        "import harness\n"
        "from inspect_ai._util.registry import registry_lookup\n"
        "from inspect_ai.util import registry_info\n"
        "from harness.integrations import inspect_task\n"
        "print(harness.__file__)\n"
        "print(registry_info(inspect_task.bangarena).name)\n"  # the prefix a wheel gets
        "found = registry_lookup('task', 'bangarena/bangarena')\n"
        "print(registry_info(found).name if found is not None else 'missing')\n"
        "print(getattr(found, '__module__', None))\n"
    )
    done = run_with_entry_point(script, site, tmp_path)
    lines = done.stdout.split("\n")
    assert lines[:4] == [
        str(site / "harness" / "__init__.py"),
        "harness/bangarena",
        "bangarena/bangarena",
        "harness.integrations.inspect_task",  # Inspect's log finds the distribution by it
    ], done.stdout
