"""The user message of a belief probe (``prompts/probe.<locale>.j2``), built only from the seat's
own view and the events it saw.

The message is self-contained (the probe is a side request, outside the seat's conversation):
the game message (your seat, role, intel, the players), the game's feed as this seat saw it (the
public record of the older events and the recent ones verbatim once it is long, as the ``log``
history policy does), the table now without the pending options, then the question: for each
player named, a probability of each role listed, and the answer format.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from harness.engine import SeatView

from .names import feed_title, role_name
from .prompts import DEFAULT_LOG_FEED_TOKENS, RECENT_EVENTS, PromptBuilder
from .public_record import public_record
from .render import environment, markdown_from_context
from .render_context import view_context
from .tokens import approx_tokens


def probe_message(
    view: SeatView,
    events: Sequence[dict[str, Any]],
    names: Sequence[str],
    locale: str,
    targets: Sequence[int],
    roles: Sequence[str],
) -> str:
    """The probe's user message for ``view``'s seat; ``events`` are every event the seat saw
    (``filter_event`` output, in game order); ``targets`` the seats asked about."""
    builder = PromptBuilder(names, locale)
    lines = builder.feed_lines(events)
    record = None
    title = "game"
    if approx_tokens("\n".join(lines)) > DEFAULT_LOG_FEED_TOKENS:
        cut = max(0, len(events) - RECENT_EVENTS)
        record = public_record(events[:cut], list(names), locale)
        lines = builder.feed_lines(events[cut:])
        title = "recent"
    table = dataclasses.replace(view, pending=None, events=(), event_count=view.event_count)
    ctx = view_context(table, names, locale, feed=False)
    ctx["feed"] = lines
    view_md = markdown_from_context(
        ctx, abilities=False, effects=False, feed_title=feed_title(title, locale)
    )
    asked = [names[s] for s in targets]
    return (
        environment()
        .get_template(f"probe.{locale}.j2")
        .render(
            game=builder.game_message(view),
            record=record,
            view_md=view_md,
            names=asked,
            roles=[{"id": r, "name": role_name(r, locale)} for r in roles],
        )
        .rstrip("\n")
    )


__all__ = ["probe_message"]
