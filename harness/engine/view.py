"""The information filter: :func:`build_view` returns exactly what RULES.md §9 lets a seat see.

Bots, prompts and people only ever get a :class:`SeatView`.  Cards appear as faces
(``shot.QH``), never as engine indices, so two physically identical cards are indistinguishable
here as they are at a real table.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .cards import CARD_FACE
from .game import Game
from .roles import composition
from .state import DecisionKind, Seat

# Context fields of each decision frame that everyone at the table may see.
_CONTEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "respond_shot": ("attacker", "target", "needed", "source"),
    "respond_raid": ("attacker", "target"),
    "respond_duel": ("challenger", "target", "current"),
    "upgrade": ("seat", "why"),
    "bounty": ("seat", "victim", "stars"),
    "putback": ("seat", "keep"),
}
# The viewer of the public view: a spectator who sits nowhere.
SPECTATOR = -1
# Private events whose recipient is itself a secret: the seats told the team at the deal are the
# raiders team (Ruling R-3), so the other seats see only that intel was given.
_RECIPIENT_PRIVATE = frozenset({"intel"})


@dataclass(frozen=True, slots=True)
class PublicSeat:
    seat: int
    character: str
    hp: int
    max_hp: int
    hand_size: int
    in_play: tuple[str, ...]
    weapon: str | None
    weapon_range: int  # weapon (Revolver 1) + Marksmanship
    upgrades: tuple[str, ...]
    alive: bool
    role: str | None  # revealed role (the Marshal; eliminated players), else None
    distance: int | None  # from the viewer; None for the viewer and for eliminated players


@dataclass(frozen=True, slots=True)
class PendingView:
    seat: int
    kind: DecisionKind
    context: dict[str, Any]
    options: tuple[str, ...] | None  # the option ids, only when the viewer is the one deciding


@dataclass(frozen=True, slots=True)
class SeatView:
    viewer: int
    mode: str
    n_seats: int
    round: int
    high_noon: bool
    turn: int
    phase: str
    shots_used: int
    composition: dict[str, int]
    deck_size: int
    discard_size: int
    discard_top: str | None
    seats: tuple[PublicSeat, ...]
    role: str
    hand: tuple[str, ...]  # in the order received (the last is the newest)
    known_roles: dict[int, str]
    marshal_pair: tuple[int, int] | None
    known_deck_top: tuple[str, ...]  # cards you put back that are still on top, top first
    looking: tuple[str, ...]  # cards you are looking at during your draw phase
    events: tuple[dict[str, Any], ...]
    event_count: int  # events in the whole game; pass as ``since`` to get only newer ones
    pending: PendingView | None
    winning_side: str | None = None
    winners: tuple[int, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["known_roles"] = {str(k): v for k, v in self.known_roles.items()}
        return d


def filter_event(event: dict[str, Any], viewer: int) -> dict[str, Any]:
    """The event as ``viewer`` saw it: secret parts only for the seats they were shown to."""
    to = event.get("to")
    if to is None:
        return event
    if viewer not in to and event["t"] in _RECIPIENT_PRIVATE:
        return {"t": event["t"]}
    out = event.copy()  # the other fields in their order, without the recipients and the secret
    del out["to"]
    out.pop("secret", None)
    if viewer in to:
        out.update(event["secret"])
    return out


def build_view(game: Game, seat: int, since: int = 0) -> SeatView:
    """Everything ``seat`` may see now; the event feed starts at event index ``since``.

    ``seat = SPECTATOR`` is a viewer who sits nowhere: only the public facts (RULES.md §9), with
    no role, hand, private knowledge, distances or options.
    """
    me = None if seat == SPECTATOR else game.seats[seat]
    pseats = []
    for s in game.seats:
        pseats.append(
            PublicSeat(
                seat=s.index,
                character=s.character,
                hp=s.hp,
                max_hp=s.max_hp,
                hand_size=len(s.hand),
                in_play=card_faces(s.in_play),
                weapon=CARD_FACE[s.weapon] if s.weapon >= 0 else None,
                weapon_range=s.weapon_range,
                upgrades=tuple(s.upgrades),
                alive=s.alive,
                role=public_role(s, seat),
                distance=public_distance(game, seat, s),
            )
        )
    pending = pending_view(game, seat)
    deck = game.deck
    role = ""  # a spectator knows nothing private
    hand: tuple[str, ...] = ()
    known_top: tuple[str, ...] = ()
    known_roles: dict[int, str] = {}
    marshal_pair: tuple[int, int] | None = None
    if me is not None:
        role, hand = me.role, card_faces(me.hand)
        known_roles, marshal_pair = dict(me.known_roles), me.marshal_pair
        known_top = known_deck_top(deck, me.known_top)
    looking = seat_looking(game, seat)
    return SeatView(
        viewer=seat,
        mode=game.mode,
        n_seats=game.n,
        round=game.round,
        high_noon=game.high_noon,
        turn=game.turn,
        phase=game.phase,
        shots_used=game.shots_used,
        composition=composition(game.n, game.mode),
        deck_size=len(deck),
        discard_size=len(game.discard),
        discard_top=CARD_FACE[game.discard[-1]] if game.discard else None,
        seats=tuple(pseats),
        role=role,
        hand=hand,
        known_roles=known_roles,
        marshal_pair=marshal_pair,
        known_deck_top=known_top,
        looking=looking,
        events=tuple(feed_from(game, seat, since)),
        event_count=len(game.events),
        pending=pending,
        winning_side=game.winning_side,
        winners=game.winners,
    )


def card_faces(cards: Iterable[int]) -> tuple[str, ...]:
    """The faces of ``cards`` (engine card indices), in order."""
    return tuple([CARD_FACE[c] for c in cards])  # a list first: quicker than a generator


def public_role(s: Seat, viewer: int) -> str | None:
    """``s``'s role as ``viewer`` sees it on the table: the Marshal's, an eliminated player's and
    the viewer's own; None for every other seat."""
    return s.role if s.role == "marshal" or not s.alive or s.index == viewer else None


