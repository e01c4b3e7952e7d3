"""``bangarena leaderboard RUN... [--out DIR]`` — one table across runs: the comparable runs
pooled (:mod:`harness.runs.pool`; the others left out with the reason) into raw and
luck-adjusted scores and ratings per player × role (:mod:`harness.report.leaderboard`), printed
and written to ``DIR/leaderboard.csv`` and ``DIR/leaderboard.html``.  Bad input: one line,
exit 2."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from harness.views.plural import count as counted

from .args import count
from .cli_errors import CliError, path_error


def register(sub: Any) -> None:
    p = sub.add_parser(
        "leaderboard",
        help="one table of raw and luck-adjusted scores and ratings across comparable runs",
        description="Pools the runs that share the first run's rules version, modes, seat counts "
        "and history policy (and says which it left out and why) into one table per player × "
        "role; a player is the same across runs only when its spec is. Writes "
        "DIR/leaderboard.csv and DIR/leaderboard.html.",
    )
    p.add_argument("runs", nargs="+", metavar="RUN", help="run folders; the first is the reference")
    p.add_argument("--out", default="leaderboard", help="folder for leaderboard.csv and .html")
    p.add_argument(
        "--bootstrap", type=count, default=200, help="bootstrap resamples for rating intervals"
    )
    p.add_argument("--seed", type=int, default=20240601, help="bootstrap seed")
    p.set_defaults(func=run)


def _ci(v: float, lo: float, hi: float, points: bool = False) -> str:
    """A win rate in %, a role-adjusted score (``points``) in pp, clipped to what is possible
    (:mod:`harness.runs.units`)."""
    from harness.runs import score_text

    return score_text(v, lo, hi, points)


def _advantage(v: float, lo: float, hi: float, points: bool) -> str:
    """The advantage-adjusted score as :func:`_ci`, ``–`` where a seat of the row has none."""
    return "–" if math.isnan(v) else _ci(v, lo, hi, points)


def run(args: argparse.Namespace) -> int:
    from harness.records.store import RecordError
    from harness.report.leaderboard import has_advantage, leaderboard_table, save
    from harness.runs import ROLE_ADJUSTED, pool_runs

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} is not a folder")
    try:
        pool = pool_runs(args.runs)
    except RecordError as e:
        raise CliError(str(e)) from None
    table = leaderboard_table(pool, bootstrap=args.bootstrap, seed=args.seed)
    try:
        csv_path, html_path = save(pool, table, out)
    except OSError as e:
        raise path_error(e, "cannot write") from None
    k = pool.key
    print(
        f"leaderboard: {counted(pool.seats['game_id'].nunique(), 'game')} from "
        f"{counted(len(pool.runs), 'run')} "
        f"({', '.join(pool.runs)}); rules version {k.rules_version}, modes "
        f"{', '.join(k.modes)}, seats {', '.join(map(str, k.seats))}"
        + (f", history {', '.join(k.history)}" if k.history else "")
    )
    for run_dir, reason in pool.left_out:
        print(f"  left out {run_dir}: {reason}")
    for note in pool.notes:
        print(f"  note: {note}")
    print(
        "  players by role-adjusted score; per role the win rate in %, role-adjusted scores in pp"
    )
    adv = has_advantage(table)
    if adv:
        print(
            "  advantage: the stored advantage-adjusted score (RUN/analysis/advantage.jsonl; "
            "league report --advantage computes it), – where a seat has none"
        )
    print(
        f"  {'player':<18}{'role':<21}{'n':>6}  {'raw [95% CI]':<30}{'adjusted [95% CI]':<30}"
        + (f"{'advantage [95% CI]':<30}" if adv else "")
        + f"{'rating μ [95% CI]'}"
    )
    for r in table.itertuples(index=False):
        rating = "" if math.isnan(r.mu) else f"{r.mu:.1f} [{r.mu_lo:.1f}, {r.mu_hi:.1f}]"
        pp = r.role == ROLE_ADJUSTED
        print(
            f"  {r.player:<18}{r.role:<21}{r.seat_games:>6}  "
            f"{_ci(r.raw, r.raw_lo, r.raw_hi, pp):<30}"
            f"{_ci(r.adjusted, r.adj_lo, r.adj_hi, pp):<30}"
            + (f"{_advantage(r.advantage, r.adv_lo, r.adv_hi, pp):<30}" if adv else "")
            + rating
        )
    print(f"  wrote {csv_path} and {html_path}")
    return 0
