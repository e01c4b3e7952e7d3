"""Scenario tests for the rulings of RULES.md §12 and the draw rules that the rules documents
state and no other scenario test covers: Instinct in the draw phase only (§7), Three Eyes, Grip
and Red Suit with Instinct (R-12), Old Classic's skipped discard (R-15), Stone Leopard's lethal
Dynamite (R-18)."""

from __future__ import annotations

from harness.engine.cards import CARD_FACE

from .helpers import events_of, faces, load, play, pos, seat, types


def _four(c0: str, **kw) -> dict:
    """4 seats (marshal, raider, raider, loner); seat 0 plays ``c0``; ``s<i>={...}`` overrides."""
    chars = [c0, *[c for c in ("lucky", "two_face", "eagle_eye", "collector") if c != c0][:3]]
    seats = [
        seat(r, c) for r, c in zip(("marshal", "raider", "raider", "loner"), chars, strict=True)
    ]
    for i in range(4):
        seats[i].update(kw.pop(f"s{i}", {}))
    return pos(seats, **kw)


DECK = ["wagon.9S", "duel.JS", "caravan.3H", "bazaar.QS", "horse.8H", "scope.AS"]


def test_instinct_only_in_the_draw_phase_not_for_wagon_caravan_bazaar() -> None:
    """RULES.md §7 (Instinct: "draw-phase deck draws"): Wagon, Caravan and Bazaar draws look at
    no extra card and ask nothing to put back."""
    for card, drawn in (("wagon", 2), ("caravan", 3), ("bazaar", 1)):
        deck = ["duel.JS", "jail.4H", "horse.8H", "scope.AS"]
        g = load(_four("lucky", s0={"hand": [card], "upgrades": ["instinct"]}, deck=deck))
        play(g, f"play:{card}")
        assert (g.pending.seat, g.pending.kind) == (0, "play"), card
        assert faces(g.seats[0].hand) == deck[:drawn], card
        assert not events_of(g, "look")


def test_r12_three_eyes_with_instinct_looks_at_four_keeps_two() -> None:
    """Ruling R-12: Three Eyes with Instinct looks at 4 cards and keeps 2."""
    g = load(_four("three_eyes", phase="draw", s0={"upgrades": ["instinct"]}, deck=list(DECK)))
    assert g.pending.kind == "putback"
    assert g.pending.option_ids == [f"putback:{f}" for f in DECK[:4]]
    play(g, "putback:duel.JS", "putback:bazaar.QS")
    assert faces(g.seats[0].hand) == ["wagon.9S", "caravan.3H"]
    assert g.pending.kind == "play"


def test_r12_grip_with_instinct_looks_at_two_deck_cards_for_one() -> None:
    """Ruling R-12: Grip with Instinct, after taking the first card from a hand, looks at 2 deck
    cards for his one deck draw and keeps 1."""
    g = load(_four("grip", phase="draw", s0={"upgrades": ["instinct"]}, s1={"hand": ["jail"]},
                   deck=list(DECK)))  # fmt: skip
    play(g, "draw:hand@1")
    assert g.pending.kind == "putback"
    assert g.pending.option_ids == ["putback:wagon.9S", "putback:duel.JS"]
    play(g, "putback:wagon.9S")
    assert types(g.seats[0].hand) == ["jail", "duel"]
    assert CARD_FACE[g.deck[-1]] == "wagon.9S"


def test_r12_red_suit_with_instinct_shows_the_second_card_kept() -> None:
    """Ruling R-12: Red Suit's shown card is the second card kept (after the put-back)."""
    g = load(_four("red_suit", phase="draw", s0={"upgrades": ["instinct"]}, deck=list(DECK)))
    play(g, "putback:duel.JS")
    assert events_of(g, "show") == [{"t": "show", "seat": 0, "card": "caravan.3H", "red": True}]


def test_r15_old_classic_failed_jail_skips_the_end_of_turn_discard() -> None:
    """Ruling R-15: in old_classic a failed Jail check skips the whole turn, the end-of-turn
    discard included (a hand above ♥ is kept)."""
    seats = [
        seat("marshal", "red_suit"),
        seat("raider", "grip"),
        seat("raider", "three_eyes"),
        seat("loner", "empty_hands", hp=2, max_hp=4, hand=["duel", "duel", "duel", "raid"],
             in_play=["jail"]),
    ]  # fmt: skip
    g = load(pos(seats, mode="old_classic", turn=3, phase="start", deck=["shot.QD", "horse.8H"]))
    assert events_of(g, "jail", seat=3, free=False)
    assert types(g.seats[3].hand) == ["duel", "duel", "duel", "raid"]
    assert g.turn == 0 and g.pending.seat == 0


def test_r18_stone_leopard_lethal_dynamite_draws_nothing() -> None:
    """Ruling R-18: a Dynamite explosion that brings Stone Leopard to 0 ♥ eliminates him and he
    draws nothing."""
    seats = [
        seat("marshal", "lucky", hp=6),
        seat("raider", "stone_leopard", hp=3, max_hp=3, in_play=["dynamite"]),
        seat("raider", "two_face"),
        seat("loner", "eagle_eye"),
    ]
    g = load(pos(seats, turn=1, phase="start", deck=["ricochet.5S", "caravan", "wagon", "duel"]))
    assert not g.seats[1].alive
    assert not events_of(g, "draw", why="stone_leopard")
