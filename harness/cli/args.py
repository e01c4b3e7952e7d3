"""Argument types shared by the commands (argparse turns their errors into exit code 2)."""

from __future__ import annotations

import argparse

from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def positive_int(text: str) -> int:
    v = _whole(text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def count(text: str) -> int:
    """A whole number, 0 or more."""
    v = _whole(text)
    if v < 0:
        raise argparse.ArgumentTypeError("must be at least 0")
    return v


def positive_float(text: str, what: str = "a number", hint: str = "") -> float:
    """A number above 0; the errors name ``what`` it is and add ``hint`` (e.g. usual values)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be positive{hint}")
    return v


def port(text: str, *, any_free: bool = False) -> int:
    """A TCP port 1..65535 (``any_free``: 0 too, for "any free port")."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    low = 0 if any_free else 1
    if not low <= v <= 65535:
        raise argparse.ArgumentTypeError(
            "a port is 0..65535 (0: any free port)" if any_free else "a port is 1..65535"
        )
    return v


def free_port(text: str) -> int:
    """A TCP port, or 0 for any free one."""
    return port(text, any_free=True)


def seat_count(text: str) -> int:
    """A table size: one message for every number outside it, however far."""
    v = _whole(text)
    if not MIN_SEATS <= v <= MAX_SEATS:
        raise argparse.ArgumentTypeError(f"seats must be {MIN_SEATS}..{MAX_SEATS}")
    return v


def add_series_args(p: argparse.ArgumentParser, games: int, games_help: str, seats: int) -> None:
    """``--games``, ``--seats``, ``--mode`` and ``--seed`` of a command that plays a series of
    games, game ``i`` dealt from ``seed + i``."""
    p.add_argument("--games", type=positive_int, default=games, help=games_help)
    p.add_argument("--seats", type=seat_count, default=seats, help="seats at every table (4-8)")
    p.add_argument("--mode", choices=MODES, default="classic", help="role mode")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 each)")
