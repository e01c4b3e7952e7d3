"""``bangarena bench serve`` — N concurrent bot tables on one web-table server process, each with a
WebSocket spectator: decisions/s and the time from an action to the updated view reaching a
client (p50/p95); with ``--attack``, an unrelated connection's ping p50/p99 while spectators
flood ``locale`` messages.  Prints figures and a final JSON line."""

from __future__ import annotations

import argparse
import json
from typing import Any

from harness.engine.roles import MODES

from .args import positive_int, seat_count
from .errors import CliError


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
    if not args.seconds > 0:
        raise CliError("--seconds must be positive")
    if args.pause < 0:
        raise CliError("--pause cannot be negative")
    if args.attack:
        return _attack(args)
    from harness.web.bench import run_bench

    r = run_bench(args.tables, args.seconds, args.seats, args.mode, args.pause).figures()
    print(f"web table benchmark: {r['tables']} tables × {r['seats']} seats, one spectator each, "
          f"{r['pause_s']:g} s before each bot move, {r['seconds']:.1f} s")  # fmt: skip
    print(
        f"  decisions/s              {r['decisions_per_s']:>10,.1f}  ({r['decisions']:,} decisions)"
    )
    print(f"  view frames received     {r['frames']:>10,}")
    print(f"  games finished           {r['games_finished']:>10,}")
    print(f"  action → view  p50       {r['latency_ms_p50']:>10,.1f} ms")
    print(f"  action → view  p95       {r['latency_ms_p95']:>10,.1f} ms")
    print(f"  action → view  max       {r['latency_ms_max']:>10,.1f} ms")
    if r["errors"]:
        print(f"  error frames             {r['errors']:>10,}")
    print(json.dumps({"benchmark": "serve", **r}))
    return 0


def _attack(args: argparse.Namespace) -> int:
    from harness.web.bench import run_attack

    r = run_attack(args.attackers, args.messages, args.seconds, args.seats, args.pause).figures()
    print(f"web table under attack: {r['attackers']} spectators × {r['messages_per_burst']} "
          f"'locale' messages a second on a {r['seats']}-seat game, {r['seconds']:.1f} s; "
          "an unrelated connection pings every 100 ms")  # fmt: skip
    print(f"  attack messages sent     {r['attack_messages']:>10,}")
    print(f"  answered rate_limited    {r['rate_limited']:>10,}")
    print(f"  pings answered           {r['pings']:>10,}  ({r['pings_unanswered']} unanswered)")
    print(f"  ping p50                 {r['ping_ms_p50']:>10,.1f} ms")
    print(f"  ping p99                 {r['ping_ms_p99']:>10,.1f} ms")
    print(f"  ping max                 {r['ping_ms_max']:>10,.1f} ms")
    print(json.dumps({"benchmark": "serve_attack", **r}))
    return 0
