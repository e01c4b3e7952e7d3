"""``bangarena watch`` — a seeded game between random seats, printed move by move."""

from __future__ import annotations

import argparse
import random
from typing import Any

from harness.engine import Game, filter_event
from harness.engine.roles import MODES
from harness.views.names import LOCALES, default_names
from harness.views.narrate import Narrator

from .bench_cmd import _seats


def register(sub: Any) -> None:
    p = sub.add_parser("watch", help="watch a seeded game between random seats, move by move")
    p.add_argument("--seats", type=_seats, default=5)
    p.add_argument("--mode", choices=MODES, default="classic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--locale", choices=LOCALES, default="en")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = Game.new(args.seats, args.mode, args.seed)
    rng = random.Random(args.seed)
    names = default_names(args.seats)
    narrator = Narrator(names, args.locale)
    seen = 0
    while True:
        for e in game.events[seen:]:
            line = narrator.line(filter_event(e, -1))  # a spectator: public parts only
            if line:
                print(line)
        seen = len(game.events)
        if game.pending is None:
            break
        d = game.pending
        action = d.options[rng.randrange(len(d.options))]
        print(f"    {names[d.seat]} [{d.kind}] → {action.id}")
        game.apply(action)
    return 0
