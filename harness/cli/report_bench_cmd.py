"""``bangarena bench report`` options; the benchmark is :mod:`harness.bench.report`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from .args import positive_int


def register_bench(bsub: Any) -> None:
    """Add ``report`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "report",
        help="HTML report of a 1,000-game league: seconds to write, index size, game load time",
        description="Plays a temporary bot-only league (not timed), writes its HTML report and "
        "opens it in headless chromium; ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=1000, help="games in the league")
    p.add_argument("--run", metavar="RUN", help="report this run instead (default: a new league)")
    p.add_argument("--workers", type=positive_int, default=None, help="processes (default: cores)")
    p.add_argument("--seed", type=int, default=1, help="base seed of the league")
    p.add_argument("--no-browser", action="store_true", help="skip the page-load measurement")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_report_bench)


def run_report_bench(args: argparse.Namespace) -> int:
    from harness.bench import report

    return report.run(
        args.games, args.seed, args.run, args.workers,
        browser=not args.no_browser, progress=not args.no_progress,
    )  # fmt: skip
