"""Damage the records layer reads past: a damaged game file skipped, a torn last line of
``games.jsonl`` left out.  Reported as a :class:`RecordWarning` so that every command that reads a
run says so (the command line prints each as one ``bangarena: warning:`` line) while the rest of
the run still reads."""

from __future__ import annotations

import warnings


class RecordWarning(UserWarning):
    """Part of a run's records is damaged and was skipped (one-line message)."""


def notice(message: str) -> None:
    """Report ``message`` (one line) as a :class:`RecordWarning`."""
    warnings.warn(message, RecordWarning, stacklevel=3)
