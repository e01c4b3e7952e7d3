"""``bangarena bench value`` — calibration and speed of the value model; ends with a JSON line.

On held-out rule-bot games of every table size (4–8) and mode: the fitted model's reliability
table and Brier score next to the base-rate predictor (the training share of wins of the seat's
team at that size and mode); on ``--positions`` held-out positions, the same against the rollout
reference (``--rollouts`` rule-bot playouts each).  Speed on one core: fitted-model evaluations/s
and rollout decisions/s, measured in the same run as ``bench bots``'s whole bot-game
decisions/s of this code (the goal, against the code before the playout path, is checked by
``bench speed``).  ``--svg`` writes the reliability diagram.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from harness.analysis.calibration import brier, reference_positions, reliability
from harness.analysis.features import CELLS
from harness.analysis.fitted import FittedValue
from harness.analysis.rollout_value import RolloutValue
from harness.analysis.train import HOLDOUT_SEED, self_play
from harness.engine import Game
from harness.engine.roles import TEAM_OF
from harness.league.bot_tables import bot_speed

from .core import BenchError, print_result
from .progress_display import Progress


def _bins(p: np.ndarray, y: np.ndarray) -> list[dict[str, Any]]:
    return [
        {"lo": b.lo, "hi": b.hi, "rows": b.rows, "predicted": round(b.predicted, 4),
         "observed": round(b.observed, 4)}
        for b in reliability(p, y)
    ]  # fmt: skip


def timed_rollouts(
    rv: RolloutValue, states: list[Game], advance: Callable[[], None] | None = None
) -> tuple[list[np.ndarray], float]:
    """``rv``'s values of each state, and the seconds spent inside the rollouts only."""
    values, seconds = [], 0.0
    for g in states:
        t1 = time.perf_counter()
        values.append(rv.values(g))
        seconds += time.perf_counter() - t1
        if advance is not None:
            advance()
    return values, seconds


def rollout_speed(positions: int, rollouts: int) -> tuple[int, float]:
    """Decisions played and seconds spent in ``rollouts`` rule-bot rollouts of each of
    ``positions`` reference positions: the rollouts this benchmark times (one core)."""
    rv = RolloutValue(rollouts, seed=1)
    _, seconds = timed_rollouts(rv, [g for g, _ in reference_positions(positions)])
    return rv.decisions, seconds


