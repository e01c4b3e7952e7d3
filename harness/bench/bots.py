"""``bangarena bench bots`` — rule-bot teams against random agents; prints figures and a JSON line.

For every team (law, raiders, loner) and table size (5 and 7 seats, classic mode) it plays
``--games`` tables where the seats dealt that team are rule bots and every other seat is a
:class:`~harness.agents.RandomAgent`, and the same deals with every seat random.  It prints the
team's win rate with a 95 % Wilson interval next to the random baseline, checks the targets
(law and raiders ≥ 75 %; a bot loner ≥ 3× a random loner), and measures bot decisions per second
on one core (time inside ``RuleBot.decide`` only, and whole bot-only games).

"""

from __future__ import annotations

import time
from typing import Any

from harness.league.bot_tables import TableJob, TableOutcome, bot_speed, run_tables
from harness.league.stats_basic import wilson

from .core import print_result
from .progress_display import Progress

TEAMS = ("law", "raiders", "loners")
SIDES = {"law": ("law",), "raiders": ("raiders",), "loners": ("loner", "loners")}
TEAM_LABEL = {"law": "law", "raiders": "raiders", "loners": "loner"}
SEATS = (5, 7)
MODE = "classic"
TARGET_RATE = 0.75
TARGET_LONER_RATIO = 3.0
TARGET_SPEED = 5000


def _rate(outcomes: list[TableOutcome], team: str) -> dict[str, Any]:
    n = len(outcomes)
    k = sum(1 for o in outcomes if o.side in SIDES[team])
    lo, hi = wilson(k, n)
    return {"wins": k, "games": n, "rate": round(k / n, 4), "lo": round(lo, 4), "hi": round(hi, 4)}


def bench_bots(
    games: int, seed: int, workers: int, speed_games: int, progress: bool = False
) -> dict[str, Any]:
    """Run the benchmark and return every figure (what the JSON line holds)."""
    t0 = time.perf_counter()
    jobs: list[TableJob] = []
    for n in SEATS:
        for teams in [(t,) for t in TEAMS] + [()]:
            jobs += [TableJob(n, MODE, seed + i, teams) for i in range(games)]
    with Progress("bench bots", len(jobs), unit="tables", enabled=progress) as bar:
        outcomes = run_tables(jobs, workers, on_done=lambda part: bar.advance(len(part)))
    cells: dict[tuple[int, tuple[str, ...]], list[TableOutcome]] = {}
    for o in outcomes:
        cells.setdefault((o.job.seats, o.job.bot_teams), []).append(o)
    rows = []
    for team in TEAMS:
        for n in SEATS:
            bot = _rate(cells[(n, (team,))], team)
            rnd = _rate(cells[(n, ())], team)
            ratio = bot["rate"] / rnd["rate"] if rnd["rate"] else None
            if team == "loners":
                target = f">= {TARGET_LONER_RATIO:g}x random"
                ok = ratio is None or ratio >= TARGET_LONER_RATIO
            else:
                target = f">= {TARGET_RATE:.0%}"
                ok = bot["rate"] >= TARGET_RATE
            rows.append(
                {
                    "team": TEAM_LABEL[team],
                    "seats": n,
                    "bot": bot,
                    "random": rnd,
                    "ratio": round(ratio, 2) if ratio is not None else None,
                    "target": target,
                    "pass": ok,
                }
            )
    tables_s = time.perf_counter() - t0
    speed = bot_speed(speed_games, SEATS, MODE, seed)
    return {
        "benchmark": "bots",
        "mode": MODE,
        "games_per_row": games,
        "workers": workers,
        "rows": rows,
        "fallbacks": sum(o.fallbacks for o in outcomes),
        "decisions_per_s": {
            "decide_only": round(speed.bot_decisions_per_s),
            "whole_bot_games": round(speed.game_decisions_per_s),
            "decisions": speed.decisions,
            "measured": "one core; decide_only = time inside RuleBot.decide; whole_bot_games = "
            "bot-only games including engine, views and the play_game runner",
            "target": TARGET_SPEED,
            "pass": speed.bot_decisions_per_s >= TARGET_SPEED,
        },
        "tables_seconds": round(tables_s, 1),
        "seconds": round(time.perf_counter() - t0, 1),
        "all_pass": all(r["pass"] for r in rows) and speed.bot_decisions_per_s >= TARGET_SPEED,
    }


def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f} % [{100 * r['lo']:4.1f}, {100 * r['hi']:4.1f}]"


def run(games: int, seed: int, workers: int, speed_games: int, progress: bool = True) -> int:
    """Measure, print the figures and the JSON line."""
    r = bench_bots(games, seed, workers, speed_games, progress)
    print(
        f"bots benchmark: {MODE}, {r['games_per_row']} tables per row, {r['workers']} workers; "
        "bot team vs random seats, baseline = the same deals with every seat random"
    )
    print(
        f"  {'team':<8}{'seats':>5}  {'bot team win rate [95% CI]':<28}"
        f"{'random team [95% CI]':<28}{'ratio':>7}  target"
    )
    for row in r["rows"]:
        ratio = f"{row['ratio']:.1f}x" if row["ratio"] is not None else "-"
        print(
            f"  {row['team']:<8}{row['seats']:>5}  {_pct(row['bot']):<28}{_pct(row['random']):<28}"
            f"{ratio:>7}  {row['target']:<16}{'PASS' if row['pass'] else 'FAIL'}"
        )
    d = r["decisions_per_s"]
    print(f"  fallbacks in bot tables: {r['fallbacks']}")
    print(
        f"  bot decisions/s, one core: {d['decide_only']:,} (time inside RuleBot.decide only; "
        f"target >= {TARGET_SPEED:,}: {'PASS' if d['pass'] else 'FAIL'}); "
        f"whole bot-only games {d['whole_bot_games']:,} (engine + views + runner + bots)"
    )
    print(f"  time: {r['seconds']} s")
    return print_result(r)
