"""Inspect AI's entry point into this package: ``inspect eval bangarena/bangarena``.

``pyproject.toml`` declares ``[project.entry-points.inspect_ai] bangarena =
"harness.integrations.inspect_registry"``: when Inspect meets a task named ``bangarena/<task>`` it
imports this module, which registers every task of :mod:`harness.integrations.inspect_task` under
that name — so the task runs from any directory without its file's path (``inspect eval
/ABSOLUTE/PATH/inspect_task.py`` fails inside Inspect: "Non-relative patterns are unsupported").
The entry point is read from the installed package's metadata: ``pip install -e '.[inspect]'``
(the editable install the README and CI use) declares it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task

from harness.integrations import inspect_task

__all__ = ["PACKAGE", "TASKS", "bangarena"]

PACKAGE = "bangarena"  # the entry point's name: the part of a task name before the slash


def _entry(factory: Callable[..., Task], name: str) -> Callable[..., Task]:
    """``factory`` (an Inspect task of :mod:`~harness.integrations.inspect_task`) registered again
    as ``bangarena/<name>``, with the same parameters (``-T`` arguments)."""

    @functools.wraps(factory)
    def make(*args: Any, **kwargs: Any) -> Task:
        return factory(*args, **kwargs)

    return task(name=f"{PACKAGE}/{name}")(make)


bangarena = _entry(inspect_task.bangarena, "bangarena")
TASKS = {"bangarena": bangarena}
