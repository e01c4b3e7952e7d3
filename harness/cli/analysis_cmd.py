"""``bangarena analysis train`` — fit the value model on rule-bot self-play and write its weights
(package data, ``harness/analysis/data/value_model.json``)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from harness.analysis.fitted import MODEL_PATH
from harness.analysis.train import CELLS, TRAIN_SEED, train

from .args import positive_int
from .progress import Progress


def register(sub: Any) -> None:
    p = sub.add_parser("analysis", help="the value model behind luck-adjusted scores")
    asub = p.add_subparsers(dest="analysis", required=True, parser_class=type(p))
    t = asub.add_parser(
        "train",
        help="fit the value model on rule-bot self-play (fixed seed) and write its weights",
        description="Plays --games rule-bot games per table size (4-8) and mode, samples the "
        "state every --stride decisions and fits one logistic regression per team.",
    )
    t.add_argument("--games", type=positive_int, default=40, help="games per table size and mode")
    t.add_argument("--seed", type=int, default=TRAIN_SEED, help="first training seed")
    t.add_argument("--stride", type=positive_int, default=4, help="decisions between samples")
    t.add_argument("--c", type=float, default=1.0, help="inverse L2 penalty")
    t.add_argument(
        "--per-cell",
        action="store_true",
        help="one weight vector per table size, mode and team (default: per team)",
    )
    t.add_argument("--out", type=Path, default=MODEL_PATH, help="weights file to write")
    t.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    t.set_defaults(func=run_train)


def run_train(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    total = args.games * len(CELLS)
    with Progress("analysis train", total, unit="games", enabled=not args.no_progress) as bar:
        model = train(
            args.games, args.seed, args.stride, args.c, args.out, bar.advance, args.per_cell
        )
    cfg = model.training
    print(
        f"value model: {model.rows:,} rows from {cfg['games']} games "
        f"({cfg['decisions']:,} decisions), {len(model.features)} features × {len(model.weights)} weight vectors "
        f"({model.training['weights']}); "
        f"data sha256 {model.data_sha256[:16]}…; written to {args.out} "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    return 0
