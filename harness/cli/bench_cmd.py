"""``bangarena bench engine`` — uniformly random games; prints figures and a final JSON line."""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import sys
import time
from typing import Any

from harness.engine import Game

from . import (
    analysis_bench_cmd,
    bots_bench_cmd,
    caps_bench_cmd,
    deadline_bench_cmd,
    league_bench_cmd,
    llm_bench_cmd,
    quiz_cmd,
    report_bench_cmd,
    serve_bench_cmd,
    value_bench_cmd,
    variance_bench_cmd,
)
from .args import add_series_args, positive_int
from .progress import Progress


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="benchmarks that print figures and a final JSON line")
    bsub = p.add_subparsers(dest="bench", required=True, parser_class=type(p))
    e = bsub.add_parser(
        "engine",
        help="random games on one core: games/s, decisions/s (options computed at every one)",
    )
    add_series_args(e, 2000, "random games to play", 5)
    e.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    e.add_argument(
        "--compare",
        choices=["rlcard"],
        help="also play RLCard's UNO with random agents in the same run (needs the [rl] extra) "
        "and print both figures and the ratio (default: no comparison)",
    )
    e.add_argument(
        "--rounds", type=positive_int, default=5, help="with --compare: alternating rounds"
    )
    e.set_defaults(func=run_engine)
    z = bsub.add_parser(
        "pettingzoo",
        help="random-policy rollouts of the PettingZoo environment (needs the [rl] extra)",
    )
    add_series_args(z, 20, "games to play", 5)
    z.set_defaults(func=run_pettingzoo)
    bots_bench_cmd.register_bench(bsub)
    league_bench_cmd.register_bench(bsub)
    caps_bench_cmd.register_bench(bsub)
    deadline_bench_cmd.register_bench(bsub)
    llm_bench_cmd.register_bench(bsub)
    report_bench_cmd.register_bench(bsub)
    value_bench_cmd.register_bench(bsub)
    analysis_bench_cmd.register_bench(bsub)
    variance_bench_cmd.register_bench(bsub)
    serve_bench_cmd.register_bench(bsub)
    quiz_cmd.register_bench(bsub)


def _random_games(
    games: int, seats: int, mode: str, seed: int, progress: Progress | None = None, done: int = 0
) -> tuple[int, int, float]:
    """Play ``games`` uniformly random games; return (decisions, longest game, seconds)."""
    decisions = 0
    longest = 0
    t0 = time.perf_counter()
    for i in range(games):
        if progress is not None and i % 50 == 0:
            progress.update(done + i)
        game = Game.new(seats, mode, seed + i)
        rng = random.Random(seed + i)
        k = 0
        while game.pending is not None:
            options = game.pending.options  # computed by the engine at every decision
            game.apply(options[int(rng.random() * len(options))])
            k += 1
        decisions += k
        longest = max(longest, k)
    return decisions, longest, time.perf_counter() - t0


def play_random_games(
    games: int, seats: int, mode: str, seed: int, progress: Progress | None = None
) -> dict[str, Any]:
    decisions, longest, elapsed = _random_games(games, seats, mode, seed, progress)
    return _figures(games, seats, mode, decisions, longest, elapsed)


def _figures(
    games: int, seats: int, mode: str, decisions: int, longest: int, elapsed: float
) -> dict[str, Any]:
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


def compare_rlcard(
    games: int, seats: int, mode: str, seed: int, rounds: int, progress: Progress | None = None
) -> dict[str, Any]:
    """Our random games and RLCard's UNO random games in alternating rounds of one process, so
    both figures see the same machine load; the ratio is of the two totals."""
    from harness.integrations.rlcard_uno import UnoRandomPlay

    uno = UnoRandomPlay(seed)
    ours = [0, 0, 0.0]  # decisions, longest, seconds
    theirs = [0, 0.0]
    per_round = [games // rounds + (1 if r < games % rounds else 0) for r in range(rounds)]
    done = 0
    for n in per_round:
        d, longest, t = _random_games(n, seats, mode, seed + done, progress, done)
        ours[0] += d
        ours[1] = max(ours[1], longest)
        ours[2] += t
        ud, ut = uno.play(n)
        theirs[0] += ud
        theirs[1] += ut
        done += n
    r = _figures(games, seats, mode, int(ours[0]), int(ours[1]), ours[2])
    rl_rate = theirs[0] / theirs[1]
    r["compare"] = {
        "peer": "rlcard uno, random agents",
        "rlcard": uno.version,
        "rounds": rounds,
        "games": games,
        "decisions_per_s": round(rl_rate),
        "decisions_per_game": round(theirs[0] / games, 1),
        "ratio": round(r["decisions_per_s"] / rl_rate, 2),
    }
    return r


def run_engine(args: argparse.Namespace) -> int:
    from harness.extras import MissingExtra

    with Progress("bench engine", args.games, enabled=not args.no_progress) as bar:
        if args.compare == "rlcard":
            try:
                r = compare_rlcard(args.games, args.seats, args.mode, args.seed, args.rounds, bar)
            except MissingExtra as e:
                print(f"bangarena: {e}", file=sys.stderr)
                return 2
        else:
            r = play_random_games(args.games, args.seats, args.mode, args.seed, bar)
        bar.update(args.games)
    print(f"engine benchmark: {r['games']} random games, {r['seats']} seats, {r['mode']}, 1 core")
    print(f"  games/s             {r['games_per_s']:>10,.1f}")
    print(f"  decisions/s         {r['decisions_per_s']:>10,}")
    print(
        f"  decisions per game  {r['decisions_per_game']:>10,.1f}  (longest {r['longest_game_decisions']})"
    )
    print(f"  peak memory (RSS)   {r['peak_rss_mb']:>10,.1f} MB")
    c = r.get("compare")
    if c is not None:
        print(
            f"RLCard {c['rlcard']} UNO, random agents, same run ({c['rounds']} alternating rounds)"
        )
        print(f"  decisions/s         {c['decisions_per_s']:>10,}")
        print(f"  decisions per game  {c['decisions_per_game']:>10,.1f}")
        print(f"  ratio (ours/RLCard) {c['ratio']:>10.2f}x")
    print(json.dumps({"benchmark": "engine", **r}))
    return 0


def run_pettingzoo(args: argparse.Namespace) -> int:
    """Both with the JSON view in ``info`` (the default) and without it."""
    from harness.extras import MissingExtra

    try:
        from harness.integrations.rollout import random_rollout

        runs = [
            random_rollout(args.games, args.seats, args.mode, args.seed, views)
            for views in (False, True)
        ]
    except MissingExtra as e:
        print(f"bangarena: {e}", file=sys.stderr)
        return 2
    print(f"PettingZoo AEC environment: {args.games} random-policy games, {args.seats} seats")
    for r in runs:
        label = "with JSON views" if r["views"] else "numeric only   "
        print(
            f"  {label}  {r['games_per_s']:>8,.2f} games/s  {r['decisions_per_s']:>8,} decisions/s"
            f"  {r['agent_steps_per_s']:>8,} agent steps/s"
        )
    print(json.dumps({"benchmark": "pettingzoo", "runs": runs}))
    return 0
