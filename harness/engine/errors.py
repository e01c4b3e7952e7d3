"""Engine error types: bad syntax and illegal moves are distinct, as in python-chess."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class MalformedAction(EngineError):
    """The text is not an action id at all."""


class IllegalAction(EngineError):
    """A well-formed action that is not among the pending decision's options."""


class GameOver(EngineError):
    """An action was given after the game ended."""


class PositionError(EngineError):
    """A position file is malformed or inconsistent; the message names the field."""
