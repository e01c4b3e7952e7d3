"""Finished runs read: a run folder's records turned into tables (win rates, role-adjusted and
luck-adjusted scores, ratings, rates and spend, table talk, belief probes, moves), the run checks
that flag broken measurements, runs pooled for the leaderboard, and the plan of a league drawn
from a pilot run.

It reads what :mod:`harness.league` wrote and never runs a game of a league: it sits above the
league floor (it reads a run's config and rebuilds its schedule with the league's own code) and
nothing in ``league`` imports it.  The callers (``report``, ``cli``, ``bench``,
``integrations``) import names from this package, never one of its modules
(``tests/runs/test_surface.py`` reads them to check); the modules are its parts.  A name is
imported from its module when first used (:func:`__getattr__`), so no module may be named like a
public name: importing it would set the package's attribute to the module.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .call_counts import (
        DEFAULT_HISTORY,
        ModelCounts,
        clustered_wilson,
        count_model_calls,
        history_policies,
        wilson,
    )
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
    from .luck_tables import ROLE_ADJUSTED, luck_table, scored_table
    from .move_tables import move_table
    from .plan import PlanError, bench_source, make_plan, pilot_source
    from .plan_power import bootstrap_power
    from .plan_usage import prompt_usage
    from .pool import Pool, pool_runs
    from .probe_table import probe_tables
    from .ratings import DEFAULT_BOOTSTRAP, DEFAULT_SEED, compute_ratings
    from .stats import ROLE_ORDER, base_rates, load_run, role_adjusted, win_rates
    from .stopped_spend import print_stopped_report
    from .talk_table import claim_effect_table, signal_table, talk_setting
    from .units import POINTS, RATE, bounds_text, score_text, value_text

_WHERE: dict[str, str] = {  # public name -> the module of this package that holds it
    "DEFAULT_HISTORY": "call_counts",
    "ModelCounts": "call_counts",
    "clustered_wilson": "call_counts",
    "count_model_calls": "call_counts",
    "history_policies": "call_counts",
    "wilson": "call_counts",
    "base_rates": "stats",
    "bench_source": "plan",
    "bootstrap_power": "plan_power",
    "bounds_text": "units",
    "build_report": "league_report",
    "check_run": "flags",
    "claim_effect_table": "talk_table",
    "compute_ratings": "ratings",
    "DEFAULT_BOOTSTRAP": "ratings",
    "DEFAULT_MAX_FALLBACK_RATE": "flags",
    "DEFAULT_SEED": "ratings",
    "fallback_flags": "flags",
    "game_void": "flags",
    "load_run": "stats",
    "locale_table": "locales",
    "locale_win_rates": "locales",
    "luck_table": "luck_tables",
    "make_plan": "plan",
    "markdown": "league_report_output",
    "move_table": "move_tables",
    "pilot_source": "plan",
    "PlanError": "plan",
    "player_locales": "locales",
    "POINTS": "units",
    "Pool": "pool",
    "pool_runs": "pool",
    "print_report": "league_report_output",
    "print_stopped_report": "stopped_spend",
    "probe_tables": "probe_table",
    "prompt_usage": "plan_usage",
    "RATE": "units",
    "Report": "league_report",
    "REPORT_DIR": "league_report",
    "ROLE_ADJUSTED": "luck_tables",
    "role_adjusted": "stats",
    "ROLE_ORDER": "stats",
    "run_config": "flags",
    "run_flags": "flags",
    "RunFlags": "flags",
    "save_report": "league_report_output",
    "score_text": "units",
    "scored_table": "luck_tables",
    "signal_table": "talk_table",
    "talk_setting": "talk_table",
    "value_text": "units",
    "win_rates": "stats",
}

__all__ = [
    "DEFAULT_HISTORY",
    "ModelCounts",
    "clustered_wilson",
    "count_model_calls",
    "history_policies",
    "wilson",
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_MAX_FALLBACK_RATE",
    "DEFAULT_SEED",
    "POINTS",
    "PlanError",
    "Pool",
    "RATE",
    "REPORT_DIR",
    "ROLE_ADJUSTED",
    "ROLE_ORDER",
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


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use: reading a run needs pandas and the
    analysis floor, which a command that only runs a league or parses its arguments does not load."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
