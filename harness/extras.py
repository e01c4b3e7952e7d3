"""Optional extras: import one lazily, or say in one line how to install it."""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(RuntimeError):
    """An optional dependency is not installed; the message names the install command."""


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtra` naming ``pip install -e '.[extra]'``."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingExtra(
            f"{module.split('.')[0]} is not installed: pip install -e '.[{extra}]'"
        ) from e
