"""``bangarena bench variance`` options; the benchmark is :mod:`harness.bench.variance_bench`.

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.analysis.advantage import DEFAULT_BOUND, DEFAULT_CAP, DEFAULT_START
from harness.analysis.luck import DEFAULT_SAMPLES
from harness.engine.roles import MODES

from .args import positive_int, seat_count


def _seat_list(text: str) -> list[int]:
    """``4,5,6``: table sizes, cycled over the deals."""
    return [seat_count(t.strip()) for t in text.split(",") if t.strip()] or [seat_count("")]


def _epsilons(text: str) -> list[float]:
    """``0.15,0.5``: the ε-agents, each paired with the rule bot."""
    out = []
    for t in text.split(","):
        try:
            v = float(t)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {t!r}") from None
        if not 0.0 < v <= 1.0:
            raise argparse.ArgumentTypeError(f"ε must be in (0, 1], got {t!r}")
        out.append(v)
    return out


def _models(text: str) -> list[str]:
    """``first,random``: the model agents, each paired with the rule bot."""
    out = []
    for t in (t.strip() for t in text.split(",")):
        if t not in ("first", "random"):
            raise argparse.ArgumentTypeError(f"a model answers 'first' or 'random', not {t!r}")
        out.append(f"model:{t}")
    return out


def _bound(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return v


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
    a = p.add_argument_group("--advantage: the score by reference-policy advantage")
    a.add_argument(
        "--advantage",
        action="store_true",
        help="instead: raw vs advantage-adjusted scores (rule-bot play-outs per departure) on "
        "paired deals of the rule bot and each ε-agent of --pair",
    )
    a.add_argument(
        "--seats",
        type=_seat_list,
        default=[4, 5, 6, 7, 8],
        help="table sizes, cycled over the deals (default 4,5,6,7,8)",
    )
    a.add_argument("--mode", choices=MODES, default="classic", help="role mode")
    a.add_argument(
        "--pair",
        type=_epsilons,
        default=[0.15, 0.5],
        help="ε of the agents each compared with the rule bot (default 0.15,0.5)",
    )
    a.add_argument(
        "--models",
        type=_models,
        default=[],
        help="also pair the rule bot with a model seat answered by the test server: 'first' "
        "(its first offered option, the fake server's default answer) and/or 'random', e.g. "
        "first,random (slow: such a seat departs from the rule bot at most decisions)",
    )
    a.add_argument(
        "--playouts",
        type=positive_int,
        default=DEFAULT_START,
        help=f"paired play-outs per departure to start with (default {DEFAULT_START})",
    )
    a.add_argument(
        "--se-bound",
        type=_bound,
        default=DEFAULT_BOUND,
        help="double the play-outs while the advantage's standard error is above this "
        f"(default {DEFAULT_BOUND:g}; 0: always --playouts)",
    )
    a.add_argument(
        "--max-playouts",
        type=positive_int,
        default=DEFAULT_CAP,
        help=f"at most this many paired play-outs per departure (default {DEFAULT_CAP})",
    )
    p.set_defaults(func=run_variance)


def run_variance(args: argparse.Namespace) -> int:
    from harness.bench import variance_bench

    if args.advantage:
        from harness.analysis.advantage import PlayoutRule

        from .cli_errors import CliError

        try:
            rule = PlayoutRule(args.playouts, args.se_bound, max(args.max_playouts, args.playouts))
        except ValueError as e:
            raise CliError(str(e)) from None
        return variance_bench.run_advantage(
            args.games, args.seats, args.mode, args.pair, rule, args.workers,
            progress=not args.no_progress, models=args.models,
        )  # fmt: skip
    if args.ceiling:
        return variance_bench.run_ceiling(args.train_deals, args.games, args.samples, args.workers)
    return variance_bench.run(args.games, args.samples, args.workers, progress=not args.no_progress)
