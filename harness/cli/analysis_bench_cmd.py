"""``bangarena bench analysis`` options; the benchmark is :mod:`harness.bench.analysis`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.analysis.moves import DEFAULT_MAX_WORLDS, DEFAULT_VALUE, DEFAULT_WORLDS, VALUERS

from .args import positive_int


def register_bench(bsub: Any) -> None:
    p = bsub.add_parser(
        "analysis",
        help="move analysis: seconds per analysed decision at the default precision (goal <= 1 s)"
        "; --compare: agreement with a 64-world play-out reference",
        description="Plays a temporary bot-only league (not timed) and runs bangarena analyze on "
        "it; ends with one JSON line. With --compare: the random seats' decisions of a 5-seat "
        "classic league analysed by the default and by rule-bot play-outs at --reference-worlds "
        "worlds from another seed stream; best-option agreement (goal >= 80 %), loss "
        "correlation (goal >= 0.8) and seconds per decision.",
    )
    p.add_argument("--games", type=positive_int, default=10, help="games in the league")
    p.add_argument(
        "--run", metavar="RUN", help="analyse a copy of this run instead (default: a new league)"
    )
    p.add_argument("--workers", type=positive_int, default=2, help="processes")
    p.add_argument("--value", choices=VALUERS, default=DEFAULT_VALUE, help="value model")
    p.add_argument("--worlds", type=positive_int, default=DEFAULT_WORLDS, help="worlds")
    p.add_argument("--max-worlds", type=positive_int, default=DEFAULT_MAX_WORLDS,
                   help="most worlds where the best two options are not separated")  # fmt: skip
    p.add_argument("--compare", action="store_true",
                   help="agreement with a play-out reference on the same decisions")  # fmt: skip
    p.add_argument("--reference-worlds", type=positive_int, default=64,
                   help="worlds of the --compare reference (default 64)")  # fmt: skip
    p.add_argument("--seed", type=int, default=1, help="base seed of the league")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_analysis_bench)


def run_analysis_bench(args: argparse.Namespace) -> int:
    from harness.bench import analysis

    if args.compare:
        return analysis.run_compare(
            args.games, args.seed, args.run, args.workers, args.value, args.worlds,
            args.max_worlds, args.reference_worlds, progress=not args.no_progress,
        )  # fmt: skip
    return analysis.run(
        args.games, args.seed, args.run, args.workers, args.value, args.worlds,
        progress=not args.no_progress, max_worlds=args.max_worlds,
    )  # fmt: skip
