"""The views floor shows a seat its game as text: none of its modules makes network calls or
starts threads (a model server's tokenize endpoint is asked by ``harness.agents.tokenizers``, next
to the model seat), and no module of it stands in for a type of a floor above it."""

from __future__ import annotations

from pathlib import Path

from tests.package_graph import imported_names

VIEWS = Path(__file__).resolve().parents[2] / "harness" / "views"
NETWORK = ("urllib", "http", "socket", "threading", "httpx", "requests", "aiohttp", "websockets")


def test_no_views_module_imports_network_or_thread_code() -> None:
    found = {
        path.name: sorted(m for m in imported_names(path) if m.split(".")[0] in NETWORK)
        for path in sorted(VIEWS.rglob("*.py"))
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_token_counting_names_no_model_spec_stand_in() -> None:
    text = (VIEWS / "tokens.py").read_text(encoding="utf-8")
    assert "ModelSpecLike" not in text and "base_url" not in text
