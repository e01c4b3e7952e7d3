"""Where a league's games without model seats run: ``local`` (this machine's processes, the
runner's own pool) or ``ray`` (:mod:`.ray_executor`, a local or remote Ray cluster)."""

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
