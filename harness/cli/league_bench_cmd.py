"""``bangarena bench league`` options; the benchmark is :mod:`harness.bench.league`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.bench.league import CONCURRENT
from harness.league.executors import EXECUTORS

from .args import positive_int


def register_bench(bsub: Any) -> None:
    """Add ``league`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "league",
        help="league runner speed: bot-only games/s on all cores; model decisions/s at 32 "
        "concurrent games against an instant local server; runner overhead per model decision",
        description="Runs temporary leagues (nothing is kept) and ends with one JSON line.",
    )
    p.add_argument(
        "--bot-games", type=positive_int, default=200, help="bot-only games (default 200)"
    )
    p.add_argument(
        "--model-games",
        type=positive_int,
        default=96,
        help=f"games with model seats, {CONCURRENT} at a time (default 96)",
    )
    p.add_argument(
        "--overhead-games",
        type=positive_int,
        default=8,
        help="games played one at a time for the overhead measurement (default 8)",
    )
    p.add_argument("--workers", type=positive_int, default=None, help="processes (default: cores)")
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    p.add_argument("--skip-models", action="store_true", help="bot-only part only")
    p.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="local",
        help="ray: also play the bot-only league as Ray tasks and print both figures and Ray's "
        "overhead per game (needs the [ray] extra)",
    )
    p.add_argument(
        "--ray-address",
        help="with --executor ray: the cluster to join (default: a Ray instance started here)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_league_bench)


def run_league_bench(args: argparse.Namespace) -> int:
    from harness.bench import league

    return league.run(
        args.bot_games, args.model_games, args.overhead_games, args.seed, args.workers,
        args.skip_models, args.executor, args.ray_address, progress=not args.no_progress,
    )  # fmt: skip
