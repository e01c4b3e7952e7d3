"""Ruling R-1: the 80-card deck (RULES.md §1 "Cards")."""

from __future__ import annotations

from collections import Counter

import pytest

from harness.engine import Game
from harness.engine.cards import (
    CARD_FACE,
    CARD_RANK,
    CARD_SUIT,
    CARD_TYPE,
    CARD_TYPES,
    DECK,
    N_CARDS,
    TYPE_BY_ID,
)

# RULES.md §1, Ruling R-1 table, copied verbatim (one physical card per token).
R1_TABLE = {
    "shot": "♠A ♥Q ♥K ♥A ♥2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8 ♦9 ♦10 ♦J ♦Q ♦K ♦A ♠2 ♠3 ♣4 ♣5 ♣6 ♣7 ♣8 ♣9",
    "ricochet": "♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♣10 ♣J ♣Q ♣K ♣A",
    "flask": "♥6 ♥7 ♥8 ♥9 ♥10 ♥J",
    "snatch": "♥J ♥Q ♥A ♦8",
    "knock_off": "♥K ♦9 ♦10 ♦J",
    "duel": "♠J ♦Q ♣8",
    "raid": "♦K ♦A",
    "wagon": "♠9 ♠9",
    "bazaar": "♠Q ♣9",
    "saloon": "♥5",
    "caravan": "♥3",
    "buckshot": "♥10",
    "jail": "♠10 ♠J ♥4",
    "cover": "♠Q ♠K",
    "horse": "♥8 ♥9",
    "scope": "♠A",
    "dynamite": "♥2",
    "volcanic": "♠10 ♣10",
    "sawed_off": "♠K ♣J ♣Q",
    "rifle": "♣K",
    "carbine": "♣A",
    "long_rifle": "♠8",
}
COPIES = {
    "shot": 25, "ricochet": 12, "flask": 6, "snatch": 4, "knock_off": 4, "duel": 3, "raid": 2,
    "wagon": 2, "bazaar": 2, "saloon": 1, "caravan": 1, "buckshot": 1, "jail": 3, "cover": 2,
    "horse": 2, "scope": 1, "dynamite": 1, "volcanic": 2, "sawed_off": 3, "rifle": 1,
    "carbine": 1, "long_rifle": 1,
}  # fmt: skip
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK = {"J": 11, "Q": 12, "K": 13, "A": 14}


def _expected_cards() -> Counter[tuple[str, str, int]]:
    out: Counter[tuple[str, str, int]] = Counter()
    for t, spec in R1_TABLE.items():
        for tok in spec.split():
            r = tok[1:]
            out[(t, SUIT[tok[0]], RANK.get(r) or int(r))] += 1
    return out


def test_deck_has_80_cards():
    """Ruling R-1 / RULES.md §1: the deck has 80 cards."""
    assert N_CARDS == 80
    assert len(DECK) == 80
    assert sum(COPIES.values()) == 80


def test_deck_copies_per_type():
    """Ruling R-1 / RULES.md §1: every card type has its number of copies."""
    assert Counter(CARD_TYPE) == Counter(COPIES)
    assert {t.id: t.copies for t in CARD_TYPES} == COPIES


def test_deck_exactly_21_hearts():
    """Ruling R-1: the deck has exactly 21 ♥ cards."""
    assert sum(1 for s in CARD_SUIT if s == "H") == 21


def test_deck_exactly_12_spades_2_to_9():
    """Ruling R-1: the deck has exactly 12 ♠ cards of rank 2–9 (Dynamite odds)."""
    n = sum(1 for s, r in zip(CARD_SUIT, CARD_RANK, strict=True) if s == "S" and 2 <= r <= 9)
    assert n == 12


def test_deck_one_row_per_physical_card_matches_table():
    """Ruling R-1: the deck is kept as data, one row per physical card, exactly the table's
    suits and ranks."""
    got = Counter((c.type, c.suit, c.rank) for c in DECK)
    assert got == _expected_cards()
    assert [c.index for c in DECK] == list(range(80))


@pytest.mark.parametrize(
    ("face", "original"),
    [("shot.2H", "♦2"), ("shot.2S", "♣2"), ("shot.3S", "♣3")],
)
def test_deck_three_star_changes(face, original):
    """Ruling R-1: the three ★ changes (the original ♦2, ♣2, ♣3 Shots become ♥2, ♠2, ♠3;
    red stays red and black stays black)."""
    assert CARD_FACE.count(face) == 1
    orig_face = f"shot.{original[1:]}{SUIT[original[0]]}"
    assert orig_face not in CARD_FACE
    red = {"H", "D"}
    assert (face[-1] in red) == (SUIT[original[0]] in red)


def test_deck_no_card_of_rank_2_in_diamonds_or_clubs():
    """Ruling R-1: after the ★ changes no ♦2, ♣2 or ♣3 remains in the deck."""
    assert not [
        f for f, s, r in zip(CARD_FACE, CARD_SUIT, CARD_RANK, strict=True)
        if (s, r) in {("D", 2), ("C", 2), ("C", 3)}
    ]  # fmt: skip


def test_new_game_uses_every_physical_card_once():
    """Ruling R-1: a dealt game holds each of the 80 physical cards exactly once."""
    g = Game.new(5, "classic", seed=3)
    cards = list(g.deck) + g.discard + g.resolving + g.looking
    for s in g.seats:
        cards += s.hand + s.in_play + ([s.weapon] if s.weapon >= 0 else [])
    assert sorted(cards) == list(range(80))


def test_weapon_ranges_table():
    """RULES.md §1: weapon ranges Volcanic 1, Sawed-Off 2, Rifle 3, Carbine 4, Long Rifle 5."""
    assert {t: TYPE_BY_ID[t].range for t in TYPE_BY_ID if TYPE_BY_ID[t].kind == "weapon"} == {
        "volcanic": 1, "sawed_off": 2, "rifle": 3, "carbine": 4, "long_rifle": 5,
    }  # fmt: skip
