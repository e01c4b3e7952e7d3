"""Card data: the 22 card types and the 80 physical cards of Ruling R-1 (RULES.md §1).

A physical card is identified inside the engine by its index 0..79 in :data:`DECK`.  Outside the
engine a card is named by its *face*: ``<type>.<rank><suit>`` with an ASCII suit letter, e.g.
``shot.QH`` (Shot, queen of hearts) or ``wagon.9S``.  Two physical cards never differ in anything
but their face, so the face is all a player ever needs to know about a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class CardKind(StrEnum):
    BROWN = "brown"
    BLUE = "blue"
    WEAPON = "weapon"


@dataclass(frozen=True, slots=True)
class CardType:
    """A card type; its name and effect text in every language are in the glossaries
    (``harness/views/glossary/<locale>.yaml``)."""

    id: str
    kind: CardKind
    copies: int
    range: int  # weapon range; 0 for cards that are not weapons


SUITS: Final = ("S", "H", "D", "C")
SUIT_SYMBOL: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SYMBOL_SUIT: Final = {v: k for k, v in SUIT_SYMBOL.items()}
RANK_TEXT: Final = {
    2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
    11: "J", 12: "Q", 13: "K", 14: "A",
}  # fmt: skip
TEXT_RANK: Final = {v: k for k, v in RANK_TEXT.items()}
RED_SUITS: Final = frozenset({"H", "D"})

_B, _U, _W = CardKind.BROWN, CardKind.BLUE, CardKind.WEAPON

CARD_TYPES: Final[tuple[CardType, ...]] = (
    CardType("shot", _B, 25, 0),
    CardType("ricochet", _B, 12, 0),
    CardType("flask", _B, 6, 0),
    CardType("snatch", _B, 4, 0),
    CardType("knock_off", _B, 4, 0),
    CardType("duel", _B, 3, 0),
    CardType("raid", _B, 2, 0),
    CardType("wagon", _B, 2, 0),
    CardType("bazaar", _B, 2, 0),
    CardType("saloon", _B, 1, 0),
    CardType("caravan", _B, 1, 0),
    CardType("buckshot", _B, 1, 0),
    CardType("jail", _U, 3, 0),
    CardType("cover", _U, 2, 0),
    CardType("horse", _U, 2, 0),
    CardType("scope", _U, 1, 0),
    CardType("dynamite", _U, 1, 0),
    CardType("volcanic", _W, 2, 1),
    CardType("sawed_off", _W, 3, 2),
    CardType("rifle", _W, 1, 3),
    CardType("carbine", _W, 1, 4),
    CardType("long_rifle", _W, 1, 5),
)

TYPE_BY_ID: Final = {t.id: t for t in CARD_TYPES}
TYPE_ORDER: Final = {t.id: i for i, t in enumerate(CARD_TYPES)}
REVOLVER_RANGE: Final = 1

# Ruling R-1: one row per physical card, in the order of RULES.md §1 (★ marks the three changes).
_PHYSICAL: Final = {
    "shot": "AS QH KH AH 2H 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4C 5C 6C 7C 8C 9C",
    "ricochet": "2S 3S 4S 5S 6S 7S 8S 10C JC QC KC AC",
    "flask": "6H 7H 8H 9H 10H JH",
    "snatch": "JH QH AH 8D",
    "knock_off": "KH 9D 10D JD",
    "duel": "JS QD 8C",
    "raid": "KD AD",
    "wagon": "9S 9S",
    "bazaar": "QS 9C",
    "saloon": "5H",
    "caravan": "3H",
    "buckshot": "10H",
    "jail": "10S JS 4H",
    "cover": "QS KS",
    "horse": "8H 9H",
    "scope": "AS",
    "dynamite": "2H",
    "volcanic": "10S 10C",
    "sawed_off": "KS JC QC",
    "rifle": "KC",
    "carbine": "AC",
    "long_rifle": "8S",
}


@dataclass(frozen=True, slots=True)
class PhysicalCard:
    index: int
    type: str
    suit: str
    rank: int

    @property
    def face(self) -> str:
        return f"{self.type}.{RANK_TEXT[self.rank]}{self.suit}"


def _build_deck() -> tuple[PhysicalCard, ...]:
    cards: list[PhysicalCard] = []
    for type_id, spec in _PHYSICAL.items():
        for token in spec.split():
            cards.append(PhysicalCard(len(cards), type_id, token[-1], TEXT_RANK[token[:-1]]))
    return tuple(cards)


DECK: Final[tuple[PhysicalCard, ...]] = _build_deck()
N_CARDS: Final = len(DECK)
CARD_TYPE: Final[tuple[str, ...]] = tuple(c.type for c in DECK)
CARD_SUIT: Final[tuple[str, ...]] = tuple(c.suit for c in DECK)
CARD_RANK: Final[tuple[int, ...]] = tuple(c.rank for c in DECK)
CARD_FACE: Final[tuple[str, ...]] = tuple(c.face for c in DECK)
WEAPON_RANGE: Final = {t.id: t.range for t in CARD_TYPES if t.kind is CardKind.WEAPON}
BLUE_TYPES: Final = frozenset(t.id for t in CARD_TYPES if t.kind is CardKind.BLUE)


def is_red(card: int) -> bool:
    return CARD_SUIT[card] in RED_SUITS


def is_dynamite_blast(card: int) -> bool:
    """A Dynamite check explodes on ♠2–9 (RULES.md §6)."""
    return CARD_SUIT[card] == "S" and 2 <= CARD_RANK[card] <= 9
