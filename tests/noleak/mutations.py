"""Planted leaks: copies of the filter and the view, each with one leak, for the tests that must
catch them (``test_mutations.py``, ``test_counterfactual.py``).  :func:`install` puts one in place
with pytest's ``monkeypatch`` everywhere the table runner and the checks look views up."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

import harness.agents.seat
import harness.agents.table
import harness.engine
import harness.engine.view as engine_view
from harness.engine import Game, SeatView
from harness.engine.cards import CARD_FACE

FilterEvent = Callable[[dict[str, Any], int], dict[str, Any]]
BuildView = Callable[..., SeatView]

REAL_BUILD_VIEW = engine_view.build_view
REAL_FILTER_EVENT = engine_view.filter_event


def secret_to_all(*types: str) -> Callable[[dict[str, Any], int], dict[str, Any]]:
    """A copy of ``filter_event`` that shows the secret part of ``types`` to every seat."""

    def leaky_filter_event(event: dict[str, Any], viewer: int) -> dict[str, Any]:
        to = event.get("to")
        if to is None:
            return event
        out = {k: v for k, v in event.items() if k != "to" and k != "secret"}
        if viewer in to or event["t"] in types:
            out.update(event["secret"])
        return out

    return leaky_filter_event


def real_deck_top(game: Game, seat: int, since: int = 0) -> SeatView:
    """``build_view`` reporting the real top card of the deck as known to every seat."""
    view = REAL_BUILD_VIEW(game, seat, since)
    if not game.deck:
        return view
    return dataclasses.replace(view, known_deck_top=(CARD_FACE[game.deck[-1]],))


def role_revealed_early(game: Game, seat: int, since: int = 0) -> SeatView:
    """``build_view`` showing the hidden role of the next living non-Marshal player."""
    view = REAL_BUILD_VIEW(game, seat, since)
    others = [(seat + k) % game.n for k in range(1, game.n)]
    target = next(
        (j for j in others if game.seats[j].alive and game.seats[j].role != "marshal"), None
    )
    if target is None:
        return view
    seats = tuple(
        dataclasses.replace(p, role=game.seats[p.seat].role) if p.seat == target else p
        for p in view.seats
    )
    return dataclasses.replace(view, seats=seats)


def intel_recipients_shown(event: dict[str, Any], viewer: int) -> dict[str, Any]:
    """A copy of ``filter_event`` that shows every seat who was told the deal's intel (which, in
    double_agent mode, names the raiders team: Ruling R-3)."""
    to = event.get("to")
    if to is None:
        return event
    out = {k: v for k, v in event.items() if k != "to" and k != "secret"}
    if viewer in to:
        out.update(event["secret"])
    return out


def install(
    monkeypatch: pytest.MonkeyPatch,
    filter_event: FilterEvent | None = None,
    build_view: BuildView | None = None,
) -> None:
    if filter_event is not None:
        monkeypatch.setattr(engine_view, "filter_event", filter_event)
        monkeypatch.setattr(harness.engine, "filter_event", filter_event)
    if build_view is not None:
        for module in (engine_view, harness.engine, harness.agents.table, harness.agents.seat):
            monkeypatch.setattr(module, "build_view", build_view)


__all__ = [
    "REAL_BUILD_VIEW",
    "REAL_FILTER_EVENT",
    "install",
    "intel_recipients_shown",
    "real_deck_top",
    "role_revealed_early",
    "secret_to_all",
]
