"""``bangarena bench plan`` options; the benchmark is :mod:`harness.bench.plan_bench`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.engine.roles import MAX_SEATS, MIN_SEATS

from .args import positive_int


def _seats(text: str) -> int:
    n = positive_int(text)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise argparse.ArgumentTypeError(f"must be {MIN_SEATS}..{MAX_SEATS}")
    return n


def _fraction(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive), got {text}")
    return v


def register_bench(bsub: Any) -> None:
    p = bsub.add_parser(
        "plan",
        help="the power a plan from a held-out pilot delivers, by whole deals of a pool",
        description="A pool and held-out pilot leagues of a rule bot against a random seat, "
        "paired; each pilot plans the league, and the planned games' power is measured by "
        "drawing leagues of whole deals from the pool. Ends with one JSON line.",
    )
    p.add_argument("--seats", type=_seats, default=4, help="table size (default 4)")
    p.add_argument("--pool-games", type=positive_int, default=2000, help="games of the pool")
    p.add_argument("--pilots", type=positive_int, default=8, help="held-out pilot leagues")
    p.add_argument("--pilot-games", type=positive_int, default=200, help="games per pilot")
    p.add_argument("--detect", type=_fraction, default=0.15, help="difference to detect")
    p.add_argument("--draws", type=positive_int, default=4000, help="leagues drawn per plan")
    p.add_argument("--workers", type=positive_int, help="processes (default: all CPUs)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_plan)


def run_plan(args: argparse.Namespace) -> int:
    from harness.bench import plan_bench

    return plan_bench.run(
        args.seats,
        args.pool_games,
        args.pilots,
        args.pilot_games,
        args.detect,
        args.draws,
        args.workers,
        progress=not args.no_progress,
    )
