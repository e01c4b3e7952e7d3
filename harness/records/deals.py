"""The deal a recorded game was played on: the cluster of every interval a report states.

A deal is the cards and roles a seed gives a table of a size and mode.  A paired league replays
each deal once per seating, so those games share their luck and their results are not independent
of each other; a game played once is a deal of its own.  Every statistic of a run is therefore
clustered by :func:`deal_key` (docs/statistics.md): games that share it are one cluster.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["deal_key", "deal_of"]


class _Dealt(Protocol):
    @property
    def seats(self) -> int: ...

    @property
    def mode(self) -> str: ...

    @property
    def seed(self) -> int: ...


def deal_key(seats: int, mode: str, seed: int) -> str:
    """``"4:classic:1234"``: the same for every game of one deal (table size, mode and seed)."""
    return f"{int(seats)}:{mode}:{int(seed)}"


def deal_of(game: _Dealt) -> str:
    """The :func:`deal_key` of a game record or start line (anything with ``seats``, ``mode``
    and ``seed``)."""
    return deal_key(game.seats, game.mode, game.seed)
