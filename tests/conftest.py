"""Test-suite wide settings: how pytest-xdist shares the tests between the workers.

The suite runs on every core (``-n auto --dist loadgroup`` in pyproject.toml).  Each test file is
one group, so a file's module-scoped fixtures (a played league, a browser, a server) are built
once, on one worker.  Tests that must not run twice at once share a group across files: the
real-model tests (one llama.cpp server for all of them), the Ray tests (one local cluster) and the
browser tests (one chromium at a time beside the rest of the suite).
"""

from __future__ import annotations

import pytest

SHARED_GROUPS = {
    "tests/real_model/": "real_model",
    "tests/ray/": "ray",
    "tests/web/test_browser": "browser",
    "tests/replay/test_report_browser": "browser",
}


def group_of(nodeid: str) -> str:
    """The xdist group of a test: a shared group by path, else its file."""
    path = nodeid.split("::", 1)[0]
    for prefix, group in SHARED_GROUPS.items():
        if path.startswith(prefix):
            return group
    return path


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.xdist_group(group_of(item.nodeid)))
