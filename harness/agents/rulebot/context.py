"""The facts one decision needs, derived once from the seat's view (and the beliefs).

Contract: :class:`Ctx` is built from the view (a :class:`~harness.engine.SeatView` or a
:class:`~harness.engine.live_view.LiveView`: the same fields) and the suspicion beliefs only; it is
cheap (no feed scan) and read-only for the policy modules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from harness.engine.actions import Action, parse_action
from harness.engine.cards import WEAPON_RANGE
from harness.engine.live_view import PublicSeatInfo, SeatInfo

from .goals import marshal_seat, wants
from .suspicion import Belief

_TYPE_OF: dict[str, str] = {}
_PARSED: dict[str, Action] = {}
_HAND_TYPES: dict[tuple[str, ...], Counter[str]] = {}  # read-only counts; hands recur
_HAND_TYPES_MAX = 65_536
BUILTIN: Final = {"cover": "iron_brow", "horse": "pass_shadow"}
SCOPE_BUILTIN: Final = ("eagle_eye", "mad_dog")


def card_type(face: str) -> str:
    """``shot.QH`` → ``shot`` (cached)."""
    t = _TYPE_OF.get(face)
    if t is None:
        t = _TYPE_OF[face] = face.partition(".")[0]
    return t


def parsed(option: str) -> Action:
    """An option id as an :class:`Action` (cached: option ids repeat across decisions)."""
    a = _PARSED.get(option)
    if a is None:
        a = _PARSED[option] = parse_action(option)
    return a


def has_equipment(seat: PublicSeatInfo, kind: str) -> bool:
    """Whether ``seat`` has a Cover/Horse/Scope, as a card in play or built in (Ruling R-6)."""
    if kind == "scope" and seat.character in SCOPE_BUILTIN:
        return True
    if BUILTIN.get(kind) == seat.character:
        return True
    return any(card_type(f) == kind for f in seat.in_play)


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
        "view", "me", "hand", "marshal", "alive", "unlimited", "shots", "reach",
        "_beliefs_of", "_beliefs", "_want",
    )  # fmt: skip

    def __init__(
        self,
        view: SeatInfo,
        me: PublicSeatInfo,
        hand: Counter[str],
        beliefs: Callable[[], list[Belief]],
        marshal: int,
        alive: list[int],
        unlimited: bool,
        shots: int,
        reach: int,
    ) -> None:
        self.view = view
        self.me = me
        self.hand = hand  # card type -> copies in hand; shared between decisions: never changed
        self.marshal = marshal
        self.alive = alive  # living seats other than the viewer
        self.unlimited = unlimited  # may fire more than one Shot this turn
        self.shots = shots  # Shots in hand (Two-Face: Ricochets too)
        self.reach = reach  # weapon range + Marksmanship
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

    def seat(self, j: int) -> PublicSeatInfo:
        return self.view.seats[j]


def build_ctx(
    view: SeatInfo, beliefs: Callable[[], list[Belief]], marshal: int | None = None
) -> Ctx:
    """The context of ``view``'s decision; ``beliefs()`` gives the suspicion beliefs when the
    decision first needs them; ``marshal``: the Marshal's seat when the caller has it."""
    me = view.seats[view.viewer]
    faces = view.hand
    hand = _HAND_TYPES.get(faces)
    if hand is None:
        if len(_HAND_TYPES) >= _HAND_TYPES_MAX:
            _HAND_TYPES.clear()
        hand = _HAND_TYPES[faces] = Counter(map(card_type, faces))
    face = me.weapon
    character = me.character
    unlimited = (
        view.high_noon
        or character == "mad_dog"
        or (face is not None and card_type(face) == "volcanic")
    )
    shots = hand["shot"] + (hand["ricochet"] if character == "two_face" else 0)
    viewer = view.viewer
    return Ctx(
        view,
        me,
        hand,
        beliefs,
        marshal_seat(view) if marshal is None else marshal,
        [s.seat for s in view.seats if s.seat != viewer and s.alive],
        unlimited,
        shots,
        me.weapon_range,
    )


__all__ = ["Ctx", "build_ctx", "card_type", "has_equipment", "parsed", "weapon_value"]
