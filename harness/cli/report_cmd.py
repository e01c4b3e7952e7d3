"""``bangarena report RUN [--out DIR] [--locale LOCALE] [--workers N]``: the offline HTML report."""

from __future__ import annotations

import argparse
from typing import Any

from harness.records.store import RecordError
from harness.views.names import LOCALES
from harness.views.plural import count

from .cli_errors import CliError, path_error
from .progress import Progress
from .replay_cmd import finished, open_run


def register(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="write a self-contained offline HTML report with a replay viewer",
        description="Write RUN/report/index.html (or DIR/index.html): charts of ratings, "
        "role-adjusted scores, win rates by role and by table size × mode with 95 % intervals, "
        "the base win rate of every role, fallback and cost rates, a sortable and filterable "
        "game list, and a replay viewer (buttons and arrow keys) showing each seat's view or "
        "the full table, the event feed, and for model seats the exact prompt, raw answer and "
        "reasoning. Works offline; each game's data is a separate file loaded when the game is "
        "opened.",
    )
    p.add_argument("run", metavar="RUN", help="run folder (results/<name>)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: RUN/report)")
    p.add_argument(
        "--locale",
        choices=LOCALES,
        default="en",
        help="language of the report: its labels and the game text",
    )
    p.add_argument("--workers", type=int, metavar="N", help="processes (default: all CPUs)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from harness.report import build_report

    store = open_run(args.run)
    if args.workers is not None and args.workers < 1:
        raise CliError("--workers must be at least 1")
    games = finished(store)
    try:
        with Progress("report", len(games), enabled=not args.no_progress) as bar:
            result = build_report(
                store.root,
                args.out,
                locale=args.locale,
                workers=args.workers,
                on_game=lambda: bar.advance(),
            )
    except RecordError as e:
        raise CliError(str(e)) from None
    except OSError as e:  # name the path that could not be written
        if e.filename is None:
            e.filename = str(args.out or store.root / "report")
        raise path_error(e, "cannot write the report to") from None
    mb = result.bytes / 1e6
    n_games = count(result.games, "game")
    print(f"report: {result.index} ({n_games}, {mb:.1f} MB, {result.seconds:.1f} s)")
    for w in result.warnings[:5]:
        print(f"warning: {w}")
    return 0
