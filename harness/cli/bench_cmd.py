"""``bangarena bench …`` — the benchmarks' options; each benchmark lives in :mod:`harness.bench`.
``engine`` and ``pettingzoo`` are parsed here, the others in their own ``*_bench_cmd`` modules."""

from __future__ import annotations

import argparse
from typing import Any

from . import (
    analysis_bench_cmd,
    bots_bench_cmd,
    caps_bench_cmd,
    deadlines_bench_cmd,
    league_bench_cmd,
    llm_bench_cmd,
    plan_bench_cmd,
    quiz_cmd,
    report_bench_cmd,
    serve_bench_cmd,
    speed_bench_cmd,
    value_bench_cmd,
    variance_bench_cmd,
)
from .args import add_series_args, positive_int


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="benchmarks that print figures and a final JSON line")
    bsub = p.add_subparsers(dest="bench", required=True, parser_class=type(p))
    e = bsub.add_parser(
        "engine",
        help="random games on one core: games/s, decisions/s (options computed at every one)",
    )
    add_series_args(e, 2000, "random games to play", 5)
    e.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    e.add_argument(
        "--compare",
        choices=["rlcard"],
        help="also play RLCard's UNO with random agents in the same run (needs the [rl] extra) "
        "and print both figures and the ratio (default: no comparison)",
    )
    e.add_argument(
        "--rounds", type=positive_int, default=5, help="with --compare: alternating rounds"
    )
    e.set_defaults(func=run_engine)
    z = bsub.add_parser(
        "pettingzoo",
        help="random-policy rollouts of the PettingZoo environment (needs the [rl] extra)",
    )
    add_series_args(z, 20, "games to play", 5)
    z.set_defaults(func=run_pettingzoo)
    bots_bench_cmd.register_bench(bsub)
    league_bench_cmd.register_bench(bsub)
    caps_bench_cmd.register_bench(bsub)
    deadlines_bench_cmd.register_bench(bsub)
    llm_bench_cmd.register_bench(bsub)
    report_bench_cmd.register_bench(bsub)
    value_bench_cmd.register_bench(bsub)
    speed_bench_cmd.register_bench(bsub)
    analysis_bench_cmd.register_bench(bsub)
    variance_bench_cmd.register_bench(bsub)
    plan_bench_cmd.register_bench(bsub)
    serve_bench_cmd.register_bench(bsub)
    quiz_cmd.register_bench(bsub)


def run_engine(args: argparse.Namespace) -> int:
    from harness.bench import engine

    return engine.run(
        args.games, args.seats, args.mode, args.seed, args.compare, args.rounds,
        progress=not args.no_progress,
    )  # fmt: skip


def run_pettingzoo(args: argparse.Namespace) -> int:
    from harness.bench import pettingzoo_bench

    return pettingzoo_bench.run(args.games, args.seats, args.mode, args.seed)
