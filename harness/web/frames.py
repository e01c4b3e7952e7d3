"""What the server sends: each connection gets the render context of *its* view only.

A person's frame is :func:`~harness.views.render_context.view_context` of ``build_view(game, seat)``; a
spectator's is the same of :func:`~harness.web.spectator.public_view` — never the game state, never
a diff of it.  Frames carry the feed incrementally (the events since the connection's previous
frame; ``reset`` starts a new feed, as after a reconnect or a change of language).  The labels are
the Markdown views' own, in the connection's locale.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.engine import Game, SeatView, build_view
from harness.engine.roles import TEAM_OF
from harness.views.names import card_label, character_name, role_name, upgrade_name
from harness.views.narrate import Narrator
from harness.views.render_context import view_context

from .spectator import public_view


def seat_view(game: Game, seat: int | None, since: int) -> SeatView:
    """The view a connection may have: its seat's, or the public one for a spectator."""
    return public_view(game, since) if seat is None else build_view(game, seat, since)


def _check(view: SeatView, locale: str) -> dict[str, Any] | None:
    """The newest check card (or Cover coin) among the view's new events, for the centre."""
    for e in reversed(view.events):
        if e.get("t") == "check":
            return {"seat": e["seat"], "for": e["for"], "card": e["card"],
                    "label": card_label(e["card"], locale)}  # fmt: skip
        if e.get("t") == "coin":
            return {"seat": e["seat"], "for": "cover", "coin": bool(e["ok"])}
    return None


def _last_play(view: SeatView, locale: str) -> dict[str, Any] | None:
    """The newest card played among the view's new events (who, which card, at whom), for the
    table to highlight until the next play."""
    for e in reversed(view.events):
        if e.get("t") == "play":
            return {"seat": e["seat"], "target": e.get("target"), "card": e["card"],
                    "label": card_label(e["card"], locale)}  # fmt: skip
    return None


def view_frame(
    game: Game,
    seat: int | None,
    since: int,
    names: Sequence[str],
    locale: str,
    *,
    decision: int,
    timer: dict[str, Any] | None,
    action_at: float,
    ask: bool = False,
) -> dict[str, Any]:
    """``ask``: this person must answer now (their options are in ``ctx.decision``)."""
    view = seat_view(game, seat, since)
    return {
        "type": "view",
        "reset": since == 0,
        "events": view.event_count,
        "decision": decision,
        "ask": ask,
        "ctx": view_context(view, names, locale),
        "check": _check(view, locale),
        "last_play": _last_play(view, locale),
        "timer": timer,
        "action_at": action_at,
    }


def over_frame(
    game: Game, names: Sequence[str], locale: str, summary: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """Game over: winners and every role revealed, with each player's stars and summary.
    Only sent once the game has ended, when no role is secret any more (seed 001, "Победа и
    итоги матча")."""
    assert game.winning_side is not None
    players = []
    for s in game.seats:
        players.append(
            {
                "seat": s.index,
                "name": names[s.index],
                "role": s.role,
                "role_name": role_name(s.role, locale),
                "team": TEAM_OF[s.role],
                "character": s.character,
                "character_name": character_name(s.character, locale),
                "alive": s.alive,
                "won": s.index in game.winners,
                "stars": len(s.upgrades),
                "upgrade_names": [upgrade_name(u, locale) for u in s.upgrades],
                **summary[s.index],
            }
        )
    end = next(e for e in reversed(game.events) if e["t"] == "game_over")
    return {
        "type": "over",
        "side": game.winning_side,
        "headline": Narrator(names, locale).result(end),  # under the dialog's "Game over"
        "winners": [names[i] for i in game.winners],
        "rounds": game.round,
        "players": players,
    }
