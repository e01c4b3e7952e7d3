"""``docs/packages.md`` is the picture of the packages and their imports as the code has them
(``python -m tests.package_graph --write`` regenerates it), no two packages import each other
round a circle, and inside a folder the only circles are the known ones of
:data:`tests.package_graph.KNOWN_CIRCLES`."""

from __future__ import annotations

from tests.package_graph import (
    DOC,
    KNOWN_CIRCLES,
    circles,
    folder_circles,
    imports,
    modules,
    package_edges,
    render,
)


def test_docs_packages_md_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), "run: python -m tests.package_graph --write"


def test_no_circle_between_packages() -> None:
    edges = package_edges(imports(modules()))
    assert circles(edges, edges) == []


def test_no_circle_inside_a_folder_but_the_known_ones() -> None:
    mods = modules()
    found = folder_circles(mods, imports(mods))
    assert [c for c in found if c not in KNOWN_CIRCLES] == [], "a new circle of imports"
    assert [c for c in KNOWN_CIRCLES if c not in found] == [], "broken: drop it from KNOWN_CIRCLES"


def test_the_circle_finder_finds_circles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(edges, edges) == [("a", "b", "c")]
    assert circles(["x", "y"], {"x": {"y"}, "y": {"x"}}) == [("x", "y")]
