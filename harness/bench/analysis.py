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

import os
import shutil
import time
from pathlib import Path
from typing import Any

from .core import BenchError, LoadAverage, print_result, python_version, temp_dir
from .league import rulebot_and_random
from .progress import Progress

GOAL_SECONDS = 1.0
SEATS = [4, 5, 6, 7, 8]
MODES = ["classic", "double_agent"]


def _league(games: int, seed: int, tmp: Path, progress: bool) -> Path:
    cells = len(SEATS) * len(MODES) - 1  # double_agent starts at 5 seats
    tables = [{"seats": [4], "modes": ["classic"]}, {"seats": SEATS[1:], "modes": MODES}]
    return rulebot_and_random("bench-analysis", tables, cells, games, seed, tmp, progress)


def bench_analysis(
    games: int,
    seed: int,
    tmp: Path,
    run: str | None,
    workers: int,
    value: str,
    worlds: int,
    progress: bool = True,
) -> dict[str, Any]:
    """Analyse a new bot-only league of ``games`` games (or a copy of the run folder ``run``)
    in ``tmp``; the figures."""
    from harness.analysis.run_moves import MOVES_DIR, run_moves, settings_for
    from harness.records.store import RecordError

    try:
        if run:
            run_dir = tmp / "run"
            shutil.copytree(run, run_dir, ignore=shutil.ignore_patterns(MOVES_DIR))
        else:
            run_dir = _league(games, seed, tmp, progress)
        settings = settings_for(value, worlds)
        load = LoadAverage()
        t0 = time.perf_counter()
        with Progress("bench analysis", None, enabled=progress) as bar:
            out = run_moves(run_dir, settings, workers, "local", lambda _: bar.advance())
        seconds = time.perf_counter() - t0
    except (OSError, RecordError, ValueError) as e:
        raise BenchError(str(e)) from None
    load_before, load_after = load.after()
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
        "workers": workers,
        "cores": os.cpu_count(),
        "seconds": round(seconds, 2),
        "seconds_per_decision": round(per, 4),
        "goal_seconds_per_decision": GOAL_SECONDS,
        "pass": per <= GOAL_SECONDS,
        "load_before": load_before,
        "load_after": load_after,
        "python": python_version(),
    }


def run(
    games: int,
    seed: int,
    run: str | None,
    workers: int,
    value: str,
    worlds: int,
    progress: bool = True,
) -> int:
    """Measure, print the figures and the JSON line."""
    with temp_dir("bangarena-bench-analysis-") as tmp:
        r = bench_analysis(games, seed, tmp, run, workers, value, worlds, progress)
    print(f"analysis benchmark: {r['games']} games, {r['decisions']:,} decisions analysed "
          f"({r['options_per_decision']} options each), {r['value']} value, {r['worlds']} worlds, "
          f"{r['workers']} worker processes on {r['cores']} cores")  # fmt: skip
    print(f"  wall time           {r['seconds']:>10,.2f} s")
    print(f"  per decision        {r['seconds_per_decision']:>10,.4f} s  "
          f"(goal <= {GOAL_SECONDS:g} s on 2 cores)")  # fmt: skip
    print(f"  load average        {r['load_before']} before, {r['load_after']} after")
    return print_result(r)
