"""Counted nouns in English terminal lines, by the plural rule every locale shares
(``prompts/plural.j2``, read through ``prompts/plural.en.j2``): ``count(1, "game")`` → ``1 game``,
``count(2, "game")`` → ``2 games``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .render import environment


@lru_cache(maxsize=1)
def _plural() -> Any:
    return environment().get_template("plural.en.j2").module.plural  # type: ignore[attr-defined]


def count(n: int, one: str, other: str | None = None) -> str:
    """``n`` and its noun: ``one`` for 1, else ``other`` (default: ``one`` + "s")."""
    return str(_plural()(n, one, other if other is not None else one + "s")).strip()


__all__ = ["count"]
