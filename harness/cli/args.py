"""Argument types shared by the commands (argparse turns their errors into exit code 2)."""

from __future__ import annotations

import argparse

from harness.engine.roles import MAX_SEATS, MIN_SEATS


def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def seat_count(text: str) -> int:
    v = positive_int(text)
    if not MIN_SEATS <= v <= MAX_SEATS:
        raise argparse.ArgumentTypeError(f"seats must be {MIN_SEATS}..{MAX_SEATS}")
    return v
