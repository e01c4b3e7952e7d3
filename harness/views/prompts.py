"""Model prompt text from ``prompts/system``, ``game`` and ``decision.<locale>.j2``.

Prompts are ordered from the most shared to the least, so one cached prefix serves every seat and
game: the system prompt (the rules and the answer format) is byte-identical for every seat, game
and run in a locale; the game message (your seat, role, intel and the players) is fixed at the
deal; the decision messages carry what changes (the table, the events, the options).  How much of
the game's history a request carries is the seat's history policy (:mod:`harness.agents.transcript`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from harness.engine import SeatView
from harness.paths import RULES_MD_DIR

from .names import feed_title as _feed_title
from .narrate import Narrator
from .public_record import public_record
from .render import environment, markdown_from_context
from .render_context import view_context


@lru_cache(maxsize=16)
def rules_text(locale: str, rules: str = "full") -> str:
    """``rules_md/rules.<locale>.md``, or its ``brief`` variant (``rules.<locale>.brief.md``)."""
    from .rules_doc import render_rules_md, rules_file_name

    path = RULES_MD_DIR / rules_file_name(locale, rules)
    if not path.exists():  # a fresh checkout always has them; build if someone deleted them
        return render_rules_md(locale, rules)
    return path.read_text(encoding="utf-8").rstrip("\n")


@lru_cache(maxsize=32)
def system_prompt_text(locale: str, signals: bool = False, rules: str = "full") -> str:
    """The system prompt of every seat in ``locale``: rules and answer format, nothing else;
    with ``signals`` also the format of table signals (a league with ``signals: true``);
    ``rules``: the full rules document or the ``brief`` one (a model's ``rules: brief``)."""
    return (
        environment()
        .get_template(f"system.{locale}.j2")
        .render(rules=rules_text(locale, rules), signals=signals)
        .rstrip("\n")
    )


DEFAULT_LOG_FEED_TOKENS = 1200  # a whole-game feed longer than this gets a public record first
RECENT_EVENTS = 24  # events shown verbatim after a public record


class PromptBuilder:
    """Builds a seat's prompt texts.  ``names`` are the seat names shown to the model."""

    def __init__(
        self,
        names: Sequence[str],
        locale: str = "en",
        *,
        signals: bool = False,
        rules: str = "full",
    ) -> None:
        self.names = list(names)
        self.locale = locale
        self.signals = signals  # the seat may send table signals (the system prompt says how)
        self.rules = rules  # the rules document of the system prompt: full or brief
        self.narrator = Narrator(self.names, locale)

    def system_prompt(self, view: SeatView | None = None) -> str:
        """Identical for every seat and game in this locale (``view`` is not used)."""
        return system_prompt_text(self.locale, self.signals, self.rules)

    def game_message(self, view: SeatView) -> str:
        """Your seat, role, goal, intel at the deal and the players: fixed for the whole game."""
        ctx = view_context(view, self.names, self.locale, feed=False)
        return (
            environment()
            .get_template(f"game.{self.locale}.j2")
            .render(you=ctx["you"], table=ctx["table"], knowledge=ctx["knowledge"],
                    seats=ctx["seats"])
            .rstrip("\n")
        )  # fmt: skip

    def feed_lines(self, events: Sequence[dict[str, Any]]) -> list[str]:
        return self.narrator.lines(events)

    def user_message(
        self,
        view: SeatView,
        *,
        feed: Sequence[str],
        feed_title: str = "since",  # since, game or recent
        game: bool = False,
        record: str | None = None,
        previous_fallback: str | None = None,
    ) -> str:
        """One decision message: optionally the game message and a public record first, then
        the table now with ``feed`` (narrated lines) under its title in the locale's glossary,
        and the options."""
        ctx = view_context(view, self.names, self.locale, feed=False)
        ctx["feed"] = list(feed)
        view_md = markdown_from_context(
            ctx,
            abilities=False,
            effects=False,
            feed_title=_feed_title(feed_title, self.locale),
        )
        return (
            environment()
            .get_template(f"decision.{self.locale}.j2")
            .render(
                game=self.game_message(view) if game else None,
                record=record,
                previous_fallback=previous_fallback,
                view_md=view_md,
            )
            .rstrip("\n")
        )

    def message(
        self,
        view: SeatView,
        *,
        events: Sequence[dict[str, Any]] | None = None,
        lines: Sequence[str] | None = None,
        feed_title: str = "since",
        game: bool = False,
        record: Sequence[dict[str, Any]] | None = None,
        previous_fallback: str | None = None,
    ) -> str:
        """One decision message from what it holds: ``events`` narrated (or their narrated
        ``lines``) under ``feed_title``, the game message first when ``game``, and the public
        record of the ``record`` events before the table when given."""
        feed = lines if lines is not None else self.feed_lines(events or ())
        summary = None if record is None else public_record(record, self.names, self.locale)
        return self.user_message(
            view,
            feed=feed,
            feed_title=feed_title,
            game=game,
            record=summary,
            previous_fallback=previous_fallback,
        )

    def decision_prompt(self, view: SeatView, options: Sequence[str] | None = None) -> str:
        """A self-contained decision message: the game message, the table and the events the
        view carries (the ``since_last`` history policy)."""
        return self.user_message(view, feed=self.feed_lines(view.events), game=True)


__all__ = [
    "DEFAULT_LOG_FEED_TOKENS",
    "RECENT_EVENTS",
    "PromptBuilder",
    "rules_text",
    "system_prompt_text",
]
