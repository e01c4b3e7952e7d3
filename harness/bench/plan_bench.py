"""``bangarena bench plan`` — does a plan made from a held-out pilot deliver its power?

One design — a rule bot against a random seat at one table size, paired (at four seats, the case
the plan once planned at 41 % power) — is played as a large **pool** and as several **pilots**,
each with its own base seed, so no deal of a pilot is in the pool.  Each pilot plans the league
(:mod:`harness.runs.plan`, raw results: the luck adjustment is not computed) to detect
``--detect`` at 80 % power with a two-sided 5 % test; the power of each role's planned games is
then measured on the pool by drawing leagues of whole deals (:mod:`harness.runs.plan_power`).
The pool planning for itself is shown too (no pilot noise).  A pilot's spread is an estimate, so a
single pilot's plan delivers more or less than 80 %; over the pilots the delivered power should
average about 80 %.  Ends with a JSON line.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import pandas as pd

from .core import LoadAverage, print_result, temp_dir
from .league import run_league

POOL_SEED = 330_000
PILOT_SEED = 331_000
PROMISED = 0.8
ALPHA = 0.05
GOAL = 0.05  # the delivered power, averaged over pilots, within ±5 points of the promise


def _config(name: str, seats: int, games: int, seed: int) -> Any:
    from harness.league.league_config import parse_config

    return parse_config(
        {
            "name": name,
            "players": [{"name": "rulebot", "kind": "bot"}, {"name": "random", "kind": "random"}],
            "tables": [{"seats": [seats], "modes": ["classic"]}],
            "games_per_table": games,
            "base_seed": seed,
            "paired": True,
        }
    )


def _rows(run: Path) -> pd.DataFrame:
    from harness.runs import base_rates, load_run

    data = load_run(run)
    df = data.seats.merge(data.games[["game_id", "seed", "rotation"]], on="game_id")
    base = base_rates(df)[["seats", "mode", "role", "base_rate"]]
    return df.merge(base, on=["seats", "mode", "role"])


def _values(df: pd.DataFrame, role: str) -> pd.DataFrame:
    from harness.runs import ROLE_ADJUSTED

    if role == ROLE_ADJUSTED:
        return df.assign(value=df["won"].astype(float) - df["base_rate"])
    part = df[df["role"] == role]
    return part.assign(value=part["won"].astype(float))


def _delivered(
    run: Path, pool: pd.DataFrame, planned: Any, detect: float, draws: int, seed: int
) -> dict[str, tuple[int, float]]:
    """Per role: the games per table planned from ``run`` and their power on ``pool``."""
    from harness.league.schedule import build_schedule
    from harness.runs import bootstrap_power, make_plan, pilot_source

    plan = make_plan(planned, detect, ALPHA, PROMISED, pilot_source(run, luck=False),
                     default_calls=0.0)  # fmt: skip
    out = {}
    for row in plan.roles:
        g = row.games_raw // plan.cells
        schedule = build_schedule(planned.model_copy(update={"games_per_table": g}))
        p = bootstrap_power(_values(pool, row.role), schedule, "rulebot", "random", detect,
                            ALPHA, draws, seed)  # fmt: skip
        out[row.role] = (g, p.power)
    return out


def bench_plan(
    seats: int,
    pool_games: int,
    pilots: int,
    pilot_games: int,
    detect: float,
    draws: int,
    workers: int | None,
    progress: bool,
) -> dict[str, Any]:
    t0 = time.perf_counter()
    load = LoadAverage()
    planned = _config("planned", seats, 1, POOL_SEED)
    with temp_dir() as tmp:
        run_league(_config("pool", seats, pool_games, POOL_SEED), tmp / "pool", workers=workers,
                   progress=progress)  # fmt: skip
        pool = _rows(tmp / "pool")
        itself = _delivered(tmp / "pool", pool, planned, detect, draws, 0)
        held_out: list[dict[str, tuple[int, float]]] = []
        overlap = 0
        for i in range(pilots):
            run = tmp / f"pilot{i}"
            run_league(_config(f"pilot{i}", seats, pilot_games, PILOT_SEED + i), run,
                       workers=workers, progress=progress)  # fmt: skip
            overlap += len(set(_rows(run)["seed"]) & set(pool["seed"]))
            held_out.append(_delivered(run, pool, planned, detect, draws, i + 1))
    roles = []
    for role, (g, power) in itself.items():
        games = [h[role][0] for h in held_out]
        powers = [h[role][1] for h in held_out]
        mean = statistics.fmean(powers)
        roles.append(
            {
                "role": role,
                "pool_games": g,
                "pool_power": round(power, 3),
                "pilot_games": [min(games), max(games)],
                "pilot_power_mean": round(mean, 3),
                "pilot_power_range": [round(min(powers), 3), round(max(powers), 3)],
                "pilot_power_sd": round(statistics.stdev(powers), 3) if len(powers) > 1 else None,
                "pass": abs(mean - PROMISED) <= GOAL,
            }
        )
    return {
        "benchmark": "plan",
        "design": f"rulebot vs random, {seats} seats classic, paired",
        "pool_games": pool_games,
        "pool_deals": int(pool["seed"].nunique()),
        "pilots": pilots,
        "pilot_games": pilot_games,
        "shared_deals": overlap,
        "detect": detect,
        "alpha": ALPHA,
        "promised": PROMISED,
        "draws": draws,
        "roles": roles,
        "pass": all(r["pass"] for r in roles),
        "load_average": load.after(),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def run(
    seats: int,
    pool_games: int,
    pilots: int,
    pilot_games: int,
    detect: float,
    draws: int,
    workers: int | None,
    progress: bool = True,
) -> int:
    """Measure, print the figures and the JSON line."""
    r = bench_plan(seats, pool_games, pilots, pilot_games, detect, draws, workers, progress)
    print(
        f"plan benchmark: {r['design']}; pool {r['pool_games']} games ({r['pool_deals']} deals), "
        f"{r['pilots']} held-out pilots of {r['pilot_games']} games ({r['shared_deals']} deals "
        f"shared with the pool); detect δ = {r['detect']:g}, two-sided α = {r['alpha']:g}, "
        f"promised power {r['promised']:g}; raw results; {r['draws']} leagues drawn per plan"
    )
    print(
        f"  {'role':<21}{'pool as pilot: games':>21}{'power':>7}   "
        f"{'held-out pilots: games':<24}{'power mean':>10}  range"
    )
    for x in r["roles"]:
        lo, hi = x["pilot_power_range"]
        print(
            f"  {x['role']:<21}{x['pool_games']:>21}{x['pool_power']:>7.3f}   "
            f"{x['pilot_games'][0]:>5}–{x['pilot_games'][1]:<18}{x['pilot_power_mean']:>10.3f}  "
            f"{lo:.3f}–{hi:.3f}" + ("" if x["pass"] else "  (off by more than 5 points)")
        )
    load = LoadAverage()
    print(f"  {load.line(r['load_average'])}; {r['seconds']} s")
    return print_result(r)
