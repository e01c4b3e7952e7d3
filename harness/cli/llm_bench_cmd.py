"""``bangarena bench llm`` options; the benchmark is :mod:`harness.bench.llm`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.views.names import LOCALES

from .args import positive_int, seat_count


def register_bench(bsub: Any) -> None:
    """Add ``llm`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "llm",
        help="harness overhead per model decision (prompts, parsing, records), network excluded",
        description="Plays games of model seats against an instant in-process provider and "
        "times everything the harness does around the model call; ends with one JSON line.",
    )
    p.add_argument(
        "--decisions",
        type=positive_int,
        default=500,
        help="model decisions to measure (default 500)",
    )
    p.add_argument("--seats", type=seat_count, default=4, help="seats at every table (4-8)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 each)")
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the prompts")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_llm)


def run_llm(args: argparse.Namespace) -> int:
    from harness.bench import llm

    return llm.run(args.decisions, args.seats, args.seed, args.locale, not args.no_progress)
