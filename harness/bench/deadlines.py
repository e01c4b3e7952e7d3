"""``bangarena bench deadlines`` — model records kept under load; figures and a final JSON line.

``--games`` games of 5 model seats run at once with a short decision timer against the instant
local server (:mod:`harness.bench.instant_server`) whose replies are held ``--latency`` plus up
to ``--spread`` seconds (a slow provider answering around the timer).  A game ends as void after
``--streak`` fallbacks in a row, so the run stays short.  Figures from the run's records:

* **records lost**: model decisions (more than one option) without a model record — the table's
  timer cut the seat off before it handed in its own fallback (the target is 0);
* seat timeouts (the seat's own deadline fired and it recorded why), answers in time, and the
  latest decision against the timer (a model seat that is late because the event loop stalled
  gets a short grace to hand in its record, see :func:`harness.agents.seat.cutoff`).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from .core import BenchError, print_result, python_version, temp_dir
from .instant_league import held_runner, instant_league, require_model_seats

SEATS = 5


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


def run(games: int, timer: float, latency: float, spread: float, streak: int, seed: int) -> int:
    """Measure, print the figures and the JSON line."""
    if timer <= 0 or latency < 0 or spread < 0:
        raise BenchError("--timer must be positive, --latency and --spread 0 or more")
    require_model_seats()
    from .instant_server import InstantServer

    t0 = time.perf_counter()
    with temp_dir() as d, InstantServer() as server:
        players = [f"model-{i}" for i in range(SEATS)]
        config = instant_league(
            "deadlines", server.base_url, players, SEATS, games, games, seed, d,
            decision_seconds=timer, max_consecutive_fallbacks=streak,
            max_failed_decisions=1_000_000,
        )  # fmt: skip
        runner, _ = held_runner(config, d, latency, spread, seed)
        asyncio.run(runner.run())
        figures = _figures(d / config.name, timer)
    result = {
        "benchmark": "deadlines",
        "seats": SEATS,
        "timer_s": timer,
        "latency_s": latency,
        "spread_s": spread,
        **figures,
        "pass": figures["records_lost"] == 0,
        "seconds": round(time.perf_counter() - t0, 1),
        "python": python_version(),
    }
    f = figures
    print(
        f"deadline benchmark: {f['games']} games of {SEATS} model seats at once, {timer:g} s "
        f"timer, replies held {latency:g}-{latency + spread:g} s"
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
    return print_result(result)
