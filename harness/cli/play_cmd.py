"""``bangarena play`` — a person plays in the terminal at a table of bots or random seats;
``--watch`` shows a game between automated seats move by move."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from harness.agents import Agent, Decided, RandomAgent
from harness.agents.human import HumanAgent, InputClosed
from harness.agents.table import play_game
from harness.engine import Game, SeatView, filter_event, parse_action
from harness.engine.roles import MODES
from harness.views.names import LOCALES, default_names
from harness.views.narrate import Narrator
from harness.views.options import option_label
from harness.views.render import render_markdown

from .args import seat_count
from .errors import CliError

TABLE_TIMES = (15, 30, 60, 90)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots (or --watch automated seats)",
        description="You see the same Markdown view and options a model sees; answer by number "
        "or option id. Ctrl-C ends the game.",
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
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the table")
    p.set_defaults(func=run)


def _time(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError("must be positive (table settings: 15, 30, 60, 90)")
    return v


def automated(kind: str, i: int, seed: int) -> Agent:
    if kind == "bots":
        try:
            from harness.agents.rulebot import RuleBot
        except ImportError:  # pragma: no cover
            pass
        else:
            return RuleBot(f"Bot {i}")
    return RandomAgent(f"Random {i}", seed + i)


def run(args: argparse.Namespace) -> int:
    if not args.watch and not 0 <= args.seat < args.seats:
        raise CliError(f"--seat must be 0..{args.seats - 1}")
    names = default_names(args.seats)
    narrator = Narrator(names, args.locale)
    game = Game.new(args.seats, args.mode, args.seed)
    agents = [automated(args.opponents, i, args.seed) for i in range(args.seats)]
    human = -1 if args.watch else args.seat
    if human >= 0:
        agents[human] = HumanAgent(names[human], lambda v: render_markdown(v, names, args.locale))
    seen = 0  # events already shown (watch: narrated; human: in their last view)

    def on_decision(g: Game, view: SeatView, decided: Decided) -> None:
        nonlocal seen
        seat = view.viewer
        if human >= 0:
            if seat == human:
                seen = view.event_count
        else:
            for e in g.events[seen:]:
                line = narrator.line(filter_event(e, -1))
                if line:
                    print(line)
            seen = len(g.events)
        label = option_label(parse_action(decided.option), view.pending.kind, view, names,
                             args.locale) if view.pending else decided.option  # fmt: skip
        if decided.fallback == "timeout" and seat == human:
            print(f"⏱ Time is up — the simplest move was made for you: {label}")
        elif decided.fallback and human < 0:
            print(f"  ({names[seat]}: {decided.fallback} — fallback move {decided.option})")

    try:
        result = asyncio.run(
            play_game(game, agents, game_id=f"play-{args.seed}", timeout=args.time,
                      on_decision=on_decision)
        )  # fmt: skip
    except InputClosed:
        print("\nInput ended — the game is abandoned.")
        return 0
    for e in game.events[seen:]:
        line = narrator.line(filter_event(e, human))
        if line:
            print(line)
    if human >= 0:
        won = human in result.winners
        print("You win!" if won else "You lose.")
    return 0
