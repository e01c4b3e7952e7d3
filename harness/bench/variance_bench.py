"""``bangarena bench variance`` — games saved by luck adjustment, measured on a ladder of agents
of graded strength (the rule bot, and the rule bot playing a random option with probability ε),
each a seat of unknown policy in paired deals with rule bots at the other seats.  For every pair
it prints the standard deviation of the per-deal difference, raw and adjusted, and the deals
needed to tell the two apart at 95 % confidence / 80 % power; ends with a JSON line."""

from __future__ import annotations

import time
from typing import Any

from harness.analysis.ladder import LADDER
from harness.analysis.variance import MODE, SEATS, play_ladder, summarize

from .core import print_result
from .progress_display import Progress

GOAL_FACTOR = 5.0  # adjusted needs >= 5x fewer games for eps 0.15 vs the rule bot


def _games(pair: dict[str, Any]) -> tuple[str, str]:
    """A pair's games needed, raw and adjusted, as table cells ("-" when not estimable)."""
    raw, adjusted = pair["games_raw"], pair["games_adjusted"]
    return ("-" if raw is None else f"{raw:,}", "-" if adjusted is None else f"{adjusted:,}")


def bench_variance(games: int, samples: int, workers: int, progress: bool) -> dict[str, Any]:
    t0 = time.perf_counter()
    with Progress("bench variance", games * len(LADDER), unit="games", enabled=progress) as bar:
        scored = play_ladder(LADDER, games, samples, workers, bar.advance)
    s = summarize(scored, LADDER)
    head = s["pairs"][0]
    steps = s["pairs"][1:]
    factor = head["factor"]
    return {
        "benchmark": "variance",
        "seats": list(SEATS),
        "mode": MODE,
        "samples": samples,
        **s,
        "headline": {
            "pair": head["pair"],
            "factor": factor,
            "factor_before": head["factor_before"],
            "goal": GOAL_FACTOR,
            "pass": factor is not None and factor >= GOAL_FACTOR,
        },
        "ladder_ordered": all(p["ordered"] for p in steps),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def _ci(d: dict[str, float]) -> str:
    return f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"


def run(games: int, samples: int, workers: int, progress: bool = True) -> int:
    """Measure, print the figures and the JSON line."""
    r = bench_variance(games, samples, workers, progress)
    print(
        f"variance benchmark: {r['deals']} paired deals per agent, seats {r['seats']}, "
        f"{r['mode']}; agent under test at one seat, rule bots elsewhere; "
        f"{r['samples']} baseline samples per chance event"
    )
    print(
        f"  {'agent':<9}{'raw win rate [95% CI]':<26}{'adjusted [95% CI]':<26}{'SD raw':>7}{'SD adj':>7}"
    )
    for a in r["agents"]:
        print(
            f"  {a['agent']:<9}{_ci(a['raw']):<26}{_ci(a['adjusted']):<26}"
            f"{a['sd_raw']:>7.3f}{a['sd_adjusted']:>7.3f}"
        )
    print(
        f"  {'pair':<22}{'adjusted diff [95% CI]':<26}{'SD raw':>7}{'SD adj':>7}"
        f"{'games raw':>11}{'games adj':>11}{'factor':>8}{'before':>9}"
    )
    for p in r["pairs"]:
        gr, ga = _games(p)
        fa = "-" if p["factor"] is None else f"{p['factor']:.2f}x"
        fb = "-" if p["factor_before"] is None else f"{p['factor_before']:.2f}x"
        print(
            f"  {p['pair']:<22}{_ci(p['adjusted_diff']):<26}{p['sd_raw']:>7.3f}"
            f"{p['sd_adjusted']:>7.3f}{gr:>11}{ga:>11}{fa:>8}{fb:>9}"
        )
    print(
        "  before: the same games adjusted with the rule bots as unknown policy "
        "(only chance corrected)"
    )
    h = r["headline"]
    print(
        f"  {h['pair']}: adjusted needs {h['factor']}x fewer games (before: "
        f"{h['factor_before']}x; goal >= {h['goal']:g}x: "
        f"{'PASS' if h['pass'] else 'FAIL'}); ladder steps ordered: "
        f"{'yes' if r['ladder_ordered'] else 'no'}"
    )
    print(f"  time: {r['seconds']} s")
    return print_result(r)


def run_ceiling(train_deals: int, games: int, samples: int, workers: int) -> int:
    """``--ceiling``: the best value model linear in the state features, fitted on training
    deals and applied to the bench's deals of the headline pair (:mod:`harness.analysis.ceiling`)."""
    from harness.analysis.ceiling import ceiling

    t0 = time.perf_counter()
    r = ceiling(train_deals, games, samples, workers)
    t, h = r["train"], r["held_out"]
    print(
        f"variance ceiling: {r['columns']} state functions (the fitted value model, the result, "
        f"game over, every feature per stage of the game); weights fitted on {t['deals']} "
        f"training deals x {len(t['agents'])} agents ({t['seat_rows']:,} seat rows, seeds from "
        f"{t['seed']:,}), ridge {r['ridge']:g}, {r['samples']} baseline samples per event"
    )
    print(
        f"  training seats, variance of the win over the adjusted score: fitted value model "
        f"{t['factor_fitted_value']:.2f}x, best linear (in sample) "
        f"{t['factor_best_linear_in_sample']:.2f}x"
    )
    print(
        f"  {h['pair']}, {h['deals']} held-out deals (seeds from {h['seed']:,}): SD raw "
        f"{h['sd_raw']:.3f}, fitted value model {h['sd_fitted_value']:.3f} "
        f"({h['factor_fitted_value']:.2f}x), best linear {h['sd_best_linear']:.3f} "
        f"({h['factor_best_linear']:.2f}x fewer games; goal {GOAL_FACTOR:g}x)"
    )
    r = {"benchmark": "variance-ceiling", **r, "seconds": round(time.perf_counter() - t0, 1)}
    print(f"  time: {r['seconds']} s")
    return print_result(r)


ADVANTAGE_GOALS = {0.15: 5.0, 0.5: 3.0}  # games saved against the rule bot, per ε


def bench_advantage(
    games: int,
    seats: list[int],
    mode: str,
    epsilons: list[float],
    rule: Any,
    workers: int,
    progress: bool,
    models: list[str] | None = None,
) -> dict[str, Any]:
    """The ε-agents of ``epsilons`` and the model agents of ``models`` (``model:first``,
    ``model:random``: a model seat answered by the test server) each paired with the rule bot."""
    from harness.analysis.advantage_variance import play_pairs
    from harness.analysis.advantage_variance import summarize as summarize_pairs

    ladder: list[float] = [0.0, *[e for e in epsilons if e != 0.0]]
    agents: list[float | str] = [*ladder, *(models or [])]
    t0, cpu0 = time.perf_counter(), _cpu_seconds()
    with Progress("bench variance --advantage", games * len(agents), unit="games",
                  enabled=progress) as bar:  # fmt: skip
        scored = play_pairs(agents, games, seats, mode, rule, workers, bar.advance)
    s = summarize_pairs(scored, agents)
    seconds = time.perf_counter() - t0
    cpu = _cpu_seconds() - cpu0
    for p in s["pairs"]:
        goal = ADVANTAGE_GOALS.get(p["epsilon"])
        p["goal"] = goal
        p["pass"] = None if goal is None else p["factor"] is not None and p["factor"] >= goal
    on_ladder = [a for a in s["agents"] if a["epsilon"] in ladder]
    return {
        "benchmark": "variance-advantage",
        "seats": seats,
        "mode": mode,
        "playouts": {"start": rule.start, "se_bound": rule.bound, "cap": rule.cap},
        "workers": workers,
        **s,
        "ladder_ordered": all(p["ordered"] for p in s["pairs"] if p["epsilon"] in ladder)
        and all(
            a["adjusted"]["mean"] >= b["adjusted"]["mean"]
            for a, b in zip(on_ladder, on_ladder[1:], strict=False)
        ),
        "seconds": round(seconds, 1),
        "seconds_per_game": round(seconds * workers / max(1, len(scored)), 2),
        "cpu_seconds_per_game": round(cpu / max(1, len(scored)), 2),
    }


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished child processes so far (the play-outs' own
    time, whatever else loads the machine)."""
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_advantage(
    games: int,
    seats: list[int],
    mode: str,
    epsilons: list[float],
    rule: Any,
    workers: int,
    progress: bool = True,
    models: list[str] | None = None,
) -> int:
    """``--advantage``: raw vs advantage-adjusted on paired deals; figures and the JSON line."""
    r = bench_advantage(games, seats, mode, epsilons, rule, workers, progress, models)
    pl = r["playouts"]
    print(
        f"variance benchmark (advantage): {r['deals']} paired deals per agent, seats "
        f"{r['seats']}, {r['mode']}; agent under test at one seat, rule bots elsewhere; "
        f"paired play-outs per departure: {pl['start']}, doubled while SE > {pl['se_bound']:g}, "
        f"at most {pl['cap']}"
    )
    print(
        f"  {'agent':<14}{'raw win rate [95% CI]':<26}{'adjusted [95% CI]':<26}"
        f"{'departures':>11}{'play-outs':>11}{'CPU s':>8}  (per game)"
    )
    for a in r["agents"]:
        print(
            f"  {a['agent']:<14}{_ci(a['raw']):<26}{_ci(a['adjusted']):<26}"
            f"{a['departures_per_game']:>11.2f}{a['playouts_per_game']:>11.1f}"
            f"{a['cpu_seconds_per_game']:>8.2f}"
        )
    print(
        f"  {'pair':<24}{'raw diff [95% CI]':<26}{'adjusted diff [95% CI]':<26}{'SD raw':>7}"
        f"{'SD adj':>7}{'games raw':>10}{'games adj':>10}  factor [95% CI]"
    )
    for p in r["pairs"]:
        gr, ga = _games(p)
        fa = (
            "-"
            if p["factor"] is None
            else f"{p['factor']:.2f}x [{p['factor_lo']}, {p['factor_hi']}]"
        )
        goal = (
            ""
            if p["goal"] is None
            else f" (goal >= {p['goal']:g}x: {'PASS' if p['pass'] else 'FAIL'})"
        )
        print(
            f"  {p['pair']:<24}{_ci(p['raw_diff']):<26}{_ci(p['adjusted_diff']):<26}"
            f"{p['sd_raw']:>7.3f}{p['sd_adjusted']:>7.3f}{gr:>10}{ga:>10}  {fa}{goal}"
        )
    print(
        "  play-out noise of the advantages (SD) and the factor with exact advantages, the most "
        "more play-outs per departure could reach: "
        + "; ".join(
            f"{p['pair']} {p['sd_playout_noise']:.3f}, "
            + ("-" if p["factor_exact_advantages"] is None else f"{p['factor_exact_advantages']}x")
            for p in r["pairs"]
        )
    )
    if any(isinstance(a["epsilon"], str) for a in r["agents"]):
        print(
            "  model-first / model-random: a model seat answered by the test server (its first "
            "offered option / a random one), rule bots elsewhere"
        )
    print(f"  ε-agents ordered by adjusted score: {'yes' if r['ladder_ordered'] else 'no'}")
    print(
        f"  time: {r['seconds']} s ({r['seconds_per_game']} s per game per process; CPU "
        f"{r['cpu_seconds_per_game']} s per game)"
    )
    return print_result(r)
