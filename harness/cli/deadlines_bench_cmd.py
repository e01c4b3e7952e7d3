"""``bangarena bench deadlines`` options; the benchmark is :mod:`harness.bench.deadlines`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from .args import positive_int


def register_bench(bsub: Any) -> None:
    """Add ``deadlines`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "deadlines",
        help="model records kept under load: concurrent games with a short timer against a slow "
        "provider; records lost, seat timeouts, latest decision",
        description="Runs a temporary league (nothing is kept) and ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=32, help="games, all at once")
    p.add_argument("--timer", type=float, default=3.0, help="decision timer in seconds")
    p.add_argument("--latency", type=float, default=2.6, help="seconds each reply is held")
    p.add_argument("--spread", type=float, default=0.6, help="up to this much more, at random")
    p.add_argument(
        "--streak", type=positive_int, default=3, help="fallbacks in a row that end a game"
    )
    p.add_argument("--seed", type=int, default=1, help="base seed")
    p.set_defaults(func=run_deadline_bench)


def run_deadline_bench(args: argparse.Namespace) -> int:
    from harness.bench import deadlines

    return deadlines.run(args.games, args.timer, args.latency, args.spread, args.streak, args.seed)
