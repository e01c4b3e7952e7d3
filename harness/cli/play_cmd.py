"""``bangarena play`` — a person plays in the terminal at a table of bots or random seats;
``--watch`` shows a game between automated seats move by move, paced by ``--speed``."""

from __future__ import annotations

import argparse
import asyncio
import os
import stat
import sys
import time
from collections.abc import Callable
from typing import Any

from harness.agents import Agent, Decided, RandomAgent
from harness.agents.human import HumanAgent, InputClosed, Screen, console_for
from harness.agents.table import play_game
from harness.engine import Game, SeatView, filter_event
from harness.engine.roles import MODES
from harness.views.names import LOCALES, default_names

from .args import positive_float, seat_count
from .cli_errors import CliError

TABLE_TIMES = (15, 30, 60, 90)
# seconds between automated moves when watching in a terminal (RULES.md §11: slow/normal/fast)
SPEEDS = {"slow": 2.0, "normal": 0.8, "fast": 0.25}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots (or --watch automated seats)",
        description="You see the table, your hand and the options a model sees, drawn as a "
        "table; answer by number or option id (t shows the whole table, ? explains). A move "
        "with a single option is made for you. Ctrl-C ends the game.",
    )
    p.add_argument("--seats", type=seat_count, default=5, help="seats at the table (4-8)")
    p.add_argument("--mode", choices=MODES, default="classic", help="role mode")
    p.add_argument("--seed", type=int, default=1, help="deal seed (the same seed deals the same)")
    p.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    p.add_argument("--time", type=_time, default=None,
                   help="decision timer in seconds (table settings 15, 30, 60, 90); on timeout "
                   "the simplest move (Ruling R-5) is made for you (default: no timer)")  # fmt: skip
    p.add_argument("--opponents", choices=("bots", "random"), default="bots",
                   help="who sits at the other seats: rule bots or random players")  # fmt: skip
    p.add_argument("--watch", action="store_true", help="all seats automated; print every move")
    p.add_argument("--speed", choices=tuple(SPEEDS), default="normal",
                   help="--watch pace in a terminal: pause between moves slow 2 s, normal "
                   "0.8 s, fast 0.25 s (none when the output is not a terminal)")  # fmt: skip
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the table")
    p.set_defaults(func=run)


def _time(text: str) -> float:
    return positive_float(text, "a number of seconds", " (table settings: 15, 30, 60, 90)")


def automated(kind: str, i: int, seed: int) -> Agent:
    if kind == "bots":
        try:
            from harness.agents.rulebot import RuleBot
        except ImportError:  # pragma: no cover
            pass
        else:
            return RuleBot(f"Bot {i}")
    return RandomAgent(f"Random {i}", seed + i)


def pause_for(speed: str, terminal: bool) -> float:
    """Seconds to wait after each automated move when watching."""
    return SPEEDS[speed] if terminal else 0.0


def stdin_readable(fd: int) -> bool:
    """True when moves can be read from ``fd`` as they are typed: a terminal, a pipe or a socket
    (a file or ``/dev/null`` cannot be waited on)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return os.isatty(fd) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def run(args: argparse.Namespace, sleep: Callable[[float], None] = time.sleep) -> int:
    if not args.watch and not 0 <= args.seat < args.seats:
        raise CliError(f"--seat must be 0..{args.seats - 1}")
    if not args.watch and not stdin_readable(sys.stdin.fileno()):
        raise CliError(
            "cannot read your moves: standard input is not a terminal or a pipe "
            "(run it in a terminal, or --watch to watch the bots play)"
        )
    names = default_names(args.seats)
    console = console_for()
    screen = Screen(names, args.locale, console)
    game = Game.new(args.seats, args.mode, args.seed)
    agents = [automated(args.opponents, i, args.seed) for i in range(args.seats)]
    human = -1 if args.watch else args.seat
    if human >= 0:
        agents[human] = HumanAgent(names[human], screen)
    pause = pause_for(args.speed, console.is_terminal) if args.watch else 0.0
    seen = 0  # events already shown (watch: narrated; human: in their last view)

    def on_decision(g: Game, view: SeatView, decided: Decided) -> None:
        nonlocal seen
        seat = view.viewer
        if human >= 0:
            if seat == human:
                seen = view.event_count
        else:
            lines = screen.narrator.lines([filter_event(e, -1) for e in g.events[seen:]])
            screen.feed(lines)
            seen = len(g.events)
        if decided.fallback == "timeout" and seat == human:
            screen.say(screen.words.timeout(screen.label(view, decided.option)), "bold yellow")
        elif decided.fallback and human < 0:
            screen.say(screen.words.fallback(names[seat], decided.fallback, decided.option))
        if pause:
            sleep(pause)

    try:
        result = asyncio.run(
            play_game(game, agents, game_id=f"play-{args.seed}", timeout=args.time,
                      on_decision=on_decision)
        )  # fmt: skip
    except InputClosed:
        console.print()
        screen.say(screen.words.abandoned)
        return 0
    screen.feed(screen.narrator.lines([filter_event(e, human) for e in game.events[seen:]]))
    if human >= 0:
        won = human in result.winners
        screen.say(screen.words.win if won else screen.words.lose, "bold")
    return 0
