"""``bangarena bench league`` — the league runner's own speed; prints figures and a final JSON line.

1. **Bot-only league, all cores.**  A league of rule bots (4–7 seats, classic) run by
   :class:`~harness.league.runner.LeagueRunner` into a temporary folder, worker processes on every
   core, records written as in a real run.  Reports games/s and decisions/s over the wall time
   of ``runner.run()``.
2. **Model seats at 32 concurrent games.**  Every seat is a model player (``kind: model``,
   provider ``openai``) whose ``base_url`` is an instant local server
   (:mod:`harness.bench.instant_server`, its own process) that answers at once with the first
   option id.  Reports model decisions/s and HTTP calls/s at ``max_concurrent_games: 32``
   (model decisions over the wall time of ``runner.run()``, which includes the ramp-down when the
   last games finish with fewer than 32 in flight; more ``--model-games`` shrink that share).
3. **Runner overhead per model decision** — *wall time minus time inside the HTTP call*, measured
   with one game at a time so that no two games overlap::

       overhead = (wall time of runner.run() - Σ latency of every model HTTP call) / decisions

   The HTTP call latencies are the ``attempts[].latency_s`` of the model decision records (time
   from sending a request to the parsed reply, i.e. the provider SDK, the loopback round trip and
   the server).  What is left is the harness: engine, views, prompt rendering, answer parsing,
   the decision records and writing the run's files.  It is divided by the model decisions that
   made an HTTP call (decisions with a single option make none; they are counted in the
   numerator's time but not the denominator, so the figure errs high).  The target is < 5 ms.
   The 32-game phase also reports the runner process's CPU time per model decision (harness +
   HTTP client; the server runs in another process).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

from .core import BenchError, LoadAverage, cpu_seconds, print_result, python_version, temp_dir
from .instant_league import instant_league
from .progress_display import Progress

TARGET_OVERHEAD_MS = 5.0
BOT_SEATS = [4, 5, 6, 7]
MODEL_SEATS = 5
MODEL_NAMES = [f"model-{c}" for c in "abcde"]
CONCURRENT = 32


def run_league(
    config: Any,
    run_dir: Path,
    model_seats: Any = None,
    workers: int | None = None,
    progress: bool = False,
    executor: Any = None,
) -> tuple[float, float]:
    """Run ``config`` into ``run_dir``; return (wall seconds, runner-process CPU seconds)."""
    from harness.league.runner import LeagueRunner

    runner = LeagueRunner(
        config, run_dir, model_seats=model_seats, workers=workers, executor=executor
    )
    p = runner.progress
    with Progress(f"bench league ({config.name})", p.total, enabled=progress) as bar:
        p.listeners.append(lambda p: bar.update(p.done))
        t0, c0 = time.perf_counter(), cpu_seconds()
        asyncio.run(runner.run())
        return time.perf_counter() - t0, cpu_seconds() - c0


def rulebot_and_random(
    name: str,
    tables: list[dict[str, Any]],
    cells: int,
    games: int,
    seed: int,
    tmp: Path,
    progress: bool = False,
) -> Path:
    """Play a league of a rule bot and a random player at ``tables`` (``cells`` table size ×
    mode cells; about ``games`` games in all, unpaired) into ``tmp / name``; the run folder."""
    from harness.league.league_config import parse_config

    config = parse_config(
        {
            "name": name,
            "players": [{"name": "rulebot", "kind": "bot"}, {"name": "random", "kind": "random"}],
            "tables": tables,
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


def bench_bots(
    games: int,
    workers: int,
    seed: int,
    tmp: Path,
    progress: bool = False,
    executor: Any = None,
) -> dict[str, Any]:
    """Bot-only league of ``games`` games (split over 4–7 seats, classic) on ``workers``
    processes (or as tasks of ``executor``)."""
    from harness.league.league_config import parse_config
    from harness.records import RunStore

    per_table = max(1, round(games / len(BOT_SEATS)))
    config = parse_config(
        {
            "name": "bench-bots" if executor is None else f"bench-bots-{executor.name}",
            "players": [{"name": f"bot-{c}", "kind": "bot"} for c in "abcd"],
            "tables": [{"seats": BOT_SEATS, "modes": ["classic"]}],
            "games_per_table": per_table,
            "base_seed": seed,
            "workers": workers,
            "output": str(tmp),
        },
        "bench config",
    )
    run_dir = tmp / config.name
    wall, cpu = run_league(config, run_dir, workers=workers, progress=progress, executor=executor)
    records = RunStore(run_dir).games()
    decisions = sum(r.decisions for r in records)
    return {
        "games": len(records),
        "seats": BOT_SEATS,
        "workers": workers,
        "decisions": decisions,
        "seconds": round(wall, 3),
        "games_per_s": round(len(records) / wall, 1),
        "decisions_per_s": round(decisions / wall),
        "fallbacks": sum(r.fallbacks for r in records),
        # the runner's own process (receiving and writing the games; the games run elsewhere)
        "runner_cpu_ms_per_game": round(1000 * cpu / max(1, len(records)), 3),
    }


def _model_figures(run_dir: Path) -> dict[str, Any]:
    """Decisions, calls and the time inside HTTP calls, from the run's records alone."""
    from harness.records import RunStore

    store = RunStore(run_dir)
    records = store.games()
    decisions = model_decisions = called = calls = fallbacks = 0
    http_s = 0.0
    for rec in records:
        decisions += rec.decisions
        fallbacks += rec.fallbacks
        for d in store.iter_decisions(rec.game_id):
            if d.model is None:
                continue
            model_decisions += 1
            attempts = d.model.get("attempts") or []
            if attempts:
                called += 1
            calls += len(attempts)
            http_s += sum(float(a.get("latency_s") or 0.0) for a in attempts)
    return {
        "games": len(records),
        "decisions": decisions,
        "model_decisions": model_decisions,
        "model_decisions_with_call": called,
        "http_calls": calls,
        "http_seconds": http_s,
        "fallbacks": fallbacks,
    }


