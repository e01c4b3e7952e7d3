"""The views floor shows a seat its game as text: none of its modules makes network calls or
starts threads (a model server's tokenize endpoint is asked by ``harness.agents.tokenizers``, next
to the model seat), and no module of it stands in for a type of a floor above it."""

from __future__ import annotations

import ast
from pathlib import Path

VIEWS = Path(__file__).resolve().parents[2] / "harness" / "views"
NETWORK = ("urllib", "http", "socket", "threading", "httpx", "requests", "aiohttp", "websockets")


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def test_no_views_module_imports_network_or_thread_code() -> None:
    found = {
        path.name: sorted(m for m in _imports(path) if m.split(".")[0] in NETWORK)
        for path in sorted(VIEWS.rglob("*.py"))
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_token_counting_names_no_model_spec_stand_in() -> None:
    text = (VIEWS / "tokens.py").read_text(encoding="utf-8")
    assert "ModelSpecLike" not in text and "base_url" not in text
