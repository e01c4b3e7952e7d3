"""``bangarena bench serve`` options; the benchmark is :mod:`harness.bench.serve`: N concurrent bot
tables on one web-table server process, each with a WebSocket spectator (with ``--attack``, an
unrelated connection's ping while spectators flood ``locale`` messages)."""

from __future__ import annotations

import argparse
from typing import Any

from harness.engine.roles import MODES

from .args import positive_int, seat_count


def register_bench(bsub: Any) -> None:
    p = bsub.add_parser(
        "serve",
        help="web table load: N bot tables with a WebSocket spectator each on one server process",
        description="Starts the web table in its own process, opens one spectator per table "
        "(each watches a bots-only game and starts another when it ends) and reports "
        "decisions/s and the action-to-view latency measured at the spectators. With --attack: "
        "--attackers spectators of one bots-only game of --seats seats each send --messages "
        "'locale' messages a second (every one asks for a whole new view) while another "
        "connection pings; reports that connection's ping p50/p99.",
    )
    p.add_argument("--tables", type=positive_int, default=100, help="concurrent tables")
    p.add_argument("--seconds", type=float, default=30.0, help="how long to measure")
    p.add_argument("--seats", type=seat_count, default=5, help="seats at every table (4-8)")
    p.add_argument("--mode", choices=MODES, default="classic", help="role mode")
    p.add_argument("--pause", type=float, default=0.3,
                   help="seconds before each bot move (the 'fast' table speed; 0 = flat out)")  # fmt: skip
    p.add_argument(
        "--attack",
        action="store_true",
        help="measure an unrelated connection's ping under a flood of 'locale' messages",
    )
    p.add_argument(
        "--attackers", type=positive_int, default=8, help="with --attack: flooding connections"
    )
    p.add_argument(
        "--messages",
        type=positive_int,
        default=150,
        help="with --attack: 'locale' messages each attacker sends a second",
    )
    p.set_defaults(func=run)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from harness.bench import serve

    if args.attack:
        return serve.attack(args.attackers, args.messages, args.seconds, args.seats, args.pause)
    return serve.run(args.tables, args.seconds, args.seats, args.mode, args.pause)
