"""Test-suite wide settings: how pytest-xdist shares the tests between the workers.

The suite runs on every core (``-n auto`` in pyproject.toml, at most 4 workers).  The scheduler
below hands out whole groups: each test file is one group, so a file's module-scoped fixtures (a
played league, a browser, a server) are built once, on one worker.  Tests that must not run twice
at once share a group across files: the real-model tests (one llama.cpp server for all of them),
the Ray tests (one local cluster) and the browser tests (one chromium at a time beside the rest of
the suite).  The long groups go out first (:data:`FIRST`: the real-model group alone takes about
nine minutes), so no worker starts a long group when the others are nearly done; the rest follow
largest first.

A worker that dies is not replaced (``--max-worker-restart 0`` in pyproject.toml): the run stops
and names the test the worker died in.  Replacing it under group scheduling can leave every
worker waiting for work that is never sent (pytest-xdist 3.8, issues #1378 and #1327), a run that
hangs instead of failing.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

# advantage-adjusted scores (harness.analysis.run_advantage) with 4 paired play-outs per departure:
# unbiased for any number, and quick; subprocesses inherit it
os.environ.setdefault("BANGARENA_ADVANTAGE_PLAYOUTS", "4:0:4")

SHARED_GROUPS = {
    "tests/real_model/": "real_model",
    "tests/ray/": "ray",
    "tests/web/test_browser": "browser",
    "tests/replay/test_report_browser": "browser",
    "tests/replay/test_report_moves_browser": "browser",
}

FIRST = ("real_model", "browser", "ray")  # the groups that take longest, longest first


def group_of(nodeid: str) -> str:
    """The group of a test: a shared group by path, else its file."""
    path = nodeid.split("::", 1)[0]
    for prefix, group in SHARED_GROUPS.items():
        if path.startswith(prefix):
            return group
    return path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Whole groups to a worker (:func:`group_of`): the :data:`FIRST` groups first, then the
    largest first as xdist's loadscope does."""
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            for group in reversed(FIRST):
                if group in self.workqueue:
                    self.workqueue.move_to_end(group, last=False)
            super()._assign_work_unit(node)

    return GroupScheduling(config, log)
