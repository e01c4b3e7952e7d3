"""The packages of ``harness`` and their imports, read from the code with :mod:`ast`.

Every ``import``/``from ... import`` of a ``harness`` module counts, wherever it stands (module
level, inside a function, under ``if TYPE_CHECKING:``): a circle through a lazy import is still a
circle.  ``python -m tests.package_graph --write`` regenerates ``docs/packages.md`` from
:func:`render` (the template is ``tests/package_graph.md.j2``); ``tests/test_package_graph.py``
fails when that file is stale, when two packages import each other (directly or round a longer
circle) or when the modules inside one folder do, except for :data:`KNOWN_CIRCLES`.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "harness"
DOC = ROOT / "docs" / "packages.md"
TEMPLATE = "package_graph.md.j2"

# Circles inside a folder that are known and not yet broken: each is the sorted module names of one
# strongly connected set, with why it stays.  A circle not listed here fails the test, and so does
# a listed one that no longer exists (remove it from here).
KNOWN_CIRCLES: dict[tuple[str, ...], str] = {}


@dataclass(frozen=True)
class Module:
    name: str  # dotted: harness.web.rooms; a package is named by its folder (harness.web)
    path: Path
    is_package: bool


def modules(root: Path = HARNESS) -> dict[str, Module]:
    out: dict[str, Module] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        out[name] = Module(name, path, is_package)
    return out


def _imported(mod: Module, node: ast.ImportFrom) -> str | None:
    if node.level == 0:
        return node.module
    base = mod.name.split(".") if mod.is_package else mod.name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(mods: dict[str, Module]) -> dict[str, set[str]]:
    """Module -> the ``harness`` modules it imports (``from pkg import mod`` names ``pkg.mod``)."""
    out: dict[str, set[str]] = {}
    for name, mod in mods.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(mod.path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = _imported(mod, node)
                if target is None:
                    continue
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    found.add(sub if sub in mods else target)
        out[name] = {m for m in found if m in mods and m != name}
    return out


def imported_names(path: Path) -> set[str]:
    """The modules a file names in its import statements, as written (absolute names only;
    lazy imports inside functions included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def top(name: str) -> str:
    """The package (or top-level module) of ``harness`` a module belongs to."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def package_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for src, targets in graph.items():
        a = top(src)
        if not a:
            continue
        out.setdefault(a, set())
        for dst in targets:
            b = top(dst)
            if b and b != a:
                out[a].add(b)
    return out


def circles(nodes: Iterable[str], edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected sets of more than one node (Tarjan), each sorted, sorted."""
    nodes = sorted(set(nodes))
    node_set = set(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in node_set:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(tuple(sorted(group)))

    for v in nodes:  # recursion depth: at most the number of nodes (a few dozen)
        if v not in index:
            visit(v)
    return sorted(found)


def folder_circles(mods: dict[str, Module], graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Circles among the modules of each folder, a subfolder counted as one node (its name)."""
    folders = {m.name for m in mods.values() if m.is_package}
    found: list[tuple[str, ...]] = []
    for folder in sorted(folders):
        depth = folder.count(".") + 1

        def node(name: str, folder: str = folder, depth: int = depth) -> str | None:
            if name == folder:
                return name  # the folder's own __init__
            if not name.startswith(folder + "."):
                return None
            return ".".join(name.split(".")[: depth + 1])

        edges: dict[str, set[str]] = {}
        nodes: set[str] = set()
        for src, targets in graph.items():
            a = node(src)
            if a is None:
                continue
            nodes.add(a)
            for dst in targets:
                b = node(dst)
                if b is not None and b != a:
                    edges.setdefault(a, set()).add(b)
        found += circles(nodes, edges)
    return sorted(set(found))


def reduction(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The transitive reduction of an acyclic graph: an arrow is dropped when a longer path
    joins the same two nodes (what the picture draws)."""

    def reach(a: str, skip: str) -> set[str]:
        seen: set[str] = set()
        todo = [b for b in edges.get(a, ()) if b != skip]
        while todo:
            b = todo.pop()
            if b not in seen:
                seen.add(b)
                todo += edges.get(b, ())
        return seen

    return {a: {b for b in bs if b not in reach(a, b)} for a, bs in edges.items()}


def describe(mod: Module) -> str:
    doc = ast.get_docstring(ast.parse(mod.path.read_text(encoding="utf-8"))) or ""
    first = doc.strip().split("\n\n")[0]
    return " ".join(first.split())


def render() -> str:
    mods = modules()
    graph = imports(mods)
    edges = package_edges(graph)
    packages = []
    for name in sorted(edges):
        mod = mods[f"harness.{name}"]
        packages.append(
            {
                "name": name,
                "kind": "package" if mod.is_package else "module",
                "about": describe(mod),
                "imports": sorted(edges[name]),
                "imported_by": sorted(a for a, bs in edges.items() if name in bs),
            }
        )
    arrows = sorted((a, b) for a, bs in reduction(edges).items() for b in bs)
    env = Environment(
        loader=FileSystemLoader(Path(__file__).parent),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env.get_template(TEMPLATE).render(
        packages=packages, arrows=arrows, known=sorted(KNOWN_CIRCLES.items())
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="docs/packages.md from the code")
    parser.add_argument("--write", action="store_true", help="write docs/packages.md")
    args = parser.parse_args(argv)
    text = render()
    if args.write:
        DOC.write_text(text, encoding="utf-8")
        print(f"wrote {DOC.relative_to(ROOT)}")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
