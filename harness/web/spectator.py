"""The spectator's view: only the public facts of RULES.md §9, built from the engine directly.

No seat's view is built and trimmed here: every field is read from the game as public (character,
♥, hand *sizes*, in-play cards, revealed roles, the pending decision without its options) and every
event passes :func:`~harness.engine.filter_event` for a viewer who sits nowhere (``-1``), so the
secret parts of private events never enter it.  The result is a :class:`SeatView` with
``viewer == -1``, no role, no hand and no private knowledge, rendered by the same
:func:`~harness.views.context.view_context` as every seat view.
"""

from __future__ import annotations

from harness.engine import Game, PendingView, PublicSeat, SeatView, filter_event
from harness.engine.cards import CARD_FACE
from harness.engine.roles import composition
from harness.engine.view import _CONTEXT_FIELDS

SPECTATOR = -1


def public_view(game: Game, since: int = 0) -> SeatView:
    """What anyone watching the table may see; the feed starts at event index ``since``."""
    seats = tuple(
        PublicSeat(
            seat=s.index,
            character=s.character,
            hp=s.hp,
            max_hp=s.max_hp,
            hand_size=len(s.hand),
            in_play=tuple(CARD_FACE[c] for c in s.in_play),
            weapon=CARD_FACE[s.weapon] if s.weapon >= 0 else None,
            weapon_range=s.weapon_range,
            upgrades=tuple(s.upgrades),
            alive=s.alive,
            role=s.role if s.role == "marshal" or not s.alive else None,
            distance=None,
        )
        for s in game.seats
    )
    pending = None
    d, frame = game.pending, game.pending_frame
    if d is not None and frame is not None:
        names = _CONTEXT_FIELDS.get(frame[0], ())
        pending = PendingView(
            seat=d.seat,
            kind=d.kind,
            context=dict(zip(names, frame[1:], strict=False)),
            options=None,
        )
    return SeatView(
        viewer=SPECTATOR,
        mode=game.mode,
        n_seats=game.n,
        round=game.round,
        high_noon=game.high_noon,
        turn=game.turn,
        phase=game.phase,
        shots_used=game.shots_used,
        composition=composition(game.n, game.mode),
        deck_size=len(game.deck),
        discard_size=len(game.discard),
        discard_top=CARD_FACE[game.discard[-1]] if game.discard else None,
        seats=seats,
        role="",
        hand=(),
        known_roles={},
        marshal_pair=None,
        known_deck_top=(),
        looking=(),
        events=tuple(filter_event(e, SPECTATOR) for e in game.events[since:]),
        event_count=len(game.events),
        pending=pending,
        winning_side=game.winning_side,
        winners=game.winners,
    )
