"""``bangarena bench speed`` options; the benchmark is :mod:`harness.bench.speed`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from .args import positive_int


def register_bench(bsub: Any) -> None:
    from harness.bench.speed import AGAINST

    p = bsub.add_parser(
        "speed",
        help="rollout decisions/s of this code vs whole bot-game decisions/s of an earlier "
        "release, side by side (goal 3x)",
        description="This code's rollouts against an earlier release's whole bot games, "
        "alternating rounds in fresh processes; ends with one JSON line.",
    )
    p.add_argument(
        "--against",
        default=AGAINST,
        help=f"the earlier code: a commit of this repository or a folder holding a harness "
        f"package (default: {AGAINST}, the code before the bot-only playout path)",
    )
    p.add_argument("--rounds", type=positive_int, default=6, help="alternating rounds")
    p.add_argument(
        "--games", type=positive_int, default=20, help="earlier code's games per table size"
    )
    p.add_argument("--positions", type=positive_int, default=40, help="positions for rollouts")
    p.add_argument("--rollouts", type=positive_int, default=8, help="rollouts per position")
    p.set_defaults(func=run_speed)


def run_speed(args: argparse.Namespace) -> int:
    from harness.bench import speed

    return speed.run(args.against, args.rounds, args.games, args.positions, args.rollouts)
