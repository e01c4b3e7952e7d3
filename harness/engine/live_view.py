"""A seat's view read from the game on demand: the same facts as :func:`build_view`, no more.

Contract:

* :class:`LiveView` and :class:`LiveSeat` expose exactly the fields of :class:`SeatView` and
  :class:`PublicSeat` (same names, same values, same types), each computed from the game when it
  is read instead of all of them up front.  They are the information filter of RULES.md §9 as
  :mod:`.view` states it: the values come from the same helpers as :func:`build_view`, and
  tests/engine/test_live_view.py compares every field with :func:`build_view`'s at every decision
  of many games.  Nothing else of the game is reachable through a public name.
* A :class:`LiveView` is for one decision: read it before the game moves on.  The seats of a
  viewer (:func:`live_seats`) read the current state, so one tuple serves a whole game.
* :class:`SeatInfo` is the read-only interface both satisfy; consumers typed against it (the rule
  bot) accept either.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any, Protocol

from .cards import CARD_FACE
from .game import Game
from .roles import composition
from .state import DecisionKind, Seat
from .view import (
    PendingView,
    card_faces,
    feed_from,
    known_deck_top,
    pending_view,
    public_distance,
    public_role,
    seat_looking,
)

# role counts per (seats, mode): fixed by the rules
_COMPOSITIONS: dict[tuple[int, str], dict[str, int]] = {}


class PublicSeatInfo(Protocol):
    """The public facts of one seat (the fields of :class:`PublicSeat`)."""

    @property
    def seat(self) -> int: ...
    @property
    def character(self) -> str: ...
    @property
    def hp(self) -> int: ...
    @property
    def max_hp(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def in_play(self) -> tuple[str, ...]: ...
    @property
    def weapon(self) -> str | None: ...
    @property
    def weapon_range(self) -> int: ...
    @property
    def upgrades(self) -> tuple[str, ...]: ...
    @property
    def alive(self) -> bool: ...
    @property
    def role(self) -> str | None: ...
    @property
    def distance(self) -> int | None: ...


class SeatInfo(Protocol):
    """Everything one seat may see (the fields of :class:`SeatView`)."""

    @property
    def viewer(self) -> int: ...
    @property
    def mode(self) -> str: ...
    @property
    def n_seats(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def high_noon(self) -> bool: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def shots_used(self) -> int: ...
    @property
    def composition(self) -> dict[str, int]: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def discard_size(self) -> int: ...
    @property
    def discard_top(self) -> str | None: ...
    @property
    def seats(self) -> Sequence[PublicSeatInfo]: ...
    @property
    def role(self) -> str: ...
    @property
    def hand(self) -> tuple[str, ...]: ...
    @property
    def known_roles(self) -> dict[int, str]: ...
    @property
    def marshal_pair(self) -> tuple[int, int] | None: ...
    @property
    def known_deck_top(self) -> tuple[str, ...]: ...
    @property
    def looking(self) -> tuple[str, ...]: ...
    @property
    def events(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def event_count(self) -> int: ...
    @property
    def pending(self) -> PendingView | None: ...
    @property
    def winning_side(self) -> str | None: ...
    @property
    def winners(self) -> tuple[int, ...]: ...


class LiveSeat:
    """One seat as ``viewer`` sees it now (the fields of :class:`PublicSeat`)."""

    __slots__ = ("_game", "_s", "_viewer", "seat")

    def __init__(self, game: Game, viewer: int, s: Seat) -> None:
        self._game = game
        self._s = s
        self._viewer = viewer
        self.seat = s.index

    @property
    def character(self) -> str:
        return self._s.character

    @property
    def hp(self) -> int:
        return self._s.hp

    @property
    def max_hp(self) -> int:
        return self._s.max_hp

    @property
    def hand_size(self) -> int:
        return len(self._s.hand)

    @property
    def in_play(self) -> tuple[str, ...]:
        cards = self._s.in_play
        return card_faces(cards) if cards else ()  # most seats have none

    @property
    def weapon(self) -> str | None:
        w = self._s.weapon
        return CARD_FACE[w] if w >= 0 else None

    @property
    def weapon_range(self) -> int:
        return self._s.weapon_range

    @property
    def upgrades(self) -> tuple[str, ...]:
        return tuple(self._s.upgrades)

    @property
    def alive(self) -> bool:
        return self._s.alive

    @property
    def role(self) -> str | None:
        return public_role(self._s, self._viewer)

    @property
    def distance(self) -> int | None:
        return public_distance(self._game, self._viewer, self._s)


def live_seats(game: Game, viewer: int) -> tuple[LiveSeat, ...]:
    """Every seat of ``game`` as ``viewer`` (a seat, not the spectator) sees it, kept current."""
    if not 0 <= viewer < game.n:
        raise ValueError(f"no seat {viewer} at this table")
    return tuple(LiveSeat(game, viewer, s) for s in game.seats)


class LiveView:
    """Everything ``viewer`` may see of ``game`` now, the event feed from index ``since``; the
    fields of :class:`SeatView`, each computed when read (see the module docstring)."""

    __slots__ = (
        "_game",
        "_me",
        "viewer",
        "seats",
        "_since",
        "_option_ids",
        "_pending",
        "_pending_read",
    )

    def __init__(
        self,
        game: Game,
        viewer: int,
        since: int,
        seats: tuple[LiveSeat, ...] | None = None,
        option_ids: Sequence[str] | None = None,
    ) -> None:
        """``seats``: the viewer's :func:`live_seats` of ``game`` (made when not given);
        ``option_ids``: the pending decision's ids when the caller has them already."""
        if not 0 <= viewer < game.n:  # the spectator's view is build_view's
            raise ValueError(f"no seat {viewer} at this table")
        self._game = game
        self._me = game.seats[viewer]
        self._since = since
        self._option_ids = option_ids
        self._pending: PendingView | None = None
        self._pending_read = False
        self.viewer = viewer
        self.seats = live_seats(game, viewer) if seats is None else seats

    @property
    def mode(self) -> str:
        return self._game.mode

    @property
    def n_seats(self) -> int:
        return self._game.n

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def high_noon(self) -> bool:
        return self._game.high_noon

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def shots_used(self) -> int:
        return self._game.shots_used

    @property
    def composition(self) -> dict[str, int]:
        key = (self._game.n, self._game.mode)
        c = _COMPOSITIONS.get(key)
        if c is None:
            c = _COMPOSITIONS[key] = composition(*key)
        return dict(c)  # the caller's own copy, as build_view gives

    @property
    def deck_size(self) -> int:
        return len(self._game.deck)

    @property
    def discard_size(self) -> int:
        return len(self._game.discard)

    @property
    def discard_top(self) -> str | None:
        d = self._game.discard
        return CARD_FACE[d[-1]] if d else None

    @property
    def role(self) -> str:
        return self._me.role

    @property
    def hand(self) -> tuple[str, ...]:
        return card_faces(self._me.hand)

    @property
    def known_roles(self) -> dict[int, str]:
        return dict(self._me.known_roles)

    @property
    def marshal_pair(self) -> tuple[int, int] | None:
        return self._me.marshal_pair

    @property
    def known_deck_top(self) -> tuple[str, ...]:
        return known_deck_top(self._game.deck, self._me.known_top)

    @property
    def looking(self) -> tuple[str, ...]:
        return seat_looking(self._game, self.viewer)

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        return tuple(feed_from(self._game, self.viewer, self._since))

    @property
    def event_count(self) -> int:
        return len(self._game.events)

    @property
    def pending(self) -> PendingView | None:
        if not self._pending_read:
            self._pending = pending_view(self._game, self.viewer, self._option_ids)
            self._pending_read = True
        return self._pending

    @property
    def winning_side(self) -> str | None:
        return self._game.winning_side

    @property
    def winners(self) -> tuple[int, ...]:
        return self._game.winners


def pending_kind(view: SeatInfo) -> DecisionKind | None:
    """The kind of ``view``'s pending decision (None: none), as ``view.pending.kind`` gives it,
    without building the pending view of a :class:`LiveView`."""
    if isinstance(view, LiveView):
        game = view._game
        d = game.pending
        return d.kind if d is not None and game.pending_frame is not None else None
    pending = view.pending
    return pending.kind if pending is not None else None


def events_from(
    view: SeatInfo, start: int, types: Container[str] | None = None
) -> Sequence[dict[str, Any]]:
    """The events of ``view``'s feed whose index in the game's whole feed is ``start`` or more
    (all of its feed when that starts later): the same events as the end of ``view.events``,
    without filtering the earlier ones for a :class:`LiveView`.  With ``types``, only the events
    whose type ``t`` is one of them (for a :class:`LiveView`, the others are never filtered)."""
    if isinstance(view, LiveView):
        return feed_from(view._game, view.viewer, max(start, view._since), types)
    events = view.events
    first = start - (view.event_count - len(events))
    events = events[first:] if first > 0 else events
    return events if types is None else [e for e in events if e["t"] in types]
