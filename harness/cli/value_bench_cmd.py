"""``bangarena bench value`` options; the benchmark is :mod:`harness.bench.value_bench`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .args import positive_int


def register_bench(bsub: Any) -> None:
    p = bsub.add_parser(
        "value",
        help="value model: calibration on held-out bot games, Brier vs base rate and rollouts, "
        "evaluations/s",
        description="Calibration and speed of the value model; ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=6, help="held-out games per size × mode")
    p.add_argument("--positions", type=positive_int, default=40, help="positions for rollouts")
    p.add_argument("--rollouts", type=positive_int, default=8, help="rollouts per position")
    p.add_argument(
        "--speed-games", type=positive_int, default=20, help="games for bench bots speed"
    )
    p.add_argument("--svg", type=Path, help="write the reliability diagram here (default: none)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_value)


def run_value(args: argparse.Namespace) -> int:
    from harness.bench import value_bench

    return value_bench.run(
        args.games,
        args.positions,
        args.rollouts,
        args.speed_games,
        args.svg,
        progress=not args.no_progress,
    )
