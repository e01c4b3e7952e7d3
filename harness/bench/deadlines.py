"""``bangarena bench deadlines`` — model records kept under load; figures and a final JSON line.

``--games`` games of 5 model seats run at once with a short decision timer against the instant
local server (:mod:`harness.league.instant_server`) whose replies are held ``--latency`` plus up
to ``--spread`` seconds (a slow provider answering around the timer).  A game ends as void after
``--streak`` fallbacks in a row, so the run stays short.  Figures from the run's records:

* **records lost**: model decisions (more than one option) without a model record — the table's
  timer cut the seat off before it handed in its own fallback (the target is 0);
* seat timeouts (the seat's own deadline fired and it recorded why), answers in time, and the
  latest decision against the timer (a model seat that is late because the event loop stalled
  gets a short grace to hand in its record, see :func:`harness.agents.seat.cutoff`).

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from .args import positive_int
from .caps_bench_cmd import Held
from .errors import CliError
from .league_bench_cmd import instant_league

SEATS = 5


def register_bench(bsub: Any) -> None:
    """Add ``deadlines`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "deadlines",
        help="model records kept under load: concurrent games with a short timer against a slow "
        "provider; records lost, seat timeouts, latest decision",
        description="Runs a temporary league (nothing is kept) and ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=32, help="games, all at once")
    p.add_argument("--timer", type=float, default=3.0, help="decision timer in seconds")
    p.add_argument("--latency", type=float, default=2.6, help="seconds each reply is held")
    p.add_argument("--spread", type=float, default=0.6, help="up to this much more, at random")
    p.add_argument(
        "--streak", type=positive_int, default=3, help="fallbacks in a row that end a game"
    )
    p.add_argument("--seed", type=int, default=1, help="base seed")
    p.set_defaults(func=run_deadline_bench)


def _figures(run_dir: Path, timer: float) -> dict[str, Any]:
    from harness.records import RunStore

    store = RunStore(run_dir)
    games = store.games()
    decisions = lost = seat_timeouts = answered = late = 0
    latest = 0.0
    example = None
    for g in games:
        for d in store.iter_decisions(g.game_id):
            if d.model is None and d.fallback is None:
                continue  # a bot's decision
            if len(d.options) < 2:
                continue
            decisions += 1
            latest = max(latest, d.latency_s)
            late += d.latency_s > timer
            if d.model is None:
                lost += 1
                example = example or f"{d.fallback}: {d.error}"
            elif d.model.get("fallback") == "timeout":
                seat_timeouts += 1
            elif d.model.get("fallback") is None:
                answered += 1
    return {
        "games": len(games),
        "model_decisions": decisions,
        "records_lost": lost,
        "seat_timeouts": seat_timeouts,
        "answered_in_time": answered,
        "latest_decision_s": round(latest, 3),
        "decisions_after_timer": late,
        "lost_example": example,
    }


def run_deadline_bench(args: argparse.Namespace) -> int:
    if args.timer <= 0 or args.latency < 0 or args.spread < 0:
        raise CliError("--timer must be positive, --latency and --spread 0 or more")
    try:
        import openai  # noqa: F401

        from harness.league.instant_server import InstantServer
        from harness.league.model_seats import ModelSeats
        from harness.league.runner import LeagueRunner
    except ImportError as e:
        raise CliError(f"model seats are not available: {e}") from None
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bangarena-bench-") as d, InstantServer() as server:
        players = [f"model-{i}" for i in range(SEATS)]
        config = instant_league(
            "deadlines", server.base_url, players, SEATS, args.games, args.games, args.seed, d,
            decision_seconds=args.timer, max_consecutive_fallbacks=args.streak,
            max_failed_decisions=1_000_000,
        )  # fmt: skip
        run_dir = Path(d) / config.name
        seats = ModelSeats(config, run_dir)
        seats.wrap_provider = lambda p: Held(p, args.latency, args.spread, args.seed)
        runner = LeagueRunner(config, run_dir, model_seats=seats)
        asyncio.run(runner.run())
        figures = _figures(run_dir, args.timer)
    result = {
        "benchmark": "deadlines",
        "seats": SEATS,
        "timer_s": args.timer,
        "latency_s": args.latency,
        "spread_s": args.spread,
        **figures,
        "pass": figures["records_lost"] == 0,
        "seconds": round(time.perf_counter() - t0, 1),
        "python": platform.python_version(),
    }
    f = figures
    print(
        f"deadline benchmark: {f['games']} games of {SEATS} model seats at once, {args.timer:g} s "
        f"timer, replies held {args.latency:g}-{args.latency + args.spread:g} s"
    )
    print(f"  model decisions     {f['model_decisions']:>8,}")
    print(
        f"  records lost        {f['records_lost']:>8,}  "
        f"(target 0: {'PASS' if result['pass'] else 'FAIL'})"
    )
    print(f"  seat timeouts       {f['seat_timeouts']:>8,}  (recorded by the seat itself)")
    print(f"  answered in time    {f['answered_in_time']:>8,}")
    print(
        f"  latest decision     {f['latest_decision_s']:>8.3f} s  "
        f"({f['decisions_after_timer']} handed in after the timer)"
    )
    print(json.dumps(result))
    return 0
