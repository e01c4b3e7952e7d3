"""``bangarena inspect RUN [--model M] [--player P] [--role R] [--seat N] [--kind K]
[--fallback REASON] [--invalid] [--truncated] [--game ID] [--blunders] [--mistakes] [--forced] [--limit N] [--json] [--locale LOCALE]``.

Shows recorded decisions that match every given filter: the view the seat had (re-rendered from
the replayed game), the options, and for model seats the exact prompt, raw answers, reasoning,
parsed choice, retries with reasons, latency, tokens and cost.  ``--json`` prints one JSON object
per line.  Decisions with a single option (made without asking) are left out unless
``--forced``.  How many decisions matched in all goes to standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, get_args

from harness.agents.decision_record import FallbackReason
from harness.analysis.run_moves import stored_moves
from harness.engine.roles import ROLES
from harness.play.ledger import SPENDING_CAP_FALLBACK
from harness.records.store import RecordError
from harness.replay import DecisionFilter, decision_json, inspect_decisions, render_decisions_text
from harness.replay.decision_browser import model_known, run_models
from harness.views.names import LOCALES
from harness.views.plural import count

from .cli_errors import CliError
from .replay_cmd import open_run

# a model seat's own reasons, then a web seat's: handed to its bot (autopilot) or past a spending cap
FALLBACKS = (*get_args(FallbackReason), "autopilot", SPENDING_CAP_FALLBACK, "any")
DEFAULT_LIMIT = 20


def register(sub: Any) -> None:
    p = sub.add_parser(
        "inspect",
        help="filter the recorded decisions of a run and show prompts, answers and views",
        description="Show recorded decisions matching all the given filters: the view the seat "
        "had, the options, and for model seats the exact prompt, raw answers, reasoning, retries, "
        "latency, tokens and cost.",
    )
    p.add_argument("run", metavar="RUN", help="run folder (results/<name>)")
    p.add_argument(
        "--model", metavar="M", help="provider/model or model name (wildcards ok; default: any)"
    )
    p.add_argument("--player", metavar="P", help="league player name (default: any)")
    p.add_argument("--role", metavar="R", help=f"role: {', '.join(ROLES)} (default: any)")
    p.add_argument("--seat", type=int, metavar="N", help="seat number (default: any)")
    p.add_argument(
        "--kind", metavar="K", help="decision kind (play, respond_shot, discard, ...; default: any)"
    )
    p.add_argument(
        "--fallback",
        metavar="REASON",
        help=f"fallback reason: {', '.join(FALLBACKS)} (default: any)",
    )
    p.add_argument(
        "--invalid",
        action="store_true",
        help="only decisions with an unparseable or illegal model answer",
    )
    p.add_argument(
        "--truncated",
        action="store_true",
        help="only decisions with a model answer cut by the token limit (finish reason length)",
    )
    p.add_argument("--game", metavar="ID", help="game id (default: every game)")
    p.add_argument(
        "--blunders",
        action="store_true",
        help="only blunders found by bangarena analyze, with each option's value",
    )
    p.add_argument(
        "--mistakes",
        action="store_true",
        help="only mistakes and blunders found by bangarena analyze, with each option's value",
    )
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"show at most N decisions (default {DEFAULT_LIMIT}; 0 = all)",
    )
    p.add_argument(
        "--forced",
        action="store_true",
        help="also decisions with a single option, made without asking (default: only real "
        "choices)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per decision and line")
    p.add_argument(
        "--context",
        action="store_true",
        help="also print the earlier messages of a model seat's conversation (default: a count)",
    )
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the views")
    p.set_defaults(func=run)


def build_filter(args: argparse.Namespace) -> DecisionFilter:
    """The filter of the command-line options; bad values are a one-line :class:`CliError`."""
    if args.role is not None and args.role not in ROLES:
        raise CliError(f"unknown role {args.role!r} (roles: {', '.join(ROLES)})")
    if args.fallback is not None and args.fallback not in FALLBACKS:
        raise CliError(f"unknown fallback reason {args.fallback!r} (one of {', '.join(FALLBACKS)})")
    if args.limit < 0:
        raise CliError("--limit must be 0 (all) or more")
    return DecisionFilter(
        model=args.model,
        player=args.player,
        role=args.role,
        seat=args.seat,
        kind=args.kind,
        fallback=args.fallback,
        invalid=args.invalid,
        truncated=args.truncated,
        game=args.game,
        choices=not args.forced,
        analysis=_analysis(args),
    )


def _analysis(args: argparse.Namespace) -> dict[tuple[str, int], Any] | None:
    """With ``--blunders`` / ``--mistakes``: the analysed decisions with those labels."""
    if not (getattr(args, "blunders", False) or getattr(args, "mistakes", False)):
        return None
    labels = {"blunder", "mistake"} if args.mistakes else {"blunder"}
    try:
        moves = stored_moves(args.run)
    except RecordError as e:
        raise CliError(str(e)) from None
    if not moves:
        raise CliError(f"no move analysis in {args.run}: run bangarena analyze {args.run} first")
    return {
        (gid, m.index): m
        for gid, line in moves.items()
        for m in line.decisions
        if m.label in labels
    }


def run(args: argparse.Namespace) -> int:
    store = open_run(args.run)
    flt = build_filter(args)
    try:
        details, total = inspect_decisions(store, flt, limit=args.limit or None, locale=args.locale)
        models = run_models(store.games()) if not total and args.model is not None else []
    except RecordError as e:
        raise CliError(str(e)) from None
    if not total and args.model is not None and not model_known(args.model, models):
        has = f"its models: {', '.join(models)}" if models else "it has no model seats"
        raise CliError(f"no model {args.model!r} in {args.run} ({has})")
    if args.json:
        for detail in details:
            print(json.dumps(decision_json(detail), ensure_ascii=False))
    elif details:
        print(render_decisions_text(details, context=args.context), end="")
    shown = len(details)
    note = (
        f"{count(total, 'matching decision')}"
        if shown == total
        else f"{shown} of {count(total, 'matching decision')} shown (--limit)"
    ) + ("" if args.forced else "; decisions with a single option left out (--forced)")
    print(note, file=sys.stderr)
    return 0
