"""Event feed lines: each engine event type is a jinja2 macro in ``prompts/events.<locale>.j2``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.paths import PROMPTS_DIR

from .names import (
    LOCALES,
    card_label,
    card_name,
    mode_name,
    reason_name,
    role_name,
    side_name,
    upgrade_name,
    word,
)


class Narrator:
    """Turns engine events (as a seat saw them) into one line of text each."""

    def __init__(self, names: Sequence[str], locale: str = "en") -> None:
        self.names = list(names)
        self.locale = locale
        helpers = {
            "name": self.name,
            "card": lambda f: card_label(f, locale),
            "cards": lambda fs: ", ".join(card_label(f, locale) for f in fs),
            "role": lambda r: role_name(r, locale),
            "mode": lambda m: mode_name(m, locale),
            "upgrade": lambda u: upgrade_name(u, locale),
            "what": lambda w: word("hand", locale) if w == "hand" else card_name(w, locale),
            "why": lambda w: reason_name(w, locale),
            "side": lambda s: side_name(s, locale),
        }
        self._helpers = _Attr(helpers)
        self._module = _module(locale)

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def line(self, event: dict[str, Any]) -> str:
        macro = getattr(self._module, "ev_" + event["t"], None)
        if macro is None:
            return f"[{event['t']}]"
        return str(macro(_Attr(event), self._helpers)).strip()

    def result(self, event: dict[str, Any]) -> str:
        """Who won, from a ``game_over`` event, as a sentence of its own (the feed line without
        its "Game over —", for a screen whose title already says the game is over)."""
        text = str(self._module.game_result(_Attr(event), self._helpers)).strip()
        return text[:1].upper() + text[1:]

    def lines(self, events: Sequence[dict[str, Any]]) -> list[str]:
        out = []
        for e in events:
            text = self.line(e)
            if text:
                out.append(text)
        return out


class _Attr(dict[str, Any]):
    """A dict whose keys jinja2 can also read as attributes (``e.seat``)."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


@lru_cache(maxsize=len(LOCALES))
def _module(locale: str) -> Any:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR), undefined=StrictUndefined, autoescape=False
    )
    return env.get_template(f"events.{locale}.j2").make_module()
