"""``bangarena bench engine`` — uniformly random games on one core: games/s and decisions/s (the
engine computes the options at every decision); optionally RLCard's UNO in the same run."""

from __future__ import annotations

import random
import time
from typing import Any

from harness.engine import Game
from harness.extras import MissingExtra

from .core import BenchError, peak_rss_mb, print_result, python_version, rounds
from .progress_display import Progress


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
        "peak_rss_mb": peak_rss_mb(),
        "python": python_version(),
    }


def compare_rlcard(
    games: int, seats: int, mode: str, seed: int, n_rounds: int, progress: Progress | None = None
) -> dict[str, Any]:
    """Our random games and RLCard's UNO random games in alternating rounds of one process, so
    both figures see the same machine load; the ratio is of the two totals."""
    from harness.integrations.rlcard_uno import UnoRandomPlay

    uno = UnoRandomPlay(seed)
    ours = [0, 0, 0.0]  # decisions, longest, seconds
    theirs = [0, 0.0]
    done = 0
    for n in rounds(games, n_rounds):
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
        "rounds": n_rounds,
        "games": games,
        "decisions_per_s": round(rl_rate),
        "decisions_per_game": round(theirs[0] / games, 1),
        "ratio": round(r["decisions_per_s"] / rl_rate, 2),
    }
    return r


def run(
    games: int,
    seats: int,
    mode: str,
    seed: int,
    compare: str | None = None,
    n_rounds: int = 5,
    progress: bool = True,
) -> int:
    """Play, print the figures and the JSON line; ``compare="rlcard"`` adds RLCard's UNO."""
    with Progress("bench engine", games, enabled=progress) as bar:
        if compare == "rlcard":
            try:
                r = compare_rlcard(games, seats, mode, seed, n_rounds, bar)
            except MissingExtra as e:
                raise BenchError(str(e)) from None
        else:
            r = play_random_games(games, seats, mode, seed, bar)
        bar.update(games)
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
    return print_result({"benchmark": "engine", **r})
