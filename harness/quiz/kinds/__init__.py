"""The question kinds of the rules quiz, in their canonical order."""

from __future__ import annotations

from .checks import Check
from .legal import HighNoon, Legal
from .question_kind import Draft, QuestionKind, Shape
from .reach import Reach
from .upgrade import Upgrade
from .what_if import CoverCheck, GameEnd, Glory, HpAfter, NextResponder

KINDS: tuple[QuestionKind, ...] = (
    Legal(),
    Reach(),
    HpAfter(),
    NextResponder(),
    CoverCheck(),
    GameEnd(),
    Check(),
    HighNoon(),
    Glory(),
    Upgrade(),
)
KIND_BY_NAME: dict[str, QuestionKind] = {k.name: k for k in KINDS}
KIND_NAMES: tuple[str, ...] = tuple(KIND_BY_NAME)

__all__ = ["KINDS", "KIND_BY_NAME", "KIND_NAMES", "Draft", "QuestionKind", "Shape"]
