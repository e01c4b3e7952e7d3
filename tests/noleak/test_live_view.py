"""RULES.md §9 for the bot-only playout's live views: at every real decision of rule-bot playouts
of every mode and seat count, everything the deciding seat's ``LiveView`` shows (every field,
every seat's public facts, the feed since its previous view) holds only card identities and roles
that the seat's independent account holds.  (tests/engine/test_live_view.py shows the same fields
equal ``build_view``'s; this checks them against the account directly.)"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from harness.analysis.playout import new_bots
from harness.engine import Game, PublicSeat, SeatView
from harness.engine.live_view import LiveView, live_seats
from harness.engine.roles import MODES

from .account import Account
from .check import check_seat_outputs

SIZES = range(4, 9)


def _materialised(live: LiveView) -> SeatView:
    """The live view's fields read once, as a SeatView (what the bot could have read)."""
    fields: dict[str, Any] = {
        f.name: getattr(live, f.name) for f in dataclasses.fields(SeatView) if f.name != "seats"
    }
    seats = tuple(
        PublicSeat(**{f.name: getattr(s, f.name) for f in dataclasses.fields(PublicSeat)})
        for s in live.seats
    )
    return SeatView(seats=seats, **fields)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", SIZES)
def test_live_views_hold_only_what_the_seat_may_know(n: int, mode: str) -> None:
    game = Game.new(n, mode, 300 + n)
    bots = new_bots(game, 300 + n)
    seats = [live_seats(game, s) for s in range(n)]
    seen = [0] * n
    account = Account.from_game(game)
    leaks: list[str] = []
    checked = 0
    while (d := game.pending) is not None:
        if len(d.options) == 1:
            game.apply(d.options[0])
            continue
        live = LiveView(game, d.seat, seen[d.seat], seats[d.seat], d.option_ids)
        seen[d.seat] = len(game.events)
        leaks += check_seat_outputs(
            game, d.seat, {"live_view": _materialised(live)}, account=account
        )
        checked += 1
        game.apply(bots[d.seat].decide(live, d.option_ids))
    assert checked > 20
    assert not leaks, "\n".join(leaks[:10])
