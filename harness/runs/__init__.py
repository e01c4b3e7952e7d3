"""Finished runs read: a run folder's records turned into tables (win rates, role-adjusted and
luck-adjusted scores, ratings, rates and spend, table talk, belief probes, moves), the run checks
that flag broken measurements, runs pooled for the leaderboard, and the plan of a league drawn
from a pilot run.

It reads what :mod:`harness.league` wrote and never runs a game of a league: it sits above the
league floor (it reads a run's config and rebuilds its schedule with the league's own code) and
nothing in ``league`` imports it.  The callers (``report``, ``cli``, ``bench``,
``integrations``) import from this package; the modules are its parts.
"""

from __future__ import annotations

from .flags import (
    DEFAULT_MAX_FALLBACK_RATE,
    RunFlags,
    check_run,
    fallback_flags,
    game_void,
    run_config,
    run_flags,
)
from .league_report import REPORT_DIR, Report, build_report
from .league_report_output import markdown, print_report, save_report
from .locales import locale_table, locale_win_rates, player_locales
from .luck_report import ROLE_ADJUSTED, luck_table, scored_table
from .move_report import move_table
from .plan import PlanError, bench_source, make_plan, pilot_source
from .plan_power import bootstrap_power
from .plan_usage import prompt_usage
from .pool import Pool, pool_runs
from .probe_report import probe_tables
from .ratings import DEFAULT_BOOTSTRAP, DEFAULT_SEED, compute_ratings
from .signal_report import claim_effect_table, signal_table, talk_setting
from .stats import ROLE_ORDER, base_rates, load_run, role_adjusted, win_rates
from .stopped_report import print_stopped_report
from .units import POINTS, RATE, bounds_text, score_text, value_text

__all__ = [
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_MAX_FALLBACK_RATE",
    "DEFAULT_SEED",
    "POINTS",
    "RATE",
    "REPORT_DIR",
    "ROLE_ADJUSTED",
    "ROLE_ORDER",
    "PlanError",
    "Pool",
    "Report",
    "RunFlags",
    "base_rates",
    "bench_source",
    "bootstrap_power",
    "bounds_text",
    "build_report",
    "check_run",
    "claim_effect_table",
    "compute_ratings",
    "fallback_flags",
    "game_void",
    "load_run",
    "locale_table",
    "locale_win_rates",
    "luck_table",
    "make_plan",
    "markdown",
    "move_table",
    "pilot_source",
    "player_locales",
    "pool_runs",
    "print_report",
    "print_stopped_report",
    "probe_tables",
    "prompt_usage",
    "role_adjusted",
    "run_config",
    "run_flags",
    "save_report",
    "score_text",
    "scored_table",
    "signal_table",
    "talk_setting",
    "value_text",
    "win_rates",
]