def bench_models(
    games: int, overhead_games: int, seed: int, tmp: Path, progress: bool = False
) -> dict[str, Any]:
    """Model-seat leagues against the instant server: throughput at 32 concurrent games and
    the overhead per model decision with one game at a time."""
    from harness.play.model_seats import ModelSeats

    from .instant_server import InstantServer

    out: dict[str, Any] = {"seats": MODEL_SEATS, "mode": "classic", "provider": "openai"}
    with InstantServer() as server:
        config = instant_league(
            "bench-models", server.base_url, MODEL_NAMES, MODEL_SEATS, games, CONCURRENT, seed, tmp
        )
        run_dir = tmp / config.name
        wall, cpu = run_league(config, run_dir, ModelSeats(config, run_dir), progress=progress)
        f = _model_figures(run_dir)
        out["concurrent"] = {
            "max_concurrent_games": CONCURRENT,
            **{k: v for k, v in f.items() if k != "http_seconds"},
            "seconds": round(wall, 3),
            "model_decisions_per_s": round(f["model_decisions"] / wall, 1),
            "http_calls_per_s": round(f["http_calls"] / wall, 1),
            "cpu_ms_per_model_decision": round(1000 * cpu / max(1, f["model_decisions"]), 3),
        }
        config = instant_league(
            "bench-overhead", server.base_url, MODEL_NAMES, MODEL_SEATS, overhead_games, 1,
            seed + 1, tmp,
        )  # fmt: skip
        run_dir = tmp / config.name
        wall, cpu = run_league(config, run_dir, ModelSeats(config, run_dir), progress=progress)
        g = _model_figures(run_dir)
    per = max(1, g["model_decisions_with_call"])
    overhead_ms = 1000 * (wall - g["http_seconds"]) / per
    out["overhead"] = {
        "max_concurrent_games": 1,
        **{k: v for k, v in g.items() if k != "http_seconds"},
        "seconds": round(wall, 3),
        "http_seconds": round(g["http_seconds"], 3),
        "http_ms_per_call": round(1000 * g["http_seconds"] / max(1, g["http_calls"]), 3),
        "overhead_ms_per_model_decision": round(overhead_ms, 3),
        "overhead_ms_per_any_model_decision": round(
            1000 * (wall - g["http_seconds"]) / max(1, g["model_decisions"]), 3
        ),
        "method": "(wall of runner.run() - sum of attempts[].latency_s) / model decisions with "
        "an HTTP call; one game at a time so nothing overlaps",
        "target_ms": TARGET_OVERHEAD_MS,
        "pass": overhead_ms < TARGET_OVERHEAD_MS,
    }
    out["server_completions"] = server.served
    return out


