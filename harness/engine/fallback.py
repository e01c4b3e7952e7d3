"""Ruling R-5: the deterministic "simplest move" a seat makes when its time runs out."""

from __future__ import annotations

from .actions import END, TAKE, Action
from .cards import CARD_FACE, CARD_TYPE
from .game import Game


def simplest_action(game: Game) -> Action:
    """play → end turn; any response → take the hit; forced discard → the most recently received
    card; draw-phase choices → the default deck draw (put back the last card looked at); upgrade
    and any other choice → the first option in canonical order."""
    d = game.pending
    if d is None:
        raise ValueError("no decision is pending")
    if d.kind == "play":
        return END
    if d.kind in ("respond_shot", "respond_raid", "respond_duel"):
        return TAKE
    if d.kind == "discard":
        newest = game.seats[d.seat].hand[-1]
        return Action("discard", CARD_TYPE[newest])
    if d.kind == "draw_source":
        return Action("draw", "deck")
    if d.kind == "putback":
        return Action("putback", CARD_FACE[game.looking[-1]])
    return d.options[0]
