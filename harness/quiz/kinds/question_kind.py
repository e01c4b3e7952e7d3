"""What every question kind provides, and the draft of one question.

A kind looks at a live bot-played game to pick the seat to ask (:meth:`QuestionKind.asker`), then
drafts a question from the position loaded back from that moment (:meth:`QuestionKind.draft`):
its parameters (the option asked about, the stated random outcomes, …), the candidate answers and
the answer.  :meth:`QuestionKind.answer` recomputes the answer from a position, the seat and the
parameters alone — the drafts call it, and the tests call it on every shipped question.

A draft may only use what the asked seat sees (RULES.md §9) plus the quiz's own random
generator, so a game re-dealt in everything the seat cannot see drafts the same question.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from harness.engine import Game
from harness.engine.roles import MODES

Shape = Literal["one", "set"]


@dataclass(frozen=True)
class Draft:
    """One question before it is worded: JSON-ready ``params``, candidate ids, the answer (a
    subset of the candidates; exactly one for shape ``one``) and the RULES.md citations."""

    params: dict[str, Any]
    candidates: tuple[str, ...]
    answer: tuple[str, ...]
    cites: tuple[str, ...]


class QuestionKind(ABC):
    """A kind of question; subclasses set ``name``, ``shape`` and (if not all) ``modes``."""

    name: ClassVar[str]
    shape: ClassVar[Shape]
    modes: ClassVar[tuple[str, ...]] = MODES
    rate: ClassVar[float] = 0.05  # chance of asking at an eligible decision (spreads positions)

    def applies(self, mode: str, seats: int) -> bool:
        return mode in self.modes

    def chance(self, game: Game) -> float:
        """Chance of asking at this decision when :meth:`asker` finds a seat."""
        return self.rate

    @abstractmethod
    def asker(self, game: Game, rng: random.Random) -> int | None:
        """The seat to ask at the live game's current decision, or ``None`` (cheap)."""

    @abstractmethod
    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        """A question for ``seat`` at ``game`` (a loaded question position), or ``None``."""

    @abstractmethod
    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        """The answer of the question ``params`` at ``game`` for ``seat``; ``None`` when the
        engine's result depends on something the seat cannot see."""


def cites(*groups: Iterable[str]) -> tuple[str, ...]:
    """Citations in a stable order: rulings by number, then sections."""
    seen = {c for g in groups for c in g}

    def key(c: str) -> tuple[int, float]:
        if c.startswith("R-"):
            return (0, float(c[2:]))
        major, _, minor = c.lstrip("§").partition(".")
        return (1, int(major) + (int(minor) / 100 if minor else 0))

    return tuple(sorted(seen, key=key))


def play_seat(game: Game) -> int | None:
    """The seat deciding a play-phase decision now, if any."""
    d = game.pending
    return d.seat if d is not None and d.kind == "play" else None


__all__ = ["Draft", "QuestionKind", "Shape", "cites", "play_seat"]
