"""``bangarena bench caps`` — how far a run overshoots its spending cap; figures and a JSON line.

A league of model seats (5 seats, every seat a model player, ``max_concurrent_games`` games at
once) plays against the instant local OpenAI-compatible server
(:mod:`harness.league.instant_server`, its own process) with a token cap.  Each reply is held for
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

Wire-up: ``bench_cmd.register`` calls :func:`register_bench` with its sub-parser group.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from .args import positive_int
from .errors import CliError
from .league_bench_cmd import instant_league

SEATS = 5


def register_bench(bsub: Any) -> None:
    """Add ``caps`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "caps",
        help="spending-cap overshoot: requests answered after a token cap trips, with many calls "
        "in flight; resumed runs counting earlier spend",
        description="Runs temporary leagues (nothing is kept) and ends with one JSON line.",
    )
    p.add_argument("--concurrent", type=positive_int, default=32, help="games at once")
    p.add_argument("--trials", type=positive_int, default=3, help="capped runs to measure")
    p.add_argument(
        "--latency", type=float, default=0.2, help="seconds each reply is held (default 0.2)"
    )
    p.add_argument(
        "--cap-tokens",
        type=positive_int,
        default=300_000,
        help="token cap of each run (default 300000)",
    )
    p.add_argument("--seed", type=int, default=1, help="base seed")
    p.set_defaults(func=run_caps_bench)


class Held:
    """A provider whose replies arrive ``latency`` seconds (plus up to ``spread``, a seeded draw)
    after the server answered: a slow provider made of an instant one."""

    def __init__(self, provider: Any, latency: float, spread: float = 0.0, seed: int = 0) -> None:
        self._provider = provider
        self._latency = latency
        self._spread = spread
        self._rng = random.Random(seed)
        self.name = provider.name
        self.default_answer_mode = provider.default_answer_mode
        self.supported_answer_modes = provider.supported_answer_modes

    async def complete(self, request: Any) -> Any:
        reply = await self._provider.complete(request)
        await asyncio.sleep(self._latency + self._rng.uniform(0.0, self._spread))
        return reply

    async def aclose(self) -> None:
        await self._provider.aclose()


def _config(
    name: str, base_url: str, args: argparse.Namespace, cap: int, seed: int, tmp: Path
) -> Any:
    players = [f"model-{i}" for i in range(SEATS)]
    return instant_league(
        name, base_url, players, SEATS, args.concurrent, args.concurrent, seed, tmp,
        spending={"max_tokens": cap},
    )  # fmt: skip


def _session(config: Any, tmp: Path, latency: float, resume: bool) -> dict[str, Any]:
    """One session of a capped run; figures from the runner and the run's spend ledger."""
    from harness.league.model_seats import ModelSeats
    from harness.league.runner import LeagueRunner, LeagueStopped

    run_dir = tmp / config.name
    seats = ModelSeats(config, run_dir)
    seats.wrap_provider = lambda p: Held(p, latency)
    tokens_before, calls_before = seats.ledger.tokens, seats.ledger.calls
    runner = LeagueRunner(config, run_dir, resume=resume, model_seats=seats)
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


def run_caps_bench(args: argparse.Namespace) -> int:
    if args.latency < 0:
        raise CliError("--latency must be 0 or more")
    try:
        import openai  # noqa: F401

        from harness.league.instant_server import InstantServer
    except ImportError as e:
        raise CliError(f"model seats are not available: {e}") from None
    result: dict[str, Any] = {
        "benchmark": "caps",
        "seats": SEATS,
        "concurrent": args.concurrent,
        "latency_s": args.latency,
        "cap_tokens": args.cap_tokens,
    }
    t0 = time.perf_counter()
    print(
        f"spending-cap benchmark: {args.trials} runs of {args.concurrent} concurrent games, "
        f"{SEATS} model seats each, token cap {args.cap_tokens:,}, replies held "
        f"{args.latency:g} s (instant local server)"
    )
    with tempfile.TemporaryDirectory(prefix="bangarena-bench-") as d:
        tmp = Path(d)
        trials = []
        for i in range(args.trials):
            with InstantServer() as server:
                config = _config(
                    f"caps-{i}", server.base_url, args, args.cap_tokens, args.seed + 1000 * i, tmp
                )
                trial = _session(config, tmp, args.latency, resume=False)
            served = server.served or 0
            # requests the server answered beyond the call that tripped the cap
            trial["requests"] = served
            trial["overshoot_requests"] = max(0, served - trial.get("trip_call", served))
            trials.append(trial)
            print(
                f"  run {i + 1}: cap tripped at call {trial.get('trip_call')}, "
                f"{trial['overshoot_requests']} more requests reached the server "
                f"(calls in flight at the trip; {trial['cancelled']} cancelled)"
            )
        overs = [t["overshoot_requests"] for t in trials]
        result["trials"] = trials
        result["overshoot_max"] = max(overs)
        result["overshoot_mean"] = round(statistics.mean(overs), 2)
        result["bound"] = args.concurrent
        ok = all(t["stopped"] for t in trials) and max(overs) <= args.concurrent
        print(
            f"  overshoot           max {result['overshoot_max']}, mean "
            f"{result['overshoot_mean']} requests  (bound {args.concurrent}: "
            f"{'PASS' if ok else 'FAIL'})"
        )
        # a run resumed with the same cap, then with the cap raised by a tenth
        with InstantServer() as server:
            config = _config("resumed", server.base_url, args, args.cap_tokens, args.seed, tmp)
            first = _session(config, tmp, args.latency, resume=False)
            same = _session(config, tmp, args.latency, resume=True)
            room = args.cap_tokens // 10
            raised_cap = same["tokens_before"] + room
            config = config.model_copy(
                update={"spending": config.spending.model_copy(update={"max_tokens": raised_cap})}
            )
            raised = _session(config, tmp, args.latency, resume=True)
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
    result["python"] = platform.python_version()
    print(json.dumps(result))
    return 0
