"""``bangarena position FILE [--do ACTION_ID ...] [--json] [--write OUT]``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from harness.engine import EngineError, Game, IllegalAction, dump_position, load_position
from harness.views.table_text import table_text

from .cli_errors import CliError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "position",
        help="load a position, apply actions, print the pending decision and the state",
        description="Load a JSON position (docs/positions.md), apply actions in order, and print "
        "the pending decision and the resulting state. An illegal action names the legal options "
        "and leaves the game unchanged.",
    )
    p.add_argument("file", help="position JSON file ('-' for standard input)")
    p.add_argument("--do", nargs="+", default=[], metavar="ACTION_ID", help="actions to apply")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument(
        "--write", metavar="OUT", help="also write the resulting position to OUT (default: none)"
    )
    p.set_defaults(func=run)


def read_position(path: str) -> Game:
    import sys

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise CliError(f"cannot read position {path}: {e.strerror}") from None
    return load_position(text)


def pending_dict(game: Game) -> dict[str, Any] | None:
    d = game.pending
    if d is None:
        return None
    return {"seat": d.seat, "kind": d.kind, "options": d.option_ids}


def run(args: argparse.Namespace) -> int:
    game = read_position(args.file)
    for i, action in enumerate(args.do, 1):
        try:
            game.apply(action)
        except IllegalAction as e:
            raise CliError(f"action {i} ({action}): {e}") from None
        except EngineError as e:
            legal = ", ".join(game.pending.option_ids) if game.pending else "none"
            raise CliError(f"action {i} ({action}): {e}; legal: {legal}") from None
    pos = dump_position(game)
    if args.write:
        try:
            Path(args.write).write_text(json.dumps(pos, ensure_ascii=False, indent=1) + "\n")
        except OSError as e:
            raise CliError(f"cannot write {args.write}: {e.strerror}") from None
    if args.json:
        print(json.dumps({"pending": pending_dict(game), "position": pos}, ensure_ascii=False))
        return 0
    d = game.pending
    if d is None:
        print(f"game over: {game.winning_side} win — seats {list(game.winners)}")
    else:
        print(f"pending: seat {d.seat} · {d.kind} · options: {' '.join(d.option_ids)}")
    print(table_text(game))
    return 0
