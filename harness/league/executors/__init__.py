"""Where a league's games run: ``local`` (this machine: the runner's process pool and event
loop) or ``ray`` (:mod:`.ray_executor`, Ray tasks on a local or remote Ray cluster)."""

from __future__ import annotations

from typing import Any

EXECUTORS = ("local", "ray")


def make_executor(name: str, address: str | None = None) -> Any:
    """The executor called ``name``; ``None`` for ``local`` (the runner's process pool)."""
    if name == "local":
        return None
    if name == "ray":
        from .ray_executor import RayExecutor

        return RayExecutor(address)
    raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}, got {name!r}")