def bench_ray(
    games: int,
    seed: int,
    address: str | None,
    local: dict[str, Any],
    tmp: Path,
    progress: bool,
) -> dict[str, Any]:
    """The same bot-only league as Ray tasks; Ray's start-up is timed apart from the games."""
    from harness.extras import MissingExtra
    from harness.league.executors.ray_executor import RayExecutor

    executor = RayExecutor(address)
    try:
        t0 = time.perf_counter()
        executor.start()
        startup = time.perf_counter() - t0
        ray = bench_bots(games, local["workers"], seed, tmp, progress, executor)
    except MissingExtra as e:
        raise BenchError(str(e)) from None
    finally:
        executor.close()
    ray["executor"] = "ray"
    ray["address"] = address or "local instance"
    ray["startup_s"] = round(startup, 2)
    ray["nodes"] = len(executor.nodes)
    ray["overhead_ms_per_game"] = round(
        1000 * (ray["seconds"] / ray["games"] - local["seconds"] / local["games"]), 2
    )
    print(
        f"same league as Ray tasks ({ray['address']}, {ray['nodes']} node(s); "
        f"start-up {ray['startup_s']:.1f} s not counted)"
    )
    print(f"  games/s             {ray['games_per_s']:>10,.1f}")
    print(f"  decisions/s         {ray['decisions_per_s']:>10,}")
    print(f"  Ray overhead/game   {ray['overhead_ms_per_game']:>10,.2f} ms  (vs local processes)")
    return ray


def run(
    bot_games: int,
    model_games: int,
    overhead_games: int,
    seed: int,
    workers: int | None = None,
    skip_models: bool = False,
    executor: str = "local",
    ray_address: str | None = None,
    progress: bool = True,
) -> int:
    """Measure, print the figures and the JSON line (``workers``: processes, default cores;
    ``executor="ray"``: the bot-only league again as Ray tasks)."""
    workers = workers or os.cpu_count() or 1
    result: dict[str, Any] = {"benchmark": "league", "cores": os.cpu_count()}
    load = LoadAverage()
    t0 = time.perf_counter()
    with temp_dir() as tmp:
        bots = bench_bots(bot_games, workers, seed, tmp, progress)
        result["bots"] = bots
        print(
            f"league benchmark: bot-only league, {bots['games']} games (seats "
            f"{'/'.join(map(str, BOT_SEATS))}, classic), {bots['workers']} worker processes"
        )
        print(f"  games/s             {bots['games_per_s']:>10,.1f}")
        print(f"  decisions/s         {bots['decisions_per_s']:>10,}")
        print(f"  wall time           {bots['seconds']:>10,.2f} s  (records written, as in a run)")
        print(
            f"  runner CPU/game     {bots['runner_cpu_ms_per_game']:>10,.3f} ms  "
            "(the process that writes the run)"
        )
        if executor == "ray":
            result["ray"] = bench_ray(bot_games, seed, ray_address, bots, tmp, progress)
        if skip_models:
            result["models"] = None
        else:
            try:
                models = bench_models(model_games, overhead_games, seed, tmp, progress)
            except ImportError as e:
                raise BenchError(f"model seats are not available: {e}") from None
            result["models"] = models
            c, o = models["concurrent"], models["overhead"]
            print(
                f"model seats: {c['games']} games of {MODEL_SEATS} model seats, "
                f"{CONCURRENT} concurrent, instant local OpenAI-compatible server"
            )
            print(f"  model decisions/s   {c['model_decisions_per_s']:>10,.1f}")
            print(f"  HTTP calls/s        {c['http_calls_per_s']:>10,.1f}")
            print(
                f"  CPU per decision    {c['cpu_ms_per_model_decision']:>10,.3f} ms  "
                "(runner process: harness + HTTP client)"
            )
            print(f"  fallbacks           {c['fallbacks']:>10,}")
            verdict = "PASS" if o["pass"] else "FAIL"
            print(
                f"runner overhead, one game at a time ({o['games']} games, "
                f"{o['model_decisions_with_call']} decisions with a model call):"
            )
            print(f"  inside HTTP call    {o['http_ms_per_call']:>10,.3f} ms per call")
            print(
                f"  overhead/decision   {o['overhead_ms_per_model_decision']:>10,.3f} ms  "
                f"(target < {TARGET_OVERHEAD_MS:g} ms: {verdict}; wall minus time inside HTTP "
                "calls, per decision with a call)"
            )
    result["seconds"] = round(time.perf_counter() - t0, 1)
    # Other work on the machine lowers every figure: the 1-minute load average before and after.
    result["load_average"] = load.after()
    print(load.line(result["load_average"]))
    result["python"] = python_version()
    return print_result(result)
