"""The facts one decision needs, derived once from the seat's view (and the beliefs).

Contract: :class:`Ctx` is built from the view (a :class:`~harness.engine.SeatView` or a
:class:`~harness.engine.live_view.LiveView`: the same fields) and the suspicion beliefs only; it is
cheap (no feed scan) and read-only for the policy modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from harness.engine.actions import Action, parse_action
from harness.engine.cards import WEAPON_RANGE
from harness.engine.live_view import PublicSeatInfo, SeatInfo

from .goals import marshal_seat, wants
from .suspicion import Belief


class _TypeOf(dict[str, str]):
    """Card face -> card type, each face's filled on first use."""

    __slots__ = ()

    def __missing__(self, face: str) -> str:
        t = self[face] = face.partition(".")[0]
        return t


class Counts(dict[str, int]):
    """Card type -> copies in hand; 0 for a type not held."""

    __slots__ = ()

    def __missing__(self, card: str) -> int:
        return 0


class _Parsed(dict[str, Action]):
    """Option id -> :class:`Action`, each id's parsed on first use."""

    __slots__ = ()

    def __missing__(self, option: str) -> Action:
        a = self[option] = parse_action(option)
        return a


_TYPE_OF: Final = _TypeOf()
_PARSED: Final = _Parsed()
# the characters with a Cover, a Horse or a Scope built in (Ruling R-6)
BUILT_IN: Final = {
    "cover": ("iron_brow",),
    "horse": ("pass_shadow",),
    "scope": ("eagle_eye", "mad_dog"),
}

# ``card_type(face)``: ``shot.QH`` → ``shot`` (cached; a dict lookup, no Python call)
card_type: Final = _TYPE_OF.__getitem__
# ``parsed(option)``: an option id as an :class:`Action` (cached: option ids repeat across
# decisions; a dict lookup, no Python call)
parsed: Final = _PARSED.__getitem__


def _count_types(faces: tuple[str, ...]) -> Counts:
    counts = Counts()
    get = counts.get
    for t in map(card_type, faces):
        counts[t] = get(t, 0) + 1
    return counts


def has_equipment(seat: PublicSeatInfo, kind: str) -> bool:
    """Whether ``seat`` has a Cover/Horse/Scope, as a card in play or built in (Ruling R-6)."""
    if seat.character in BUILT_IN.get(kind, ()):
        return True
    return kind in map(card_type, seat.in_play)


def weapon_value(weapon: str | None, shots: int) -> float:
    """How good a weapon is: its range; a Volcanic is worth more with Shots to fire."""
    if weapon is None:
        return 1.0
    if weapon == "volcanic":
        return 1.2 + 0.6 * max(0, shots - 1)
    return float(WEAPON_RANGE[weapon])


class Ctx:
    """The facts of one decision.  ``beliefs`` and ``want`` are computed on first use: many
    decisions (answers to a Shot or a Raid, discards, put-backs) never need them, and the
    suspicion model gives the same beliefs whenever they are asked for within the decision."""

    __slots__ = (
        "view", "seats", "me", "faces", "hand", "high_noon", "marshal", "alive", "unlimited",
        "shots", "reach", "_beliefs_of", "_beliefs", "_want",
    )  # fmt: skip

    def __init__(
        self, view: SeatInfo, beliefs: Callable[[], list[Belief]], marshal: int | None = None
    ) -> None:
        """The context of ``view``'s decision; ``beliefs()`` gives the suspicion beliefs when the
        decision first needs them; ``marshal``: the Marshal's seat when the caller has it."""
        viewer = view.viewer
        self.view = view
        self.seats = seats = view.seats
        self.me = me = seats[viewer]
        self.faces = faces = view.hand
        self.hand = hand = _count_types(faces)  # card type -> copies in hand
        self.high_noon = high_noon = view.high_noon
        self.marshal = marshal_seat(view) if marshal is None else marshal
        self.alive = [s.seat for s in seats if s.seat != viewer and s.alive]  # others alive
        face = me.weapon
        character = me.character
        # may fire more than one Shot this turn
        self.unlimited = (
            high_noon
            or character == "mad_dog"
            or (face is not None and card_type(face) == "volcanic")
        )
        # Shots in hand (Two-Face: Ricochets too)
        self.shots = hand["shot"] + (hand["ricochet"] if character == "two_face" else 0)
        self.reach = me.weapon_range  # weapon range + Marksmanship
        self._beliefs_of = beliefs
        self._beliefs: list[Belief] | None = None
        self._want: list[float] | None = None

    @property
    def beliefs(self) -> list[Belief]:
        b = self._beliefs
        if b is None:
            b = self._beliefs = self._beliefs_of()
        return b

    @property
    def want(self) -> list[float]:
        w = self._want
        if w is None:
            w = self._want = wants(self.view, self.beliefs, self.marshal, self.alive)
        return w

    @property
    def hp(self) -> int:
        return self.me.hp

    @property
    def weapon(self) -> str | None:
        return card_type(self.me.weapon) if self.me.weapon else None

    def n_alive(self) -> int:
        return len(self.alive) + 1


__all__ = ["Counts", "Ctx", "card_type", "has_equipment", "parsed", "weapon_value"]
