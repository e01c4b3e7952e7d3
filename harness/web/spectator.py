"""The spectator's view: only the public facts of RULES.md §9, built from the engine directly.

No seat's view is built and trimmed here: the information filter builds the view of a viewer who
sits nowhere (:data:`~harness.engine.SPECTATOR`), whose fields are the public ones (character, ♥,
hand *sizes*, in-play cards, revealed roles, the pending decision without its options) and whose
events pass :func:`~harness.engine.filter_event` for that viewer, so the secret parts of private
events never enter it.  The result is a :class:`SeatView` with ``viewer == -1``, no role, no hand
and no private knowledge, rendered by the same :func:`~harness.views.render_context.view_context` as every
seat view.
"""

from __future__ import annotations

from harness.engine import SPECTATOR, Game, SeatView, build_view

__all__ = ["SPECTATOR", "public_view"]


def public_view(game: Game, since: int = 0) -> SeatView:
    """What anyone watching the table may see; the feed starts at event index ``since``."""
    return build_view(game, SPECTATOR, since)
