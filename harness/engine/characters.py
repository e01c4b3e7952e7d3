"""The 16 characters (RULES.md §1): id, names, ♥ and ability text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    en: str
    ru: str
    hp: int
    old_classic_hp: int
    ability_en: str
    ability_ru: str


CHARACTERS: Final[tuple[Character, ...]] = (
    Character("stone_leopard", "Stone Leopard", "Каменный Барс", 3, 4,
              "Per hit taken (Dynamite too) draws 1 card; draws 2 instead if at 2 ♥ or less after the hit.",
              "За каждый удар (даже от Динамита) берёт 1 карту из колоды, а если осталось 2 ♥ или меньше — 2 карты."),
    Character("red_suit", "Red Suit", "Красная Масть", 4, 4,
              "Draw phase: the 2nd card is shown to all; if it is red (♥/♦) draws 1 more.",
              "В доборе открывает вторую карту: если красная — берёт ещё 1."),
    Character("two_face", "Two-Face", "Двуликая", 4, 4,
              "May play a Shot as a Ricochet and a Ricochet as a Shot.",
              "Выстрел можно сыграть как Рикошет, а Рикошет — как Выстрел."),
    Character("collector", "Collector", "Данник", 3, 3,
              "When damaged by a player, takes a random card from that player's hand.",
              "Получив урон от игрока, тянет у него случайную карту из руки."),
    Character("grip", "Grip", "Хват", 4, 4,
              "May take the 1st draw-phase card at random from another player's hand.",
              "Первую карту добора может вытянуть из чужой руки наугад."),
    Character("iron_brow", "Iron Brow", "Железный Лоб", 4, 4,
              "Always has Cover; a Cover card adds no second check.",
              "Всегда в Укрытии — даже без карты; карта Укрытия второй проверки не добавляет."),
    Character("three_eyes", "Three Eyes", "Три Глаза", 4, 4,
              "Draw phase: looks at the top 3 cards, keeps 2, puts 1 back on top.",
              "В доборе смотрит 3 верхние карты: 2 берёт, 1 кладёт обратно наверх."),
    Character("lucky", "Lucky", "Счастливчик", 4, 4,
              "Every check is tried twice; the successful try counts.",
              "На проверке — две попытки, засчитывается удачная."),
    Character("pass_shadow", "Pass Shadow", "Тень Перевала", 3, 3,
              "Built-in Horse worth 2: others see him 2 farther.",
              "Всегда верхом: встроенный Конь, до него на 2 дальше."),
    Character("vulture_jr", "Vulture Jr.", "Стервятник-младший", 4, 4,
              "May take the 1st draw-phase card from the top of the discard pile; when anyone is eliminated, draws 2.",
              "Первую карту добора может взять с верха сброса. Когда кто-то выбывает, берёт 2 карты из колоды."),
    Character("eagle_eye", "Eagle Eye", "Орлиный Глаз", 4, 4,
              "Built-in Scope.", "Бьёт дальше: Прицел встроен."),
    Character("bonesetter", "Bonesetter", "Костоправ", 5, 5,
              "At any of his decisions: discard 2 cards → +1 ♥ (not above max, not from 0).",
              "В любой момент: сбрось 2 карты — +1 ♥. Не выше максимума и не с нуля."),
    Character("double_barrel", "Double Barrel", "Двойной Ствол", 4, 4,
              "His Shot at distance 1 needs 2 Ricochets to cancel (a Cover success counts as one).",
              "Вплотную от его Выстрела спасают только 2 Рикошета (Укрытие — за один)."),
    Character("empty_hands", "Empty Hands", "Пустые Руки", 4, 4,
              "When his hand becomes empty, draws 1 card at once.",
              "Рука опустела — сразу берёт 1 карту."),
    Character("scavenger", "Scavenger", "Падальщик", 4, 4,
              "When anyone is eliminated, takes their hand and in-play cards.",
              "Когда кто-то выбывает, забирает его руку и выложенные карты."),
    Character("mad_dog", "Mad Dog", "Бешеный", 4, 4,
              "Unlimited Shots; built-in Scope.",
              "Стреляет без лимита: сколько угодно Выстрелов за ход. И видит на 1 дальше: Прицел встроен."),
)  # fmt: skip

CHARACTER_BY_ID: Final = {c.id: c for c in CHARACTERS}


def character_hp(character: str, mode: str) -> int:
    c = CHARACTER_BY_ID[character]
    return c.old_classic_hp if mode == "old_classic" else c.hp
