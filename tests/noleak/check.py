"""The information-flow check: everything a seat is given must be in that seat's account.

:func:`check_seat_outputs` is the reusable core (the information-flow, mutation and web-table
leak tests call it); :func:`seat_outputs` renders a view every way a seat can receive it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from harness.engine import Game, SeatView
from harness.views.prompts import PromptBuilder
from harness.views.render import render_json, render_markdown

from .account import Account
from .scan import find_leaks


def check_seat_outputs(
    game: Game,
    seat: int,
    outputs: Mapping[str, Any],
    *,
    account: Account | None = None,
    upto: int | None = None,
    names: Sequence[str] | None = None,
    said: Mapping[int, set[str]] | None = None,
) -> list[str]:
    """Leaks in ``outputs`` (label → anything :func:`tests.noleak.scan.find_leaks` reads) given to
    ``seat`` when ``game`` had logged ``upto`` events (default: all of them, i.e. now).

    ``account`` is brought up to date with ``game`` (or built) — pass the same one between calls
    to avoid re-reading the log.  Each leak line starts with the output's label.  ``said``: the
    roles table signals said aloud about each seat by then (:func:`tests.noleak.scan.find_leaks`)."""
    account = Account.from_game(game) if account is None else account.update(game)
    upto = len(game.events) if upto is None else upto
    out: list[str] = []
    for label, obj in outputs.items():
        out.extend(
            f"[seat {seat} @ event {upto}] {label}: {leak}"
            for leak in find_leaks(obj, seat, upto, account, game, names=names, said=said)
        )
    return out


def seat_outputs(
    view: SeatView,
    names: Sequence[str],
    locale: str = "en",
    *,
    prompts: bool = True,
) -> dict[str, Any]:
    """``view`` as every renderer gives it to a seat: the view itself, its JSON (object and
    text), its Markdown, and the model prompts (system, game and decision messages)."""
    as_json = render_json(view, names, locale)
    out: dict[str, Any] = {
        "view": view,
        "json": as_json,
        "json_text": json.dumps(as_json, ensure_ascii=False),
        "markdown": render_markdown(view, names, locale),
    }
    if prompts and view.viewer >= 0:
        builder = PromptBuilder(names, locale)
        out["system_prompt"] = builder.system_prompt(view)
        game_message = getattr(builder, "game_message", None)
        if game_message is not None:
            out["game_message"] = game_message(view)
        out["decision_prompt"] = builder.decision_prompt(
            view, view.pending.options if view.pending else None
        )
    return out


__all__ = ["check_seat_outputs", "seat_outputs"]
