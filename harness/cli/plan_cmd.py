"""``bangarena plan CONFIG [--detect 0.05] [--from RUN] [--power 0.8] [--alpha 0.05] [--json]`` —
the games per player and role, and in total for the config's schedule, needed to detect a
difference of ``--detect`` (raw and luck-adjusted), with the model calls, tokens and dollars of
those games (:mod:`harness.runs.plan`).  Bad input: one line, exit 2."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .args import count
from .cli_errors import CliError


def _fraction(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive), got {text}")
    return v


def register(sub: Any) -> None:
    p = sub.add_parser(
        "plan",
        help="games, model calls, tokens and dollars needed to detect a difference",
        description="From the spread of an earlier run or pilot (--from RUN), else the variance "
        "bench's rule-bot figures: the seat-games per player and role, and the games of the "
        "config's schedule, needed to detect a difference of --detect in a role (two-sided), "
        "raw and luck-adjusted, with the model calls, tokens and dollars of those games.",
    )
    p.add_argument("config", help="league config (YAML)")
    p.add_argument(
        "--detect", type=_fraction, default=0.05, help="difference in win rate to detect"
    )
    p.add_argument(
        "--from",
        dest="pilot",
        metavar="RUN",
        help="run folder of a pilot or earlier run (default: the variance bench's bot figures)",
    )
    p.add_argument("--power", type=_fraction, default=0.8, help="probability of detecting it")
    p.add_argument("--alpha", type=_fraction, default=0.05, help="two-sided significance level")
    p.add_argument(
        "--prompt-games",
        type=count,
        default=2,
        help="without a pilot of model seats: rule-bot games per table on which each model "
        "player's prompt tokens are measured (0: tokens not estimated)",
    )
    p.add_argument(
        "--adjusted",
        choices=("luck", "advantage"),
        default="luck",
        help="with --from: the adjusted spread of the chance-corrected score (luck, default) or "
        "of the advantage-adjusted score (advantage: rule-bot play-outs per departure, stored "
        "in RUN/analysis/advantage.jsonl)",
    )
    p.add_argument("--json", action="store_true", help="end with one JSON line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from harness.league.league_config import load_config
    from harness.play.config_files import ConfigError
    from harness.records.store import RecordError
    from harness.runs import PlanError, bench_source, make_plan, pilot_source, prompt_usage
    from harness.views.tokens import TokenizerError

    try:
        config = load_config(args.config)
        source = pilot_source(args.pilot, score=args.adjusted) if args.pilot else bench_source()
        usage = {} if source.usage else prompt_usage(config, args.prompt_games)
        plan = make_plan(config, args.detect, args.alpha, args.power, source, player_usage=usage)
    except (ConfigError, RecordError, PlanError, TokenizerError) as e:
        raise CliError(str(e)) from None
    _print(plan)
    if args.json:
        print(json.dumps(plan.to_json()))
    return 0


def _num(x: float | None, fmt: str = ",.0f") -> str:
    return "–" if x is None else format(x, fmt)


def _per_game(c: Any, games: int) -> str:
    """A model player's calls, tokens and dollars per game of the planned league."""
    g = max(games, 1)
    output = None if c.output_tokens is None else c.output_tokens / g
    tokens = (
        "tokens not estimated"
        if c.input_tokens is None
        else f"{c.input_tokens / g:,.0f} input tokens, {_num(output)} output tokens"
    )
    usd = "" if c.usd is None or c.input_tokens is None else f", ${c.usd / g:,.4f}"
    return f"{c.calls / g:,.1f} calls, {tokens}{usd}"


def _print(plan: Any) -> None:
    formula = (
        "n = (z₁₋α/₂ + z_power)² · σ_d² / δ² paired deals (σ_d: SD of a per-deal difference)"
        if plan.paired_formula
        else "n = 2 · (z₁₋α/₂ + z_power)² · σ² / δ² seat-games per player (σ: the spread per "
        "seat-game of a difference of two players, clustered by deal)"
    )
    print(
        f"plan for {plan.config}: detect δ = {plan.detect:g} in a role, two-sided α = "
        f"{plan.alpha:g}, power {plan.power:g}; {formula}"
    )
    print(f"  spread from: {plan.source_text}")
    head = (
        f"  {'role':<21}{'SD raw':>8}{'SD adj':>8}{'pilot n':>9}{'per player raw':>16}"
        f"{'adj':>8}{'games raw':>11}{'adj':>8}"
    )
    print(head)
    for r in plan.roles:
        pilot = str(r.pilot_seat_games) if r.pilot_seat_games else "–"
        print(
            f"  {r.role:<21}{r.sd_raw:>8.3f}{r.sd_adjusted:>8.3f}{pilot:>9}"
            f"{r.per_player_raw:>16,}{r.per_player_adjusted:>8,}{r.games_raw:>11,}"
            f"{r.games_adjusted:>8,}" + (f"  ({r.note})" if r.note and r.note != "bench" else "")
        )
    print(
        f"  every role: {plan.games_raw:,} games raw, {plan.games_adjusted:,} luck-adjusted "
        f"({plan.games_per_table_raw:,} / {plan.games_per_table_adjusted:,} games per table × "
        f"{plan.cells} tables; players: {', '.join(plan.players)})"
    )
    plans = (("raw", plan.costs_raw, plan.games_raw),
             ("luck-adjusted", plan.costs_adjusted, plan.games_adjusted))  # fmt: skip
    for label, costs, games in plans:
        for c in costs:
            usd = "price unknown" if c.usd is None else f"${c.usd:,.2f}"
            if c.input_tokens is None:
                usd = "tokens not estimated"
            elif c.output_tokens is None and c.usd is not None:
                usd += " (input tokens only)"
            print(
                f"  {label} plan, {c.player} ({c.model}): {c.seat_games:,} seat-games, "
                f"{_num(c.calls)} calls, {_num(c.input_tokens)} input tokens "
                f"({_num(c.cached_input_tokens)} cached), {_num(c.output_tokens)} output "
                f"tokens, {usd}"
            )
            print(f"    per game of the plan: {_per_game(c, games)}")
            print(f"    usage from: {c.source}")
    for n in plan.notes:
        print(f"  note: {n}")
