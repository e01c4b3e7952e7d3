"""The public surface of ``harness.runs`` (docs/architecture.md, "Reading sits above running"):
every exported name resolves to its module's object, the three lists of it agree, and importing the
package loads no module of it until a name is used (pandas and the analysis floor stay unloaded for
commands that only run a league)."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import harness.runs as runs

INIT = Path(runs.__file__)


def _type_checking_names() -> dict[str, str]:
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for sub in node.body:
                assert isinstance(sub, ast.ImportFrom) and sub.level == 1
                out.update({a.name: str(sub.module) for a in sub.names})
    return out


def test_the_exports_the_lazy_table_and_the_type_checking_imports_agree() -> None:
    where = runs._WHERE
    assert sorted(runs.__all__) == sorted(where)
    assert _type_checking_names() == where


def test_every_exported_name_is_its_modules_object() -> None:
    for name, module in runs._WHERE.items():
        assert getattr(runs, name) is getattr(import_module(f"harness.runs.{module}"), name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        runs.no_such_table  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as e:
        assert "no_such_table" in str(e)
    else:
        raise AssertionError("an unknown name resolved")


def test_importing_the_package_loads_none_of_its_modules() -> None:
    code = (
        "import sys, harness.runs;"
        "loaded = sorted(m for m in sys.modules if m.startswith('harness.runs.') or m == 'pandas');"
        "print(loaded)"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    ).stdout
    assert out.strip() == "[]"
