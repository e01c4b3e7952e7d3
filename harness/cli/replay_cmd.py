"""``bangarena replay RUN [--game ID] [--step] [--seat N | --full] [--locale LOCALE]``.

Without ``--step`` it verifies: the game (or every finished game of the run) is re-played through
the engine and must match the records event by event.  Prints ``verified: N decisions, M events``
and exits 0, or names the first differing event (or decision) and exits 1.

With ``--step`` it walks through one game in the terminal: Enter (or ``n``) = next, ``b`` =
back, a step number = jump there, ``q`` = quit (any other key is refused with this hint); each step shows the table before a decision, as one seat saw it (``--seat N``,
Markdown) or in full (``--full``, the default), and what happened since the previous step.
"""

from __future__ import annotations

import argparse
import sys
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.engine import build_view
from harness.records import GameRecord, RunStore
from harness.records.run_folder import finished_games, open_run_folder
from harness.records.store import DamagedGame, RecordError
from harness.replay import (
    omniscient_event,
    replay_game,
    replay_records,
    replay_steps,
    seat_names,
)
from harness.replay.decision_browser import REPORT_TEMPLATES
from harness.views.names import LOCALES, feed_title
from harness.views.narrate import Narrator
from harness.views.plural import count
from harness.views.render import render_markdown
from harness.views.table_text import table_text

from .cli_errors import CliError
from .progress import Progress


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="re-run recorded games through the engine and verify them; step through a game",
        description="Re-play a recorded game (or every game of a run) through the engine and "
        "check that every decision and event matches the records. Exit 0 when verified, 1 on the "
        "first difference. --step walks through one game (Enter or n = next, b = back, a step "
        "number = go there, q = quit).",
    )
    p.add_argument("run", metavar="RUN", help="run folder (results/<name>)")
    p.add_argument("--game", metavar="ID", help="game id (default: verify every finished game)")
    p.add_argument("--step", action="store_true", help="walk through the game step by step")
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--seat", type=int, metavar="N", help="show the table as seat N saw it (default: --full)"
    )
    who.add_argument("--full", action="store_true", help="show the full table (default)")
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the views")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run)


def open_run(path: str) -> RunStore:
    """The run folder ``path``; a missing folder is a one-line :class:`CliError` worded as every
    command that reads runs words it (:mod:`harness.records.run_folder`)."""
    try:
        return open_run_folder(path)
    except RecordError as e:
        raise CliError(str(e)) from None


def finished(store: RunStore) -> list[GameRecord]:
    """The run's finished games; none is a one-line :class:`CliError`."""
    try:
        return finished_games(store)
    except RecordError as e:
        raise CliError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    store = open_run(args.run)
    if args.step:
        if args.game is None:
            raise CliError("--step needs --game ID")
        return _step(store, args.game, args.seat, args.locale)
    if args.seat is not None or args.full:
        raise CliError("--seat and --full only apply with --step")
    try:
        if args.game is not None:
            result = replay_game(store, args.game)
            print(result.summary())
            return 0 if result.ok else 1
        return _verify_all(store, progress=not args.no_progress)
    except RecordError as e:
        raise CliError(str(e)) from None


def _verify_all(store: RunStore, progress: bool = True) -> int:
    games = finished(store)
    n_dec = n_ev = 0
    bad = damaged = 0
    with Progress("replay", len(games), enabled=progress) as bar:
        for g in games:
            try:
                result = replay_game(store, g.game_id)
            except DamagedGame as e:  # the rest of the run is still verified
                e.skipped()
                damaged += 1
                bar.advance(note=f"{damaged} damaged")
                continue
            if result.ok:
                n_dec += result.decisions_checked
                n_ev += result.events_checked
            else:
                bad += 1
                print(result.summary())
            bar.advance(note=f"{bad} diverge" if bad else "")
    if bad:
        print(f"{bad} of {count(len(games), 'game')} diverge")
    verified = len(games) - bad - damaged
    print(
        f"verified: {count(verified, 'game')}, {count(n_dec, 'decision')}, {count(n_ev, 'event')}"
        + (f"; {damaged} of {count(len(games), 'game')} damaged, not verified" if damaged else "")
    )
    return 1 if bad or damaged else 0


@lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(
        loader=FileSystemLoader(REPORT_TEMPLATES),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _step_template() -> Any:
    return _env().get_template("step.txt.j2")


def _strings() -> Any:
    return _env().get_template("terminal.j2").module


def step_texts(store: RunStore, game_id: str, seat: int | None, locale: str) -> list[str]:
    """The text of every step of ``game_id`` (before each decision, then the end)."""
    try:
        start, decisions, end = store.read_game(game_id)
    except RecordError as e:
        raise CliError(str(e)) from None
    if seat is not None and not 0 <= seat < start.seats:
        raise CliError(f"--seat must be 0..{start.seats - 1} for game {game_id}")
    names = seat_names(start)
    template = _step_template()
    title = feed_title("step", locale)
    narrator = Narrator(names, locale)
    texts = []
    steps = len(decisions) + 1
    for st in replay_steps(start, decisions):
        game = st.game
        if seat is None:
            body = table_text(game, names)
            events = [omniscient_event(e) for e in game.events[st.prev_event_count :]]
            feed: list[str] | None = narrator.lines(events)
        else:
            view = build_view(game, seat, since=st.prev_event_count)
            body = render_markdown(view, names, locale, feed_title=title).rstrip()
            feed = None
        texts.append(
            template.render(
                game_id=game_id,
                step=st.index,
                steps=steps,
                seat=seat,
                names=names,
                d=st.decision,
                winning_side=game.winning_side,
                winners=[names[i] for i in game.winners],
                body=body,
                feed=feed,
                feed_title=title,
            )
        )
    return texts


def _step(store: RunStore, game_id: str, seat: int | None, locale: str) -> int:
    texts = step_texts(store, game_id, seat, locale)
    start, decisions, end = store.read_game(game_id)
    result = replay_records(start, decisions, end)
    if not result.ok:
        print(result.summary(), file=sys.stderr)
    module = _strings()
    clear = sys.stdout.isatty()
    i = 0
    show = True
    while True:
        if show:
            if clear:
                sys.stdout.write("\x1b[2J\x1b[H")
            print(texts[i])
        try:
            key = input(module.prompt).strip().lower()
        except EOFError:
            break
        if not sys.stdin.isatty():
            print()  # the answer was not echoed: keep the next step on its own line
        move = next_step(key, i, len(texts))
        if move is None:
            break
        if isinstance(move, str):
            print(module.unknown_key(key=key, steps=len(texts)).strip())
            show = False
            continue
        if move >= len(texts):
            print(module.the_end)
            break
        i, show = move, True
    return 0 if result.ok else 1


def next_step(key: str, i: int, steps: int) -> int | str | None:
    """Where a key of the step walk leads: a step index (``steps`` = past the end), ``None`` to
    quit, or ``"unknown"`` for a key that means nothing (the walk stays and shows a hint)."""
    if key in ("", "n"):
        return i + 1
    if key == "b":
        return max(0, i - 1)
    if key == "q":
        return None
    if key.isdigit() and 1 <= int(key) <= steps:
        return int(key) - 1
    return "unknown"
