"""``bangarena bench caps`` options; the benchmark is :mod:`harness.bench.caps`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from .args import positive_int


def register_bench(bsub: Any) -> None:
    """Add ``caps`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "caps",
        help="spending-cap overshoot: requests answered after a token cap trips, with many calls "
        "in flight; resumed runs counting earlier spend",
        description="Runs temporary leagues (nothing is kept) and ends with one JSON line.",
    )
    p.add_argument("--concurrent", type=positive_int, default=32, help="games at once")
    p.add_argument("--trials", type=positive_int, default=3, help="capped runs to measure")
    p.add_argument(
        "--latency", type=float, default=0.2, help="seconds each reply is held (default 0.2)"
    )
    p.add_argument(
        "--cap-tokens",
        type=positive_int,
        default=300_000,
        help="token cap of each run (default 300000)",
    )
    p.add_argument("--seed", type=int, default=1, help="base seed")
    p.set_defaults(func=run_caps_bench)


def run_caps_bench(args: argparse.Namespace) -> int:
    from harness.bench import caps

    return caps.run(args.concurrent, args.trials, args.latency, args.cap_tokens, args.seed)
