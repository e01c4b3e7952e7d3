"""``bangarena bench engine`` — uniformly random games; prints figures and a final JSON line."""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import time
from typing import Any

from harness.engine import Game
from harness.engine.roles import MODES

from . import (
    bots_bench_cmd,
    caps_bench_cmd,
    deadline_bench_cmd,
    league_bench_cmd,
    llm_bench_cmd,
    report_bench_cmd,
    serve_bench_cmd,
)
from .args import positive_int, seat_count
from .progress import Progress


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="benchmarks that print figures and a final JSON line")
    bsub = p.add_subparsers(dest="bench", required=True, parser_class=type(p))
    e = bsub.add_parser(
        "engine",
        help="random games on one core: games/s, decisions/s (options computed at every one)",
    )
    e.add_argument("--games", type=positive_int, default=2000, help="random games to play")
    e.add_argument("--seats", type=seat_count, default=5, help="seats at every table (4-8)")
    e.add_argument("--mode", choices=MODES, default="classic", help="role mode")
    e.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 each)")
    e.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    e.set_defaults(func=run_engine)
    bots_bench_cmd.register_bench(bsub)
    league_bench_cmd.register_bench(bsub)
    caps_bench_cmd.register_bench(bsub)
    deadline_bench_cmd.register_bench(bsub)
    llm_bench_cmd.register_bench(bsub)
    report_bench_cmd.register_bench(bsub)
    serve_bench_cmd.register_bench(bsub)


def play_random_games(
    games: int, seats: int, mode: str, seed: int, progress: Progress | None = None
) -> dict[str, Any]:
    decisions = 0
    longest = 0
    t0 = time.perf_counter()
    for i in range(games):
        if progress is not None and i % 50 == 0:
            progress.update(i)
        game = Game.new(seats, mode, seed + i)
        rng = random.Random(seed + i)
        k = 0
        while game.pending is not None:
            options = game.pending.options  # computed by the engine at every decision
            game.apply(options[rng.randrange(len(options))])
            k += 1
        decisions += k
        longest = max(longest, k)
    elapsed = time.perf_counter() - t0
    return {
        "games": games,
        "seats": seats,
        "mode": mode,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "decisions_per_game": round(decisions / games, 1),
        "longest_game_decisions": longest,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "python": platform.python_version(),
    }


def run_engine(args: argparse.Namespace) -> int:
    with Progress("bench engine", args.games, enabled=not args.no_progress) as bar:
        r = play_random_games(args.games, args.seats, args.mode, args.seed, bar)
        bar.update(args.games)
    print(f"engine benchmark: {r['games']} random games, {r['seats']} seats, {r['mode']}, 1 core")
    print(f"  games/s             {r['games_per_s']:>10,.1f}")
    print(f"  decisions/s         {r['decisions_per_s']:>10,}")
    print(
        f"  decisions per game  {r['decisions_per_game']:>10,.1f}  (longest {r['longest_game_decisions']})"
    )
    print(f"  peak memory (RSS)   {r['peak_rss_mb']:>10,.1f} MB")
    print(json.dumps({"benchmark": "engine", **r}))
    return 0
