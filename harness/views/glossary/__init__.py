"""The words of the game in every language: one glossary file per locale (``<locale>.yaml``).

A glossary holds every name a player reads — card types (name and effect), characters (name and
ability), roles, modes, upgrades — and the small words around them: card kinds, winning sides,
feed reasons, feed titles and a few table words.  The files are validated against the engine's
own ids on load, so a glossary that misses (or invents) a card, character, role, mode or upgrade
fails with one line naming it.

``harness.views.names`` reads names from here; templates receive the glossary as ``g``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.engine.cards import TYPE_BY_ID
from harness.engine.characters import CHARACTER_BY_ID
from harness.engine.roles import MODES, ROLES, UPGRADES
from harness.locale_files import key_mismatch, read_locale_file

__all__ = [
    "GLOSSARY_DIR",
    "LOCALES",
    "CardText",
    "CharacterText",
    "Glossary",
    "GlossaryError",
    "glossary",
    "load_glossary",
]

GLOSSARY_DIR = Path(__file__).resolve().parent
# English first (the reference every other document is compared with), then the seed pages'.
LOCALES: tuple[str, ...] = ("en", "ru", "zh", "ja", "ar")

CARD_KINDS = ("brown", "blue", "weapon")
SIDES = ("law", "raiders", "loner", "loners")
# Why a card was drawn, discarded, healed or a star gained (the ``why`` of engine events).
REASONS = (
    "deal", "wagon", "caravan", "bazaar", "stone_leopard", "empty_hands", "red_suit",
    "vulture_jr", "bounty", "raider_reward", "hand_limit", "knock_off", "eliminated",
    "bonesetter", "flask", "saloon", "glory", "last_bullet", "penalty",
)  # fmt: skip
# Titles of an event feed: since the seat's previous message / decision, the whole game, the
# recent events after a public record, and since the previous step of a replay.
FEED_TITLES = ("since", "game", "recent", "decision", "step")
WORDS = ("hand", "bot", "ai")


class GlossaryError(ValueError):
    """A glossary file that cannot be used; the message is one line."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CardText(_Strict):
    name: str = Field(min_length=1)
    effect: str = Field(min_length=1)


class CharacterText(_Strict):
    name: str = Field(min_length=1)
    ability: str = Field(min_length=1)


def _same_keys(what: str, got: dict[str, object], expected: tuple[str, ...] | list[str]) -> None:
    mismatch = key_mismatch(what, got, expected)
    if mismatch:
        raise ValueError(mismatch)
    empty = [k for k, v in got.items() if isinstance(v, str) and not v.strip()]
    if empty:
        raise ValueError(f"{what}: empty {', '.join(empty)}")


class Glossary(_Strict):
    """The words of one locale."""

    locale: str = Field(pattern=r"^[a-z]{2}$")
    language: str = Field(min_length=1)  # the language's name in itself
    direction: Literal["ltr", "rtl"] = "ltr"
    roles: dict[str, str]
    modes: dict[str, str]
    upgrades: dict[str, str]
    cards: dict[str, CardText]
    characters: dict[str, CharacterText]
    card_kinds: dict[str, str]
    sides: dict[str, str]
    reasons: dict[str, str]
    feed_titles: dict[str, str]
    words: dict[str, str]

    @model_validator(mode="after")
    def _complete(self) -> Glossary:
        _same_keys("roles", dict(self.roles), ROLES)
        _same_keys("modes", dict(self.modes), MODES)
        _same_keys("upgrades", dict(self.upgrades), UPGRADES)
        _same_keys("cards", dict(self.cards), list(TYPE_BY_ID))
        _same_keys("characters", dict(self.characters), list(CHARACTER_BY_ID))
        _same_keys("card_kinds", dict(self.card_kinds), CARD_KINDS)
        _same_keys("sides", dict(self.sides), SIDES)
        _same_keys("reasons", dict(self.reasons), REASONS)
        _same_keys("feed_titles", dict(self.feed_titles), FEED_TITLES)
        _same_keys("words", dict(self.words), WORDS)
        return self


def load_glossary(path: Path) -> Glossary:
    """Read and validate one glossary file; :class:`GlossaryError` (one line) when unusable."""
    return read_locale_file(path, Glossary, "glossary", GlossaryError)


@lru_cache(maxsize=len(LOCALES))
def glossary(locale: str) -> Glossary:
    """The glossary of ``locale`` (one of :data:`LOCALES`)."""
    if locale not in LOCALES:
        raise GlossaryError(f"no glossary for locale {locale[:8]!r}; known: {', '.join(LOCALES)}")
    return load_glossary(GLOSSARY_DIR / f"{locale}.yaml")
