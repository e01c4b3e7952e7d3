"""``bangarena bench analysis`` — move analysis seconds per decision at the default precision;
prints figures and a final JSON line.

A bot-only league (a rule bot and a random player, table sizes 4–8 in classic and double_agent
mode, ``--games`` games) is played into a temporary folder (not timed), or ``--run RUN`` is
analysed instead (into a temporary copy).  Then ``bangarena analyze`` runs on it with
``--workers`` processes (default 2), the default value model and worlds, on the random seats'
decisions (every decision with more than one option): the figure is wall seconds per analysed
decision.  Goal: ≤ 1 s per decision on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.analysis.moves import DEFAULT_WORLDS, VALUERS

from .args import positive_int
from .errors import CliError
from .progress import Progress

GOAL_SECONDS = 1.0
SEATS = [4, 5, 6, 7, 8]
MODES = ["classic", "double_agent"]


def register_bench(bsub: Any) -> None:
    p = bsub.add_parser(
        "analysis",
        help="move analysis: seconds per analysed decision at the default precision (goal <= 1 s)",
        description="Plays a temporary bot-only league (not timed) and runs bangarena analyze on "
        "it; ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=10, help="games in the league")
    p.add_argument("--run", metavar="RUN", help="analyse a copy of this run instead")
    p.add_argument("--workers", type=positive_int, default=2, help="processes")
    p.add_argument("--value", choices=VALUERS, default="fitted", help="value model")
    p.add_argument("--worlds", type=positive_int, default=DEFAULT_WORLDS, help="worlds")
    p.add_argument("--seed", type=int, default=1, help="base seed of the league")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_analysis_bench)


def _league(games: int, seed: int, tmp: Path, progress: bool) -> Path:
    from harness.league.config import parse_config

    from .league_bench_cmd import run_league

    cells = len(SEATS) * len(MODES) - 1  # double_agent starts at 5 seats
    config = parse_config(
        {
            "name": "bench-analysis",
            "players": [{"name": "rulebot", "kind": "bot"}, {"name": "random", "kind": "random"}],
            "tables": [
                {"seats": [4], "modes": ["classic"]},
                {"seats": SEATS[1:], "modes": MODES},
            ],  # fmt: skip
            "games_per_table": max(1, round(games / cells)),
            "paired": False,
            "base_seed": seed,
            "output": str(tmp),
        },
        "bench config",
    )
    run_dir = tmp / config.name
    run_league(config, run_dir, progress=progress)
    return run_dir


def bench_analysis(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    from harness.analysis.run_moves import MOVES_DIR, run_moves, settings_for
    from harness.records.store import RecordError

    show = not args.no_progress
    try:
        if args.run:
            run_dir = tmp / "run"
            shutil.copytree(args.run, run_dir, ignore=shutil.ignore_patterns(MOVES_DIR))
        else:
            run_dir = _league(args.games, args.seed, tmp, show)
        settings = settings_for(args.value, args.worlds)
        load0 = os.getloadavg()[0]
        t0 = time.perf_counter()
        with Progress("bench analysis", None, enabled=show) as bar:
            out = run_moves(run_dir, settings, args.workers, "local", lambda _: bar.advance())
        seconds = time.perf_counter() - t0
    except (OSError, RecordError, ValueError) as e:
        raise CliError(str(e)) from None
    decisions = sum(len(r.decisions) for r in out.values())
    options = sum(len(m.options) for r in out.values() for m in r.decisions)
    per = seconds / decisions if decisions else float("nan")
    return {
        "benchmark": "analysis",
        "games": len(out),
        "decisions": decisions,
        "options_per_decision": round(options / decisions, 2) if decisions else None,
        "value": settings.value,
        "worlds": settings.worlds,
        "workers": args.workers,
        "cores": os.cpu_count(),
        "seconds": round(seconds, 2),
        "seconds_per_decision": round(per, 4),
        "goal_seconds_per_decision": GOAL_SECONDS,
        "pass": per <= GOAL_SECONDS,
        "load_before": round(load0, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
    }


def run_analysis_bench(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bangarena-bench-analysis-") as d:
        r = bench_analysis(args, Path(d))
    print(f"analysis benchmark: {r['games']} games, {r['decisions']:,} decisions analysed "
          f"({r['options_per_decision']} options each), {r['value']} value, {r['worlds']} worlds, "
          f"{r['workers']} worker processes on {r['cores']} cores")  # fmt: skip
    print(f"  wall time           {r['seconds']:>10,.2f} s")
    print(f"  per decision        {r['seconds_per_decision']:>10,.4f} s  "
          f"(goal <= {GOAL_SECONDS:g} s on 2 cores)")  # fmt: skip
    print(f"  load average        {r['load_before']} before, {r['load_after']} after")
    print(json.dumps(r))
    return 0
