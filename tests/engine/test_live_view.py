"""The live view is the information filter of RULES.md §9 read on demand: at every decision of
many games, every field of :class:`LiveView` (and of each :class:`LiveSeat`) equals the field of
:func:`build_view`'s :class:`SeatView` for the same seat and feed start, and no other part of the
game is reachable through a public name."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from harness.analysis.playout import new_bots, play_out
from harness.engine import SPECTATOR, Game, PublicSeat, SeatView, build_view
from harness.engine.live_view import LiveSeat, LiveView, events_from, live_seats, pending_kind
from harness.engine.roles import MODES

SEAT_FIELDS = [f.name for f in dataclasses.fields(PublicSeat)]
VIEW_FIELDS = [f.name for f in dataclasses.fields(SeatView)]
CASES = [(n, mode, 40 + n) for n in range(4, 9) for mode in MODES]


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _check(game: Game, seat: int, since: int, seats: tuple[LiveSeat, ...]) -> None:
    ref = build_view(game, seat, since=since)
    live = LiveView(game, seat, since, seats)
    for name in VIEW_FIELDS:
        if name == "seats":
            assert len(live.seats) == len(ref.seats)
            for a, b in zip(ref.seats, live.seats, strict=True):
                for f in SEAT_FIELDS:
                    assert _same(getattr(a, f), getattr(b, f)), (seat, a.seat, f)
        else:
            assert _same(getattr(ref, name), getattr(live, name)), (seat, name)


@pytest.mark.parametrize(("n", "mode", "seed"), CASES)
def test_live_view_equals_the_seat_view_at_every_decision(n: int, mode: str, seed: int) -> None:
    """Every seat, at every decision, with the whole feed and with a recent part of it; each
    viewer's seats are made once per game (as the playout keeps them)."""
    game = Game.new(n, mode, seed)
    seats = [live_seats(game, s) for s in range(n)]
    rng = random.Random(seed)

    def visit(g: Game, k: int) -> None:
        for s in range(n):
            _check(g, s, 0, seats[s])
            _check(g, s, rng.randrange(len(g.events) + 1), seats[s])

    play_out(game, new_bots(game, seed), visit=visit)
    assert game.is_over
    for s in range(n):  # the finished game too (winners, revealed roles)
        _check(game, s, 0, seats[s])


def test_live_view_has_no_public_name_beyond_the_seat_view() -> None:
    game = Game.new(5, "classic", 1)
    live = LiveView(game, 2, 0)
    public = {a for a in dir(live) if not a.startswith("_")}
    assert public == set(VIEW_FIELDS)
    seat_public = {a for a in dir(live.seats[0]) if not a.startswith("_")}
    assert seat_public == set(SEAT_FIELDS)


@pytest.mark.parametrize("viewer", [SPECTATOR, 5, 9])
def test_live_view_is_for_a_seat_only(viewer: int) -> None:
    game = Game.new(5, "classic", 1)
    with pytest.raises(ValueError, match="no seat"):
        LiveView(game, viewer, 0)
    with pytest.raises(ValueError, match="no seat"):
        live_seats(game, viewer)


_TYPES = frozenset(("play", "grab", "draw", "eliminated"))


@pytest.mark.parametrize(("n", "mode", "seed"), CASES[::3])
def test_events_from_is_the_end_of_the_feed(n: int, mode: str, seed: int) -> None:
    """``events_from(view, start)`` equals the events of ``view.events`` whose index in the game's
    feed is ``start`` or more, for live views and seat views, starts before, inside and after the
    view's own feed; with ``types``, those of them of these types (private ones included)."""
    game = Game.new(n, mode, seed)
    rng = random.Random(seed)

    def visit(g: Game, k: int) -> None:
        count = len(g.events)
        for s in range(n):
            since = rng.randrange(count + 1)
            for view in (LiveView(g, s, since), build_view(g, s, since=since)):
                events = list(view.events)
                for start in {0, since, rng.randrange(count + 1), count}:
                    want = events[max(0, start - since) :]
                    assert list(events_from(view, start)) == want, (s, since, start)
                    some = [e for e in want if e["t"] in _TYPES]
                    assert list(events_from(view, start, _TYPES)) == some, (s, since, start)

    play_out(game, new_bots(game, seed), visit=visit)
    assert game.is_over


@pytest.mark.parametrize(("n", "mode", "seed"), CASES[1::4])
def test_pending_kind_is_the_kind_of_the_pending_view(n: int, mode: str, seed: int) -> None:
    """``pending_kind(view)`` equals ``view.pending.kind`` (None when nothing is pending) for live
    views and seat views of every seat, at every decision and once the game is over."""
    game = Game.new(n, mode, seed)
    kinds: set[str | None] = set()

    def check(g: Game) -> None:
        for s in range(n):
            for view in (LiveView(g, s, 0), build_view(g, s)):
                pending = view.pending
                want = pending.kind if pending is not None else None
                assert pending_kind(view) == want, (s, type(view).__name__)
                kinds.add(want)

    play_out(game, new_bots(game, seed), visit=lambda g, k: check(g))
    assert game.is_over
    check(game)
    assert None in kinds and "play" in kinds and len(kinds) > 2  # decisions of several kinds
