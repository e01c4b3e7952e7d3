"""``bangarena bench analysis`` — move analysis seconds per decision at the default precision;
prints figures and a final JSON line.

A bot-only league (a rule bot and a random player, table sizes 4–8 in classic and double_agent
mode, ``--games`` games) is played into a temporary folder (not timed), or ``--run RUN`` is
analysed instead (into a temporary copy).  Then ``bangarena analyze`` runs on it with
``--workers`` processes (default 2), the default value model and worlds, on the random seats'
decisions (every decision with more than one option): the figure is wall seconds per analysed
decision.  Goal: ≤ 1 s per decision on 2 cores.

``--compare`` measures the default against a reference on the same decisions: a bot-only league
of ``--games`` games at 5 seats, classic (a rule bot and a random player; or ``--run RUN``), whose
random seats' decisions are analysed by the default (rule-bot play-outs, 16 worlds up to 32) and by
the reference (play-outs, ``--reference-worlds`` worlds, default 64, from another seed stream, so
the reference's worlds are not the default's).  Figures (:mod:`harness.analysis.agreement`):
best-option agreement (goal ≥ 80 %), the chosen options' loss correlation (goal ≥ 0.8), label
agreement, and wall seconds per decision of the default (goal ≤ 1 s on 2 cores).  Beside the strict
best-option agreement, for a reference that is itself noisy: the share of decisions where the
default's best (or one tied with it) is within twice the reference's paired standard error of the
reference's best, and the agreement over the decisions where the reference's best is clear (no
goal; the pass is the strict measure's).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

from .core import BenchError, LoadAverage, print_result, python_version, temp_dir
from .league import rulebot_and_random
from .progress_display import Progress

GOAL_SECONDS = 1.0
GOAL_AGREEMENT = 0.80
GOAL_CORRELATION = 0.80
REFERENCE_WORLDS = 64
REFERENCE_STREAM = "reference"
SEATS = [4, 5, 6, 7, 8]
MODES = ["classic", "double_agent"]


def _league(games: int, seed: int, tmp: Path, progress: bool) -> Path:
    cells = len(SEATS) * len(MODES) - 1  # double_agent starts at 5 seats
    tables = [{"seats": [4], "modes": ["classic"]}, {"seats": SEATS[1:], "modes": MODES}]
    return rulebot_and_random("bench-analysis", tables, cells, games, seed, tmp, progress)


def _copy(run: str, tmp: Path) -> Path:
    from harness.analysis.run_moves import MOVES_DIR

    run_dir = tmp / "run"
    shutil.copytree(run, run_dir, ignore=shutil.ignore_patterns(MOVES_DIR))
    return run_dir


def bench_analysis(
    games: int,
    seed: int,
    tmp: Path,
    run: str | None,
    workers: int,
    value: str,
    worlds: int,
    progress: bool = True,
    max_worlds: int | None = None,
) -> dict[str, Any]:
    """Analyse a new bot-only league of ``games`` games (or a copy of the run folder ``run``)
    in ``tmp``; the figures."""
    from harness.analysis.run_moves import run_moves, settings_for
    from harness.records.store import RecordError

    try:
        run_dir = _copy(run, tmp) if run else _league(games, seed, tmp, progress)
        settings = settings_for(value, worlds, max_worlds=max_worlds)
        load = LoadAverage()
        t0 = time.perf_counter()
        with Progress("bench analysis", None, enabled=progress) as bar:
            out = run_moves(run_dir, settings, workers, "local", lambda _: bar.advance())
        seconds = time.perf_counter() - t0
    except (OSError, RecordError, ValueError) as e:
        raise BenchError(str(e)) from None
    load_before, load_after = load.after()
    decisions = sum(len(r.decisions) for r in out.values())
    options = sum(len(m.options) for r in out.values() for m in r.decisions)
    per = seconds / decisions if decisions else float("nan")
    return {
        "benchmark": "analysis",
        "games": len(out),
        "decisions": decisions,
        "options_per_decision": round(options / decisions, 2) if decisions else None,
        "value": settings.value,
        "worlds": settings.worlds,
        "max_worlds": settings.max_worlds,
        "workers": workers,
        "cores": os.cpu_count(),
        "seconds": round(seconds, 2),
        "seconds_per_decision": round(per, 4),
        "goal_seconds_per_decision": GOAL_SECONDS,
        "pass": per <= GOAL_SECONDS,
        "load_before": load_before,
        "load_after": load_after,
        "python": python_version(),
    }


def run(
    games: int,
    seed: int,
    run: str | None,
    workers: int,
    value: str,
    worlds: int,
    progress: bool = True,
    max_worlds: int | None = None,
) -> int:
    """Measure, print the figures and the JSON line."""
    with temp_dir("bangarena-bench-analysis-") as tmp:
        r = bench_analysis(games, seed, tmp, run, workers, value, worlds, progress, max_worlds)
    print(f"analysis benchmark: {r['games']} games, {r['decisions']:,} decisions analysed "
          f"({r['options_per_decision']} options each), {r['value']} value, "
          f"{r['worlds']}–{r['max_worlds']} worlds, "
          f"{r['workers']} worker processes on {r['cores']} cores")  # fmt: skip
    print(f"  wall time           {r['seconds']:>10,.2f} s")
    print(f"  per decision        {r['seconds_per_decision']:>10,.4f} s  "
          f"(goal <= {GOAL_SECONDS:g} s on 2 cores)")  # fmt: skip
    print(f"  load average        {r['load_before']} before, {r['load_after']} after")
    return print_result(r)


def bench_compare(
    games: int,
    seed: int,
    tmp: Path,
    run: str | None,
    workers: int,
    value: str,
    worlds: int,
    max_worlds: int | None,
    reference_worlds: int = REFERENCE_WORLDS,
    progress: bool = True,
) -> dict[str, Any]:
    """The default analysis against the play-out reference on the same decisions (see the module
    docstring); the figures."""
    from harness.analysis.agreement import agreement
    from harness.analysis.run_moves import run_moves, settings_for
    from harness.records.store import RecordError

    from .league import rulebot_and_random

    try:
        if run:
            run_dir = _copy(run, tmp)
        else:
            tables = [{"seats": [5], "modes": ["classic"]}]
            run_dir = rulebot_and_random("bench-agreement", tables, 1, games, seed, tmp, progress)
        settings = settings_for(value, worlds, max_worlds=max_worlds)
        reference = settings_for(
            "rollout", reference_worlds, max_worlds=None, stream=REFERENCE_STREAM
        )
        load = LoadAverage()
        t0 = time.perf_counter()
        with Progress("bench analysis: default", None, enabled=progress) as bar:
            mine = run_moves(run_dir, settings, workers, "local", lambda _: bar.advance())
        seconds = time.perf_counter() - t0
        t1 = time.perf_counter()
        with Progress("bench analysis: reference", None, enabled=progress) as bar:
            ref = run_moves(run_dir, reference, workers, "local", lambda _: bar.advance())
        ref_seconds = time.perf_counter() - t1
    except (OSError, RecordError, ValueError) as e:
        raise BenchError(str(e)) from None
    load_before, load_after = load.after()
    a = agreement(mine, ref)
    decisions = sum(len(r.decisions) for r in mine.values())
    worlds_used = [m.worlds or settings.worlds for r in mine.values() for m in r.decisions]
    per = seconds / decisions if decisions else float("nan")
    corr = None if a.correlation is None else round(a.correlation, 4)
    return {
        "benchmark": "analysis-compare",
        "games": len(mine),
        "decisions": a.decisions,
        "value": settings.value,
        "worlds": settings.worlds,
        "max_worlds": settings.max_worlds,
        "mean_worlds": round(sum(worlds_used) / len(worlds_used), 2) if worlds_used else None,
        "reference_worlds": reference_worlds,
        "best_agreement": round(a.best_agreement, 4) if a.decisions else None,
        "best_within_reference_noise": round(a.noise_agreement, 4) if a.decisions else None,
        "reference_clear_best": a.clear,
        "clear_best_agreement": round(a.clear_agreement, 4) if a.clear else None,
        "loss_correlation": corr,
        "label_agreement": round(a.label_agreement, 4) if a.decisions else None,
        "seconds": round(seconds, 2),
        "seconds_per_decision": round(per, 4),
        "reference_seconds": round(ref_seconds, 2),
        "workers": workers,
        "cores": os.cpu_count(),
        "goal_agreement": GOAL_AGREEMENT,
        "goal_correlation": GOAL_CORRELATION,
        "goal_seconds_per_decision": GOAL_SECONDS,
        "pass": bool(
            a.decisions
            and a.best_agreement >= GOAL_AGREEMENT
            and corr is not None
            and corr >= GOAL_CORRELATION
            and per <= GOAL_SECONDS
        ),
        "load_before": load_before,
        "load_after": load_after,
        "python": python_version(),
    }


def run_compare(
    games: int,
    seed: int,
    run: str | None,
    workers: int,
    value: str,
    worlds: int,
    max_worlds: int | None,
    reference_worlds: int = REFERENCE_WORLDS,
    progress: bool = True,
) -> int:
    """Measure the agreement, print the figures and the JSON line."""
    with temp_dir("bangarena-bench-analysis-") as tmp:
        r = bench_compare(games, seed, tmp, run, workers, value, worlds, max_worlds,
                          reference_worlds, progress)  # fmt: skip
    pct = "n/a" if r["best_agreement"] is None else f"{100 * r['best_agreement']:.1f} %"
    lab = "n/a" if r["label_agreement"] is None else f"{100 * r['label_agreement']:.1f} %"
    corr = "n/a" if r["loss_correlation"] is None else f"{r['loss_correlation']:.3f}"
    print(f"analysis agreement: {r['games']} games, {r['decisions']:,} decisions; {r['value']} "
          f"value, {r['worlds']}–{r['max_worlds']} worlds (mean {r['mean_worlds']}) against "
          f"rule-bot play-outs at {r['reference_worlds']} worlds (another seed stream); "
          f"{r['workers']} worker processes on {r['cores']} cores")  # fmt: skip
    print(f"  best option agreed  {pct:>10}  (goal >= {100 * GOAL_AGREEMENT:g} %)")
    print(f"  loss correlation    {corr:>10}  (goal >= {GOAL_CORRELATION:g})")
    near = r["best_within_reference_noise"]
    near = "n/a" if near is None else f"{100 * near:.1f} %"
    clear = r["clear_best_agreement"]
    clear = "n/a" if clear is None else f"{100 * clear:.1f} %"
    print(f"  best within noise   {near:>10}  (a best of the default within 2 paired SE of the "
          f"reference's)")  # fmt: skip
    print(f"  clear best agreed   {clear:>10}  (of {r['reference_clear_best']} decisions where the "
          f"reference's best is 2 SE above every other option)")  # fmt: skip
    print(f"  same label          {lab:>10}")
    print(f"  per decision        {r['seconds_per_decision']:>10,.4f} s  "
          f"(goal <= {GOAL_SECONDS:g} s on 2 cores; reference {r['reference_seconds']:,.1f} s "
          f"in all)")  # fmt: skip
    print(f"  load average        {r['load_before']} before, {r['load_after']} after")
    return print_result(r)
