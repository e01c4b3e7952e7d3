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


HARNESS = INIT.parents[1]
SUBMODULES = sorted(
    p.stem if p.suffix == ".py" else p.name
    for p in INIT.parent.iterdir()
    if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()
)


def _module_name(path: Path, root: Path) -> list[str]:
    """``root/x/y.py`` -> ``[root.name, "x", "y"]``; a package's ``__init__.py`` is the package."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imported(node: ast.ImportFrom, path: Path, root: Path) -> str:
    """The absolute name an ``ImportFrom`` reads from (relative imports resolved)."""
    if not node.level:
        return str(node.module)
    package = _module_name(path, root)
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def submodule_imports(root: Path, submodules: list[str]) -> list[str]:
    """Every import of a module of ``<root>.runs`` by a module of ``root`` outside ``root/runs``:
    ``import <root>.runs.x``, ``from <root>.runs.x import …``, ``from <root>.runs import x`` (x a
    module of the package), relative ones, and ``import_module("<root>.runs.x")`` — wherever they
    stand (inside functions, under ``TYPE_CHECKING``), as ``path:line: name``."""
    runs_name = f"{root.name}.runs"
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] == "runs":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = _imported(node, path, root)
                names = [module]
                if module == runs_name:
                    names = [f"{module}.{a.name}" for a in node.names if a.name in submodules]
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                names = [node.args[0].value]
            for name in names:
                if name.startswith(f"{runs_name}."):
                    found.append(f"{root.name}/{rel.as_posix()}:{node.lineno}: {name}")
    return found


def test_outside_runs_nothing_imports_a_module_of_runs() -> None:
    """Callers use the package's surface (``from harness.runs import name``), never its modules,
    so the modules can move and split without touching a caller (docs/architecture.md)."""
    found = submodule_imports(HARNESS, SUBMODULES)
    assert not found, "modules of harness.runs imported outside it:\n" + "\n".join(found)


def test_a_module_of_runs_imported_outside_it_is_found(tmp_path: Path) -> None:
    root = tmp_path / "harness"
    files = {
        "runs/__init__.py": "",
        "runs/flags.py": "from harness.runs.stats import x\n",  # inside the package: allowed
        "report/__init__.py": "",
        "report/ok.py": "from harness.runs import check_run\nimport harness.runs\n",
        "report/a.py": "import harness.runs.flags\n",
        "report/b.py": "def f():\n    from harness.runs.flags import check_run\n",
        "report/c.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from harness.runs import flags\n"
        ),
        "report/d.py": "from ..runs.flags import check_run\n",
        "e.py": "from .runs import flags\n",
        "report/f.py": (
            "from importlib import import_module\nimport_module('harness.runs.flags')\n"
        ),
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert submodule_imports(root, ["flags", "stats"]) == [
        "harness/e.py:1: harness.runs.flags",
        "harness/report/a.py:1: harness.runs.flags",
        "harness/report/b.py:2: harness.runs.flags",
        "harness/report/c.py:3: harness.runs.flags",
        "harness/report/d.py:1: harness.runs.flags",
        "harness/report/f.py:2: harness.runs.flags",
    ]


def test_no_module_of_runs_is_named_like_a_public_name() -> None:
    """Importing ``harness.runs.x`` sets the package's attribute ``x`` to that module, so a module
    named like a public name would replace the name once any module imports it (``luck_table``
    lives in ``luck_tables.py``, ``move_table`` in ``move_tables.py``)."""
    assert not set(SUBMODULES) & set(runs.__all__)
