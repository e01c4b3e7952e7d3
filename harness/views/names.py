"""Seat names and localized names of cards, characters, roles and upgrades."""

from __future__ import annotations

from harness.engine.cards import SUIT_SYMBOL, TYPE_BY_ID
from harness.engine.characters import CHARACTER_BY_ID
from harness.engine.roles import MODE_NAMES, ROLE_NAMES, UPGRADE_NAMES

DEFAULT_NAMES = ("Ada", "Bill", "Cole", "Dora", "Eli", "Faye", "Gus", "Hank")
LOCALES = ("en", "ru")


def default_names(n: int) -> list[str]:
    return list(DEFAULT_NAMES[:n])


def _pick(pair: tuple[str, str], locale: str) -> str:
    return pair[1] if locale == "ru" else pair[0]


def card_name(type_id: str, locale: str = "en") -> str:
    t = TYPE_BY_ID[type_id]
    return t.ru if locale == "ru" else t.en


def card_label(face: str, locale: str = "en") -> str:
    """``shot.QH`` → ``Shot ♥Q``; a bare type id → its name."""
    type_id, _, code = face.partition(".")
    name = card_name(type_id, locale)
    return f"{name} {SUIT_SYMBOL[code[-1]]}{code[:-1]}" if code else name


def character_name(cid: str, locale: str = "en") -> str:
    c = CHARACTER_BY_ID[cid]
    return c.ru if locale == "ru" else c.en


def character_ability(cid: str, locale: str = "en") -> str:
    c = CHARACTER_BY_ID[cid]
    return c.ability_ru if locale == "ru" else c.ability_en


def role_name(role: str, locale: str = "en") -> str:
    return _pick(ROLE_NAMES[role], locale)


def mode_name(mode: str, locale: str = "en") -> str:
    return _pick(MODE_NAMES[mode], locale)


def upgrade_name(upgrade: str, locale: str = "en") -> str:
    return _pick(UPGRADE_NAMES[upgrade], locale)
