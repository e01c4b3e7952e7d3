"""Inspect AI's entry point into this package: ``inspect eval bangarena/bangarena``.

``pyproject.toml`` declares ``[project.entry-points.inspect_ai] bangarena =
"harness.integrations.inspect_registry"``: when Inspect meets a task named ``bangarena/<task>`` it
imports this module, which registers every task of :mod:`harness.integrations.inspect_task` under
that name — so the task runs from any directory without its file's path (``inspect eval
/ABSOLUTE/PATH/inspect_task.py`` fails inside Inspect: "Non-relative patterns are unsupported").
The entry point is read from the installed package's metadata: a wheel install (``pip install
'bangarena_harness-….whl[inspect]'``) and an editable one (``pip install -e '.[inspect]'``)
both declare it.

Inspect prefixes a registered name with the top-level package of the function's module when it
counts that package as installed: a wheel's ``harness`` in ``site-packages`` is, so a plain
``@task(name="bangarena/bangarena")`` would be registered as ``harness/bangarena/bangarena``
there (and ``bangarena/bangarena`` not found), while an editable install is not (its distribution
is not named ``harness``).  The name is therefore given while the function names no module
(Inspect then adds no prefix), and the module is set back afterwards, so Inspect's log still
finds the distribution that ships the task.
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
    as ``bangarena/<name>``, with the same parameters (``-T`` arguments), however the package is
    installed."""

    @functools.wraps(factory)
    def make(*args: Any, **kwargs: Any) -> Task:
        return factory(*args, **kwargs)

    module = make.__module__
    make.__module__ = ""  # no module: Inspect prefixes no package (see the module's docstring)
    try:
        registered: Callable[..., Task] = task(name=f"{PACKAGE}/{name}")(make)
    finally:
        make.__module__ = module
    registered.__module__ = module  # Inspect's wrapper copied the empty one
    return registered


bangarena = _entry(inspect_task.bangarena, "bangarena")
TASKS = {"bangarena": bangarena}
