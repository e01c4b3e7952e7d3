"""``bangarena league report RUN [--no-save]``: the league report of a run folder.

:func:`register` is called by :mod:`harness.cli.league_cmd` with the ``league`` sub-parser group.
A missing or malformed run folder ends with one line and exit code 2 (``CliError``); a run whose
measurements are flagged (:mod:`harness.runs.flags`: a model player's fallback rate, void games,
unfinished paired deals) is reported with the flags shown and exit code 3.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from .args import count, positive_int
from .cli_errors import CliError
from .progress import Progress

WIDE = 160


def register(lsub: Any) -> None:
    """Add ``report`` to the ``league`` sub-commands."""
    p = lsub.add_parser(
        "report",
        help="win rates by player × role, role-adjusted scores, ratings, rates and costs",
        description="Statistics of a run from its records alone; prints rich tables and writes "
        "RUN/report/ (summary.csv, one CSV per table, flags.csv, report.md). Exit 0: report "
        "written; 2: not a readable run, or a run that stopped before its first game (its reason "
        "and the spend of its calls are shown); 3: the run is flagged (a model player's fallback rate, "
        "void games or unfinished paired deals: its figures are not all valid results).",
    )
    p.add_argument("run", help="run folder (e.g. results/quickstart)")
    p.add_argument("--no-save", action="store_true", help="print only; write no files")
    p.add_argument(
        "--bootstrap",
        type=count,
        default=None,
        help="bootstrap resamples for the rating intervals (default 200; 0 = none)",
    )
    p.add_argument("--seed", type=int, default=None, help="bootstrap seed (default 20240601)")
    p.add_argument(
        "--luck",
        action="store_true",
        help="add luck-adjusted scores per player × role (replays each game; stored in "
        "RUN/analysis/luck.jsonl), and the advantage-adjusted scores already stored",
    )
    p.add_argument(
        "--advantage",
        action="store_true",
        help="with --luck (implied): also compute the advantage-adjusted scores that are not "
        "stored yet (rule-bot play-outs from every decision that departs from the rule bot: "
        "seconds to minutes per game, stored in RUN/analysis/advantage.jsonl)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        help="with --advantage: local processes for the play-outs (default 1)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_report)


def run_report(args: argparse.Namespace) -> int:
    from rich.console import Console

    from harness.records.store import RecordError
    from harness.runs import (
        DEFAULT_BOOTSTRAP,
        DEFAULT_SEED,
        build_report,
        print_report,
        save_report,
    )

    stopped = _stopped_run(args.run)
    if stopped is not None:
        return stopped
    try:
        with contextlib.ExitStack() as stack:
            report = build_report(
                args.run,
                bootstrap=DEFAULT_BOOTSTRAP if args.bootstrap is None else args.bootstrap,
                seed=DEFAULT_SEED if args.seed is None else args.seed,
                luck=args.luck or args.advantage,
                advantage=args.advantage,
                luck_progress=_luck_progress(stack, enabled=not args.no_progress),
                advantage_progress=_luck_progress(
                    stack, enabled=not args.no_progress, label="advantage-adjusted scores"
                ),
                workers=args.workers,
            )
    except RecordError as e:
        raise CliError(str(e)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise CliError(f"cannot read run {args.run}: {_one_line(e)}") from None
    out = None
    if not args.no_save:  # files first: a closed pipe (``| head``) must not lose them
        try:
            out = save_report(report)
        except OSError as e:
            raise CliError(f"cannot write the report: {_one_line(e)}") from None
    # a pipe or a file gets wide lines rather than folded cells; a terminal keeps its width
    console = Console() if sys.stdout.isatty() else Console(width=WIDE)
    print_report(report, console)
    if out is not None:
        console.print(f"saved: {out}/summary.csv, one CSV per table, {out}/report.md")
    return report.exit_code  # 3 when the run is flagged (harness.runs.flags)


def _stopped_run(run: str) -> int | None:
    """A run the preflight stopped before its first game: its reason and spend are printed
    and the exit code is 2 (no results); ``None`` for any other run."""
    from pathlib import Path

    from rich.console import Console

    from harness.league.stopped import only_stopped, read_stopped
    from harness.runs import print_stopped_report

    root = Path(run)
    stopped = read_stopped(root)
    if stopped is None or not only_stopped(root):
        return None
    console = Console() if sys.stdout.isatty() else Console(width=WIDE)
    print_stopped_report(root, stopped, console)
    return 2


def _luck_progress(
    stack: contextlib.ExitStack, enabled: bool, label: str = "luck-adjusted scores"
) -> Callable[[int, int], None]:
    """The progress of the luck-adjusted scores: a bar (or a line every 10 s) from the first of
    the games to compute — none when every game's score is stored."""
    bar: list[Progress] = []

    def tell(done: int, total: int) -> None:
        if not bar and total:
            bar.append(stack.enter_context(Progress(label, total, enabled=enabled)))
        if bar:
            bar[0].update(done, total=total)

    return tell


def _one_line(e: BaseException) -> str:
    text = getattr(e, "strerror", None) or str(e)
    return " ".join(str(text).split())
