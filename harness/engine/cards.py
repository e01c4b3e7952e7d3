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
    id: str
    en: str
    ru: str
    kind: CardKind
    copies: int
    range: int  # weapon range; 0 for cards that are not weapons
    effect_en: str
    effect_ru: str


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
    CardType("shot", "Shot", "Выстрел", _B, 25, 0,
             "Deal 1 damage to a player within your weapon range. Once per turn.",
             "Нанеси 1 урон игроку в дальности оружия (1 раз за ход)."),
    CardType("ricochet", "Ricochet", "Рикошет", _B, 12, 0,
             "Reaction: cancel a Shot or Buckshot hit aimed at you.",
             "Реакция: отмени направленный в тебя Выстрел или удар Картечи."),
    CardType("flask", "Flask", "Фляга", _B, 6, 0,
             "+1 ♥ (not above max). Out of turn only at 1 ♥ against a Shot or Buckshot hit with 3+ players alive.",
             "+1 ♥ себе. В чужой ход — только при 1 ♥ против Выстрела или Картечи и если живых >2."),
    CardType("snatch", "Snatch", "Выхватить", _B, 4, 0,
             "Take an in-play card or a random hand card from a player at distance 1.",
             "Забери у игрока на дистанции 1 карту со стола на выбор или случайную с руки."),
    CardType("knock_off", "Knock Off", "Сбросить", _B, 4, 0,
             "Make any player discard an in-play card of your choice or a random hand card.",
             "Сбрось у любого игрока карту со стола на выбор или случайную с руки."),
    CardType("duel", "Duel", "Поединок", _B, 3, 0,
             "Challenge any player: alternately discard Shots, target first; the first who does not loses 1 ♥.",
             "Вызови любого игрока: по очереди сбрасываете Выстрел, первым — он; кто не смог — −1 ♥."),
    CardType("raid", "Raid", "Набег", _B, 2, 0,
             "Every other player discards a Shot or loses 1 ♥.",
             "Каждый другой игрок сбрасывает Выстрел или теряет 1 ♥."),
    CardType("wagon", "Wagon", "Обоз", _B, 2, 0, "Draw 2 cards.", "Возьми 2 карты из колоды."),
    CardType("bazaar", "Bazaar", "Базар", _B, 2, 0,
             "Every living player draws 1 card, in turn order starting with you.",
             "Каждый живой игрок берёт 1 карту из колоды — по кругу, начиная с тебя."),
    CardType("saloon", "Saloon", "Салун", _B, 1, 0,
             "Every living player heals 1 ♥.", "Каждый живой игрок восстанавливает 1 ♥."),
    CardType("caravan", "Caravan", "Караван", _B, 1, 0, "Draw 3 cards.", "Возьми 3 карты из колоды."),
    CardType("buckshot", "Buckshot", "Картечь", _B, 1, 0,
             "1 damage to every other player (each may answer as to a Shot). Does not use your Shot.",
             "Каждый другой получает 1 урон; спасают Укрытие и Рикошет. Лимит Выстрелов не тратит."),
    CardType("jail", "Jail", "Тюрьма", _U, 3, 0,
             "Put in front of another player (never the Marshal). At the start of their turn: ♥ frees them; otherwise they draw but play nothing. Then discarded.",
             "Посади игрока (не Маршала). В начале его хода: ♥ — играет, иначе добор без розыгрыша. Тюрьма — в сброс."),
    CardType("cover", "Cover", "Укрытие", _U, 2, 0,
             "Against each Shot or Buckshot hit on you: a 50/50 check cancels it.",
             "В тебя Выстрел или Картечь — бросок 50 на 50: повезло — удар отменён."),
    CardType("horse", "Horse", "Конь", _U, 2, 0,
             "Other players see you 1 farther.", "Другие видят тебя на 1 дальше."),
    CardType("scope", "Scope", "Прицел", _U, 1, 0,
             "You see other players 1 closer (never closer than 1).",
             "Ты видишь других на 1 ближе, но не ближе 1."),
    CardType("dynamite", "Dynamite", "Динамит", _U, 1, 0,
             "Put in front of yourself. At the start of the holder's turn (before Jail): ♠2–9 deals 3 damage; otherwise it passes to the next player.",
             "Перед собой. В начале хода, до Тюрьмы: пики 2–9 — 3 урона, иначе — следующему по ходу."),
    CardType("volcanic", "Volcanic", "Вулкан", _W, 2, 1,
             "Weapon: range 1, unlimited Shots.", "Оружие: дальность 1, Выстрелы без лимита."),
    CardType("sawed_off", "Sawed-Off", "Обрез", _W, 3, 2, "Weapon: range 2.", "Оружие: дальность 2."),
    CardType("rifle", "Rifle", "Ружьё", _W, 1, 3, "Weapon: range 3.", "Оружие: дальность 3."),
    CardType("carbine", "Carbine", "Карабин", _W, 1, 4, "Weapon: range 4.", "Оружие: дальность 4."),
    CardType("long_rifle", "Long Rifle", "Винтовка", _W, 1, 5, "Weapon: range 5.", "Оружие: дальность 5."),
)  # fmt: skip

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


def face_label(face: str, locale: str = "en") -> str:
    """``shot.QH`` → ``Shot ♥Q`` (or the Russian name)."""
    type_id, _, code = face.partition(".")
    spec = TYPE_BY_ID[type_id]
    name = spec.ru if locale == "ru" else spec.en
    if not code:
        return name
    return f"{name} {SUIT_SYMBOL[code[-1]]}{code[:-1]}"
