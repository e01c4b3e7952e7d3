"""Model prompts from ``prompts/system.<locale>.j2`` and ``prompts/decision.<locale>.j2``.

The system prompt (rules document, your role and goal, the players and their characters, the answer
format) depends only on facts fixed at the deal, so it is byte-identical for a seat across a game
and providers can cache it.  The decision prompt carries what changes: the table, the feed since
your last decision, and the options.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from harness.engine import SeatView
from harness.paths import RULES_MD_DIR

from .context import view_context
from .render import environment, markdown_from_context


@lru_cache(maxsize=4)
def rules_text(locale: str) -> str:
    path = RULES_MD_DIR / f"rules.{locale}.md"
    if not path.exists():  # a fresh checkout always has them; build if someone deleted them
        from .rules_doc import render_rules_md

        return render_rules_md(locale)
    return path.read_text(encoding="utf-8").rstrip("\n")


class PromptBuilder:
    """Builds a seat's prompts.  ``names`` are the seat names shown to the model."""

    def __init__(self, names: Sequence[str], locale: str = "en") -> None:
        self.names = list(names)
        self.locale = locale

    def system_prompt(self, view: SeatView) -> str:
        ctx = view_context(view, self.names, self.locale, feed=False)
        # Only facts fixed at the deal: drop everything that changes during the game.
        return (
            environment()
            .get_template(f"system.{self.locale}.j2")
            .render(
                you=ctx["you"],
                table=ctx["table"],
                knowledge=ctx["knowledge"],
                seats=ctx["seats"],
                rules=rules_text(self.locale),
            )
        )

    def decision_prompt(self, view: SeatView, options: Sequence[str] | None = None) -> str:
        ctx = view_context(view, self.names, self.locale)
        view_md = markdown_from_context(ctx, abilities=False, effects=False)
        return environment().get_template(f"decision.{self.locale}.j2").render(view_md=view_md)
