"""The seat protocol.  Every seat gets its :class:`SeatView` and the pending decision's option ids
and returns one of those ids — nothing else reaches it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from harness.engine import SeatView


@dataclass(frozen=True, slots=True)
class Choice:
    """An agent's answer with what happened on the way: a model seat that fell back internally
    (its own deadline, invalid answers) says so here, and attaches its decision record."""

    option: str
    fallback: str | None = None  # "timeout" | "error" | "invalid_answer"
    error: str | None = None
    record: Any = None


class Agent(ABC):
    """One seat's player.  ``choose`` must return one of ``options`` (an id, exactly)."""

    kind: ClassVar[str] = "agent"
    # a seat that keeps its own deadline and hands in its own fallback record (harness.agents.seat)
    self_timed: ClassVar[bool] = False

    def __init__(self, name: str) -> None:
        self.name = name

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        """Called before a game starts; agents that keep per-game state reset it here."""

    def observe(self, view: SeatView) -> None:
        """See a view without deciding (an autopilot shadowing a seat keeps its picture of the
        table current).  ``view.events`` may overlap earlier views: the events of a view are
        those with indices ``view.event_count - len(view.events)`` .. ``view.event_count - 1``."""

    def hear(self, signals: Sequence[dict[str, Any]]) -> None:
        """Public table signals sent since this seat's previous view (a league with ``signals:
        true``, :mod:`harness.agents.table_signals`); handed before the view they precede.
        Seats that read no text (rule bots, random seats) ignore them."""

    @abstractmethod
    async def choose(self, view: SeatView, options: Sequence[str]) -> str | Choice:
        """Return exactly one of ``options`` (or a :class:`Choice` carrying it)."""

    async def aclose(self) -> None:
        """Release resources (HTTP clients, processes)."""


class RandomAgent(Agent):
    """Uniformly random legal choices from its own seeded generator (the baseline)."""

    kind = "random"

    def __init__(self, name: str = "random", seed: int = 0) -> None:
        super().__init__(name)
        self._seed = seed
        self._rng = random.Random(seed)

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        self._rng = random.Random(f"{self._seed}:{seed}:{seat}")

    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        return options[self._rng.randrange(len(options))]