def bench_value(
    games: int, positions: int, rollouts: int, speed_games: int, progress: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    t0 = time.perf_counter()
    model = FittedValue()
    with Progress("bench value", games * len(CELLS), unit="games", enabled=progress) as bar:
        data = self_play(games, HOLDOUT_SEED, 4, bar.advance)
    x, key, y = data.arrays()
    p = model.predict(x, key)
    base = model.base_rates(key)
    per_cell = []
    for ci, (n, m) in enumerate(CELLS):
        sel = key // 3 == ci
        per_cell.append(
            {"seats": n, "mode": m, "rows": int(sel.sum()),
             "brier": round(brier(p[sel], y[sel]), 4),
             "brier_base": round(brier(base[sel], y[sel]), 4)}
        )  # fmt: skip
    # the rollout reference on the same positions
    ref = reference_positions(positions)
    rv = RolloutValue(rollouts, seed=1)
    with Progress("rollouts", len(ref), unit="positions", enabled=progress) as bar:
        pr, rollout_s = timed_rollouts(rv, [g for g, _ in ref], bar.advance)
    pf = [model.values(g) for g, _ in ref]
    pb = [[model.base_rate(TEAM_OF[s.role], g.n, g.mode) for s in g.seats] for g, _ in ref]
    yr = [won for _, won in ref]
    pr_a, pf_a, pb_a, yr_a = (np.concatenate([np.asarray(v) for v in a]) for a in (pr, pf, pb, yr))
    # speed, one core, side by side
    states = [g for g, _ in ref]
    t2 = time.perf_counter()
    evals = 0
    while time.perf_counter() - t2 < 1.0:
        for g in states:
            model.values(g)
        evals += len(states)
    evals_per_s = evals / (time.perf_counter() - t2)
    speed = bot_speed(speed_games)
    rollout_dps = rv.decisions / rollout_s if rollout_s else 0.0
    ratio = rollout_dps / speed.game_decisions_per_s if speed.game_decisions_per_s else 0.0
    result = {
        "benchmark": "value",
        "model": {"rows": model.file.rows, "data_sha256": model.file.data_sha256,
                  "training": model.file.training},
        "holdout": {
            "games": data.games, "rows": int(len(y)), "seed": HOLDOUT_SEED,
            "brier": round(brier(p, y), 4), "brier_base": round(brier(base, y), 4),
            "reliability": _bins(p, y), "cells": per_cell,
        },
        "reference": {
            "positions": len(ref), "rollouts": rollouts, "rows": int(len(yr_a)),
            "brier_fitted": round(brier(pf_a, yr_a), 4),
            "brier_rollout": round(brier(pr_a, yr_a), 4),
            "brier_base": round(brier(pb_a, yr_a), 4),
            "mean_abs_gap": round(float(np.mean(np.abs(pf_a - pr_a))), 4),
            "reliability_rollout": _bins(pr_a, yr_a),
        },
        "speed": {
            "fitted_evaluations_per_s": round(evals_per_s),
            "rollout_decisions_per_s": round(rollout_dps),
            "bench_bots_whole_game_decisions_per_s": round(speed.game_decisions_per_s),
            "ratio": round(ratio, 2),
            "measured": "one core, one run; an evaluation = every seat of one state; ratio: "
                        "rollouts over this code's whole bot games (the goal against the code "
                        "before the playout path: bench speed)",
        },
        "seconds": round(time.perf_counter() - t0, 1),
    }  # fmt: skip
    return result, {"fitted": reliability(p, y), "rollout": reliability(pr_a, yr_a)}


def run(
    games: int,
    positions: int,
    rollouts: int,
    speed_games: int,
    svg: Path | None,
    progress: bool = True,
) -> int:
    """Measure, print the figures and the JSON line."""
    if svg is not None and not svg.parent.is_dir():
        raise BenchError(f"--svg: folder {svg.parent} does not exist")
    r, bins = bench_value(games, positions, rollouts, speed_games, progress)
    h, ref, sp = r["holdout"], r["reference"], r["speed"]
    print(f"value benchmark: fitted logistic model, {r['model']['rows']:,} training rows")
    print(
        f"  held-out: {h['games']} games, {h['rows']:,} seat-positions; Brier fitted "
        f"{h['brier']:.4f} vs base rate {h['brier_base']:.4f}"
    )
    print(f"  {'P(win) bin':<12}{'rows':>8}{'predicted':>11}{'observed':>10}")
    for b in h["reliability"]:
        print(
            f"  {b['lo']:.1f}-{b['hi']:.1f}    {b['rows']:>8,}{b['predicted']:>11.3f}{b['observed']:>10.3f}"
        )
    print(f"  {'seats':>5} {'mode':<13}{'rows':>7}{'Brier':>8}{'base':>8}")
    for c in h["cells"]:
        print(
            f"  {c['seats']:>5} {c['mode']:<13}{c['rows']:>7,}{c['brier']:>8.4f}{c['brier_base']:>8.4f}"
        )
    print(
        f"  rollout reference: {ref['positions']} positions × {ref['rollouts']} rollouts: Brier "
        f"rollout {ref['brier_rollout']:.4f}, fitted {ref['brier_fitted']:.4f}, base "
        f"{ref['brier_base']:.4f}; mean |fitted - rollout| {ref['mean_abs_gap']:.3f}"
    )
    print(
        f"  speed (one core): fitted {sp['fitted_evaluations_per_s']:,} evaluations/s; rollouts "
        f"{sp['rollout_decisions_per_s']:,} decisions/s vs bench bots whole games "
        f"{sp['bench_bots_whole_game_decisions_per_s']:,} = {sp['ratio']:.2f}x (this code's "
        "whole games; the goal against the code before: bench speed)"
    )
    if svg is not None:
        from harness.report.reliability import reliability_svg

        svg.write_text(
            reliability_svg(
                [("fitted (held-out)", bins["fitted"]), ("rollouts (reference)", bins["rollout"])],
                "Value model reliability",
            ),
            encoding="utf-8",
        )
        print(f"  reliability diagram: {svg}")
    print(f"  time: {r['seconds']} s")
    return print_result(r)