def public_distance(game: Game, viewer: int, s: Seat) -> int | None:
    """Distance from ``viewer`` to ``s``; None for the viewer, an eliminated player or seat, and
    the spectator."""
    if viewer == SPECTATOR or not s.alive or s.index == viewer or not game.seats[viewer].alive:
        return None
    return game.distance(viewer, s.index)


def pending_view(
    game: Game, viewer: int, option_ids: Sequence[str] | None = None
) -> PendingView | None:
    """The pending decision's public part; its option ids only for the seat deciding
    (``option_ids``: the pending decision's ids when the caller has them already)."""
    d = game.pending
    frame = game.pending_frame
    if d is None or frame is None:
        return None
    names = _CONTEXT_FIELDS.get(frame[0], ())
    return PendingView(
        seat=d.seat,
        kind=d.kind,
        context=dict(zip(names, frame[1:], strict=False)),
        options=None
        if d.seat != viewer
        else tuple(d.option_ids if option_ids is None else option_ids),
    )


def seat_looking(game: Game, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` is looking at while it decides what to put back (empty otherwise)."""
    d = game.pending
    if d is not None and d.seat == seat and d.kind == "putback":
        return card_faces(game.looking)
    return ()


def feed_from(
    game: Game, viewer: int, first: int, types: Container[str] | None = None
) -> list[dict[str, Any]]:
    """The events of ``game`` from index ``first`` as ``viewer`` sees them (a public event, one
    without recipients, as it is: :func:`filter_event`'s first rule); with ``types``, only those
    whose type ``t`` is one of them (the others are never filtered)."""
    events = game.events[first:]
    if types is None:
        return [e if "to" not in e else filter_event(e, viewer) for e in events]
    return [e if "to" not in e else filter_event(e, viewer) for e in events if e["t"] in types]


def known_deck_top(deck: list[int], known: list[int]) -> tuple[str, ...]:
    """The unbroken run of cards at the top of the deck that this seat put there itself."""
    out = []
    kset = set(known)
    for c in reversed(deck):
        if c not in kset:
            break
        out.append(CARD_FACE[c])
    return tuple(out)
