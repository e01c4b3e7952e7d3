"""``bangarena analyze RUN [--workers N] [--executor local|ray] [--value rollout|fitted]
[--worlds K] [--max-worlds M] [--seats KIND,...]`` — move analysis of every finished game of a run.

For every decision the chosen seats made themselves, the value of each legal option from that
seat's information only (:mod:`harness.analysis.moves`: rule-bot play-outs to the end by default,
``K`` worlds and up to ``M`` where the best two options are not separated), stored in
``RUN/analysis/moves.jsonl``;
fallback, autopilot and forced decisions are counted apart, never scored as the player's.  A
rerun skips the games stored with the same settings.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from typing import Any

from harness.analysis.moves import (
    DEFAULT_MAX_WORLDS,
    DEFAULT_VALUE,
    DEFAULT_WORLDS,
    LABELS,
    VALUERS,
)
from harness.analysis.run_moves import (
    DEFAULT_KINDS,
    MOVES_DIR,
    MOVES_FILE,
    SEAT_KINDS,
    MovesLine,
    run_moves,
    settings_for,
)
from harness.records.store import RecordError

from .args import positive_int
from .cli_errors import CliError
from .progress import Progress
from .replay_cmd import open_run


def seat_kinds(text: str) -> list[str]:
    """``model,random`` → the kinds; ``all`` → every kind."""
    if text.strip() == "all":
        return list(SEAT_KINDS)
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in SEAT_KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(
            f"seat kinds are a comma-separated list of {', '.join(SEAT_KINDS)} or all, got {text!r}"
        )
    return kinds


def _worlds(worlds: int, most: int | None) -> str:
    return f"{worlds}" if most is None or most <= worlds else f"{worlds}–{most}"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyze",
        help="move analysis: each option's value from the deciding seat's information, "
        "inaccuracies, mistakes and blunders",
        description="For every decision of the chosen seat kinds, re-deal what the seat cannot "
        "see K times (up to M where the best two options are not separated), value every legal "
        "option in every world by rule-bot play-outs to the end and store the loss of the chosen "
        "one and its standard error in RUN/analysis/moves.jsonl (resumable). A loss is labelled "
        "only when it is above its threshold and twice its standard error.",
    )
    p.add_argument("run", metavar="RUN", help="run folder (results/<name>)")
    p.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                   help="games analysed in parallel (default: the cores)")  # fmt: skip
    p.add_argument("--executor", choices=["local", "ray"], default="local",
                   help="local processes or Ray tasks (needs the [ray] extra)")  # fmt: skip
    p.add_argument("--value", choices=VALUERS, default=DEFAULT_VALUE,
                   help="rollout (default): rule-bot play-outs to the end of the game, the seat's "
                   "own later decisions included; fitted: the fast, less faithful choice — bot "
                   "answers until the seat's next choice, then the fitted linear model")  # fmt: skip
    p.add_argument("--worlds", type=positive_int, default=DEFAULT_WORLDS,
                   help=f"re-dealt worlds per decision (default {DEFAULT_WORLDS})")  # fmt: skip
    p.add_argument("--max-worlds", type=positive_int, default=DEFAULT_MAX_WORLDS,
                   help="most worlds, drawn where the best two options are not separated "
                   f"(default {DEFAULT_MAX_WORLDS}; at most --worlds: no more)")  # fmt: skip
    p.add_argument("--seats", type=seat_kinds, default=",".join(DEFAULT_KINDS), metavar="KIND,...",
                   help=f"seat kinds analysed ({', '.join(SEAT_KINDS)}, or all)")  # fmt: skip
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    open_run(args.run)
    try:
        settings = settings_for(args.value, args.worlds, args.seats, args.max_worlds)
    except ValueError as e:
        raise CliError(str(e)) from None
    labels: Counter[str] = Counter()
    decisions = 0
    t0 = time.perf_counter()
    with Progress("analyze", None, unit="games", enabled=not args.no_progress) as bar:

        def on_game(line: MovesLine) -> None:
            bar.advance()

        try:
            out = run_moves(args.run, settings, args.workers, args.executor, on_game)
        except (RecordError, ValueError) as e:
            raise CliError(str(e)) from None
    left: Counter[str] = Counter()
    for line in out.values():
        decisions += len(line.decisions)
        labels.update(d.label for d in line.decisions if d.label is not None)
        for s in line.left_out:
            left.update(fallback=s.fallback, autopilot=s.autopilot, forced=s.forced)
    plural = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
    counts = ", ".join(f"{labels[k]} {plural[k]}" for k in reversed(LABELS))
    print(
        f"analyzed {len(out)} games, {decisions} decisions ({counts}) with {settings.value}, "
        f"{_worlds(settings.worlds, settings.max_worlds)} worlds, seats {','.join(settings.kinds)} in "
        f"{time.perf_counter() - t0:.1f} s → {args.run}/{MOVES_DIR}/{MOVES_FILE}; "
        f"not the players' own, left out: {left['fallback']} fallback, {left['autopilot']} "
        f"autopilot, {left['forced']} forced"
    )
    return 0
