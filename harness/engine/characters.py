"""The 16 characters (RULES.md §1): id and ♥ (names and abilities in every language are in the
glossaries, ``harness/views/glossary/<locale>.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    hp: int
    old_classic_hp: int


CHARACTERS: Final[tuple[Character, ...]] = (
    Character("stone_leopard", 3, 4),
    Character("red_suit", 4, 4),
    Character("two_face", 4, 4),
    Character("collector", 3, 3),
    Character("grip", 4, 4),
    Character("iron_brow", 4, 4),
    Character("three_eyes", 4, 4),
    Character("lucky", 4, 4),
    Character("pass_shadow", 3, 3),
    Character("vulture_jr", 4, 4),
    Character("eagle_eye", 4, 4),
    Character("bonesetter", 5, 5),
    Character("double_barrel", 4, 4),
    Character("empty_hands", 4, 4),
    Character("scavenger", 4, 4),
    Character("mad_dog", 4, 4),
)

CHARACTER_BY_ID: Final = {c.id: c for c in CHARACTERS}


def character_hp(character: str, mode: str) -> int:
    c = CHARACTER_BY_ID[character]
    return c.old_classic_hp if mode == "old_classic" else c.hp
