"""A connection changes only itself: outside ``harness/web/connection.py`` no module of the web
table assigns a :class:`~harness.web.connection.Connection`'s fields — a room moves it with
``enter``, ``vacate``, ``hold``, ``saw`` and the like."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "harness" / "web"

# every field Connection.__init__ sets but ``closed``, a room's field too (the registry closes rooms)
FIELDS = {
    "socket", "locale", "address", "room", "seat", "seen", "held", "messages", "rebuilds",
    "failures", "refusals", "rebuild_pending", "_queue",
}  # fmt: skip


def _connection_fields() -> set[str]:
    tree = ast.parse((WEB / "connection.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Connection")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    out = set()
    for node in ast.walk(init):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                out.add(t.attr)
    return out


def _assigned(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, ``name.field``) of every assignment to a field of something other than ``self``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        flat: list[ast.expr] = []
        for t in targets:
            flat += t.elts if isinstance(t, ast.Tuple | ast.List) else [t]
        for t in flat:
            mine = isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            if (
                isinstance(t, ast.Attribute)
                and t.attr in FIELDS
                and not (mine and t.value.id == "self")
            ):
                found.append((t.lineno, ast.unparse(t)))
    return found


def test_the_checked_fields_are_the_connections() -> None:
    assert _connection_fields() == FIELDS | {"closed"}


def test_no_module_but_the_connection_sets_its_fields() -> None:
    bad = []
    for path in sorted(WEB.glob("*.py")):
        if path.name == "connection.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bad += [f"{path.name}:{line}: {what}" for line, what in _assigned(tree)]
    assert bad == []


def test_the_check_sees_a_room_writing_a_connection() -> None:
    tree = ast.parse("conn.room, conn.seat = None, None\nself.seat = 1\nc.seen += 1\n")
    assert _assigned(tree) == [(1, "conn.room"), (1, "conn.seat"), (3, "c.seen")]
