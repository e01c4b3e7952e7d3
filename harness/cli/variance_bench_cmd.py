"""``bangarena bench variance`` options; the benchmark is :mod:`harness.bench.variance`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.analysis.luck import DEFAULT_SAMPLES

from .args import positive_int


def register_bench(bsub: Any) -> None:
    p = bsub.add_parser(
        "variance",
        help="raw vs luck-adjusted scores on a ladder of ε-random rule bots: SD and games needed",
        description="Paired deals of the ladder (rule bot, ε = 0.05, 0.15, 0.3, 1.0); ends with "
        "one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=200, help="paired deals per agent")
    p.add_argument(
        "--samples", type=positive_int, default=DEFAULT_SAMPLES, help="baseline samples per event"
    )
    p.add_argument("--workers", type=positive_int, default=2, help="processes")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.add_argument(
        "--ceiling",
        action="store_true",
        help="instead: the best value model linear in the state features, fitted on training "
        "deals and scored on --games deals of the rule bot vs eps 0.15",
    )
    p.add_argument(
        "--train-deals",
        type=positive_int,
        default=600,
        help="with --ceiling: training deals per agent of the ladder",
    )
    p.set_defaults(func=run_variance)


def run_variance(args: argparse.Namespace) -> int:
    from harness.bench import variance

    if args.ceiling:
        return variance.run_ceiling(args.train_deals, args.games, args.samples, args.workers)
    return variance.run(args.games, args.samples, args.workers, progress=not args.no_progress)
