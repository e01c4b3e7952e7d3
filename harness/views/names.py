"""Seat names and the localized words of the game, read from the glossaries
(:mod:`harness.views.glossary`, one data file per locale)."""

from __future__ import annotations

from harness.engine.cards import SUIT_SYMBOL

from .glossary import LOCALES, Glossary, glossary

__all__ = [
    "DEFAULT_NAMES",
    "LOCALES",
    "Glossary",
    "card_effect",
    "card_label",
    "card_name",
    "character_ability",
    "character_name",
    "default_names",
    "feed_title",
    "glossary",
    "mode_name",
    "reason_name",
    "role_name",
    "side_name",
    "text_direction",
    "upgrade_name",
    "word",
]

DEFAULT_NAMES = ("Ada", "Bill", "Cole", "Dora", "Eli", "Faye", "Gus", "Hank")


def default_names(n: int) -> list[str]:
    return list(DEFAULT_NAMES[:n])


def card_name(type_id: str, locale: str = "en") -> str:
    return glossary(locale).cards[type_id].name


def card_effect(face: str, locale: str = "en") -> str:
    """The effect text of a card type (``shot``) or of a card's face (``shot.QH``)."""
    return glossary(locale).cards[face.partition(".")[0]].effect


def card_label(face: str, locale: str = "en") -> str:
    """``shot.QH`` → ``Shot ♥Q``; a bare type id → its name."""
    type_id, _, code = face.partition(".")
    name = card_name(type_id, locale)
    return f"{name} {SUIT_SYMBOL[code[-1]]}{code[:-1]}" if code else name


def character_name(cid: str, locale: str = "en") -> str:
    return glossary(locale).characters[cid].name


def character_ability(cid: str, locale: str = "en") -> str:
    return glossary(locale).characters[cid].ability


def role_name(role: str, locale: str = "en") -> str:
    return glossary(locale).roles[role]


def mode_name(mode: str, locale: str = "en") -> str:
    return glossary(locale).modes[mode]


def upgrade_name(upgrade: str, locale: str = "en") -> str:
    return glossary(locale).upgrades[upgrade]


def side_name(side: str, locale: str = "en") -> str:
    """A winning side (``law``, ``raiders``, ``loner``, ``loners``)."""
    return glossary(locale).sides[side]


def reason_name(why: str, locale: str = "en") -> str:
    """Why a card was drawn, discarded or a star gained; an unknown reason reads as itself."""
    return glossary(locale).reasons.get(why, why)


def feed_title(kind: str, locale: str = "en") -> str:
    """The title of an event feed (``since``, ``game``, ``recent``, ``decision``, ``step``)."""
    return glossary(locale).feed_titles[kind]


def word(key: str, locale: str = "en") -> str:
    """A small table word (``hand``, ``bot``, ``ai``)."""
    return glossary(locale).words[key]


def text_direction(locale: str) -> str:
    """``rtl`` for right-to-left languages, else ``ltr``."""
    return glossary(locale).direction
