"""``bangarena bench caps`` — how far a run overshoots its spending cap; figures and a JSON line.

A league of model seats (5 seats, every seat a model player, ``max_concurrent_games`` games at
once) plays against the instant local OpenAI-compatible server
(:mod:`harness.bench.instant_server`, its own process) with a token cap.  Each reply is held for
``--latency`` seconds after the server has answered (a provider that takes that long), so that
many calls are in flight when the cap trips.

* **Overshoot**: requests the server answered beyond the call that tripped the cap
  (``served - position of the tripping call in the spend ledger``).  They are the calls in flight
  at the trip (cancelled and awaited by the runner); none is sent after it.  The bound is one
  call per concurrent game.
* **Resume, same cap**: requests made by ``--resume`` with the cap unchanged (the cap counts the
  ledger of the earlier session, so none).
* **Resume, cap raised**: tokens this session spent up to its trip, against the room left by the
  raised cap (a cap that restarted from zero would spend the whole cap again).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

from .core import BenchError, print_result, python_version, temp_dir
from .instant_league import held_runner, instant_league, require_model_seats

SEATS = 5


def _config(name: str, base_url: str, concurrent: int, cap: int, seed: int, tmp: Path) -> Any:
    players = [f"model-{i}" for i in range(SEATS)]
    return instant_league(
        name, base_url, players, SEATS, concurrent, concurrent, seed, tmp,
        spending={"max_tokens": cap},
    )  # fmt: skip


def _session(config: Any, tmp: Path, latency: float, resume: bool) -> dict[str, Any]:
    """One session of a capped run; figures from the runner and the run's spend ledger."""
    from harness.league.runner import LeagueStopped

    runner, seats = held_runner(config, tmp, latency, resume=resume)
    tokens_before, calls_before = seats.ledger.tokens, seats.ledger.calls
    stopped = False
    t0 = time.perf_counter()
    try:
        asyncio.run(runner.run())
    except LeagueStopped:
        stopped = True
    lines = seats.ledger.lines()[calls_before:]
    out: dict[str, Any] = {
        "stopped": stopped,
        "seconds": round(time.perf_counter() - t0, 3),
        "calls": len(lines),
        "cancelled": sum(1 for x in lines if x.outcome == "cancelled"),
        "tokens_before": tokens_before,
    }
    if runner.calls_at_stop is not None:
        at_trip = runner.calls_at_stop - calls_before
        out["trip_call"] = at_trip
        out["tokens_to_trip"] = sum(x.tokens for x in lines[:at_trip])
        out["tokens_before_trip_call"] = sum(x.tokens for x in lines[: at_trip - 1])
        out["calls_after_trip"] = len(lines) - at_trip  # in flight at the trip
    return out


def run(concurrent: int, trials: int, latency: float, cap_tokens: int, seed: int) -> int:
    """Measure, print the figures and the JSON line."""
    if latency < 0:
        raise BenchError("--latency must be 0 or more")
    require_model_seats()
    from .instant_server import InstantServer

    result: dict[str, Any] = {
        "benchmark": "caps",
        "seats": SEATS,
        "concurrent": concurrent,
        "latency_s": latency,
        "cap_tokens": cap_tokens,
    }
    t0 = time.perf_counter()
    print(
        f"spending-cap benchmark: {trials} runs of {concurrent} concurrent games, "
        f"{SEATS} model seats each, token cap {cap_tokens:,}, replies held "
        f"{latency:g} s (instant local server)"
    )
    with temp_dir() as tmp:
        runs = []
        for i in range(trials):
            with InstantServer() as server:
                config = _config(
                    f"caps-{i}", server.base_url, concurrent, cap_tokens, seed + 1000 * i, tmp
                )
                trial = _session(config, tmp, latency, resume=False)
            served = server.served or 0
            # requests the server answered beyond the call that tripped the cap
            trial["requests"] = served
            trial["overshoot_requests"] = max(0, served - trial.get("trip_call", served))
            runs.append(trial)
            print(
                f"  run {i + 1}: cap tripped at call {trial.get('trip_call')}, "
                f"{trial['overshoot_requests']} more requests reached the server "
                f"(calls in flight at the trip; {trial['cancelled']} cancelled)"
            )
        overs = [t["overshoot_requests"] for t in runs]
        result["trials"] = runs
        result["overshoot_max"] = max(overs)
        result["overshoot_mean"] = round(statistics.mean(overs), 2)
        result["bound"] = concurrent
        ok = all(t["stopped"] for t in runs) and max(overs) <= concurrent
        print(
            f"  overshoot           max {result['overshoot_max']}, mean "
            f"{result['overshoot_mean']} requests  (bound {concurrent}: "
            f"{'PASS' if ok else 'FAIL'})"
        )
        # a run resumed with the same cap, then with the cap raised by a tenth
        with InstantServer() as server:
            config = _config("resumed", server.base_url, concurrent, cap_tokens, seed, tmp)
            first = _session(config, tmp, latency, resume=False)
            same = _session(config, tmp, latency, resume=True)
            room = cap_tokens // 10
            raised_cap = same["tokens_before"] + room
            config = config.model_copy(
                update={"spending": config.spending.model_copy(update={"max_tokens": raised_cap})}
            )
            raised = _session(config, tmp, latency, resume=True)
        total_calls = first["calls"] + same["calls"] + raised["calls"]
        result["resume"] = {
            "first": first,
            "same_cap": same,
            "raised_cap": {**raised, "room_tokens": room},
            "requests": server.served,
            "ledger_calls": total_calls,
        }
        # the cap counted the earlier session: the call that tripped it is the first past the room
        ok = (
            ok
            and same["calls"] == 0
            and raised.get("tokens_before_trip_call", room + 1) <= room < raised["tokens_to_trip"]
        )
        print(f"  resume, same cap    {same['calls']} calls (stopped: {same['stopped']})")
        print(
            f"  resume, cap +{room:,} tokens: {raised.get('tokens_to_trip', 0):,} tokens spent "
            f"to the trip, {raised.get('calls_after_trip')} calls in flight after it"
        )
    result["pass"] = ok
    result["seconds"] = round(time.perf_counter() - t0, 1)
    result["python"] = python_version()
    return print_result(result)
