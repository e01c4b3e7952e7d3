"""Ruling R-5: the deterministic "simplest move" a seat makes when its time runs out.

play → end turn; any response → take the hit / do not discard; forced discard → the most recently
received card; draw-phase choices → the default deck draw (``draw:deck``; put back the last card
looked at); upgrade and any other choice → the first option in canonical order (marksmanship,
toughness, instinct).  The rule needs only what the deciding seat sees, so it is defined on that
(:func:`simplest_option`) and on a game (:func:`simplest_action`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, parse_action
from .cards import CARD_FACE
from .game import Game
from .view import SeatView


def simplest_option(
    kind: str, options: Sequence[str], newest_hand_face: str | None, last_looked: str | None
) -> str:
    if kind == "play":
        return "end"
    if kind in ("respond_shot", "respond_raid", "respond_duel"):
        return "take"
    if kind == "discard" and newest_hand_face:
        return "discard:" + newest_hand_face.partition(".")[0]
    if kind == "draw_source":
        return "draw:deck"
    if kind == "putback" and last_looked:
        return "putback:" + last_looked
    return options[0]


def simplest_action(game: Game) -> Action:
    d = game.pending
    if d is None:
        raise ValueError("no decision is pending")
    hand = game.seats[d.seat].hand
    return parse_action(
        simplest_option(
            d.kind,
            d.option_ids,
            CARD_FACE[hand[-1]] if hand else None,
            CARD_FACE[game.looking[-1]] if game.looking else None,
        )
    )


def simplest_for_view(view: SeatView, options: Sequence[str]) -> str:
    """The R-5 move for the seat whose view this is (the pending decision must be its own)."""
    if view.pending is None:
        raise ValueError("no decision is pending")
    return simplest_option(
        view.pending.kind,
        options,
        view.hand[-1] if view.hand else None,
        view.looking[-1] if view.looking else None,
    )
