"""``bangarena bench bots`` options; the benchmark is :mod:`harness.bench.bots`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from .args import positive_int


def register_bench(bsub: Any) -> None:
    """Add ``bots`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "bots",
        help="rule-bot teams vs random agents: win rates with 95%% intervals, decisions/s",
        description="Bot team vs random seats at 5 and 7 seats (classic), next to all-random "
        "tables on the same deals; ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=1000, help="tables per row (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    p.add_argument("--workers", type=positive_int, default=2, help="processes (default 2)")
    p.add_argument(
        "--speed-games",
        type=positive_int,
        default=60,
        help="bot-only games per table size for decisions/s on one core (default 60)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_bots)


def run_bots(args: argparse.Namespace) -> int:
    from harness.bench import bots

    return bots.run(
        args.games, args.seed, args.workers, args.speed_games, progress=not args.no_progress
    )
