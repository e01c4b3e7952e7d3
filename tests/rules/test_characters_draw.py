"""Scenario tests for the ♥/hand setup of RULES.md §2 and the draw-phase characters of §1:
Red Suit, Grip, Three Eyes and Vulture Jr."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction, build_view
from harness.engine.cards import CARD_FACE, CARD_TYPE

from .helpers import events_of, load, play
from .setups import CHARACTER_HP, four, hand_faces, hand_types

# RULES.md §1 character table: Old classic ♥ where it differs.
OLD_CLASSIC_HP = {**CHARACTER_HP, "stone_leopard": 4}
# RULES.md §2: the Marshal's ♥ bonus and hand adjustment by seat count.
MARSHAL_BONUS = {4: 2, 5: 0, 6: 2, 7: 1, 8: 1}
MARSHAL_HAND = {4: 0, 5: 0, 6: 2, 7: 1, 8: -1}
MODES = ("classic", "partners", "double_agent", "old_classic")


# ---------------------------------------------------------------------------- setup (§2)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_setup_hp_marshal_bonus_and_hand_adjustment(n: int, mode: str) -> None:
    """RULES.md §2 + Ruling R-2: ♥ max = character ♥ (+ Marshal seat bonus 4:+2 5:+0 6:+2 7:+1
    8:+1; old_classic +1 everywhere); everyone starts at max; starting hand = ♥, Marshal's hand
    adjusted 6:+2 7:+1 8:−1 (old_classic: none)."""
    table = OLD_CLASSIC_HP if mode == "old_classic" else CHARACTER_HP
    for seed in range(25):
        g = Game.new(n, mode, seed)
        deals = {e["seat"]: e["n"] for e in events_of(g, "draw", why="deal")}
        for s in g.seats:
            expected = table[s.character]
            adjust = 0
            if s.role == "marshal":
                expected += 1 if mode == "old_classic" else MARSHAL_BONUS[n]
                adjust = 0 if mode == "old_classic" else MARSHAL_HAND[n]
            assert s.max_hp == expected, (seed, s.index, s.character, s.role)
            assert deals[s.index] == expected + adjust, (seed, s.index, s.role)
        assert all(s.hp == s.max_hp for s in g.seats)
        assert len({s.character for s in g.seats}) == n  # no duplicate characters


# ----------------------------------------------------------------------------- Red Suit
def test_red_suit_second_card_red_draws_one_more_shown_to_all() -> None:
    """RULES.md §1 (Red Suit): the 2nd draw-phase card is shown to all; red (♦) → 1 more."""
    g = load(four("red_suit", "lucky", phase="draw", deck=["shot.4C", "shot.3D", "caravan.3H"]))
    assert hand_faces(g, 0) == ["shot.4C", "shot.3D", "caravan.3H"]
    show = events_of(g, "show", seat=0)
    assert show == [{"t": "show", "seat": 0, "card": "shot.3D", "red": True}]
    other_view = build_view(g, 2)
    assert {"t": "show", "seat": 0, "card": "shot.3D", "red": True} in other_view.events


def test_red_suit_heart_second_card_counts_as_red() -> None:
    """RULES.md §1 (Red Suit): red means ♥ or ♦."""
    g = load(four("red_suit", "lucky", phase="draw", deck=["shot.4C", "shot.QH", "wagon.9S"]))
    assert hand_faces(g, 0) == ["shot.4C", "shot.QH", "wagon.9S"]


def test_red_suit_second_card_black_no_extra() -> None:
    """RULES.md §1 (Red Suit): a black 2nd card gives nothing more (the 1st card's colour does
    not matter)."""
    g = load(four("red_suit", "lucky", phase="draw", deck=["shot.3D", "shot.4C", "caravan.3H"]))
    assert hand_faces(g, 0) == ["shot.3D", "shot.4C"]
    assert events_of(g, "show", seat=0)[0]["red"] is False
    assert CARD_FACE[g.deck[-1]] == "caravan.3H"


# --------------------------------------------------------------------------------- Grip
def test_grip_takes_first_card_from_another_hand_then_one_from_deck() -> None:
    """RULES.md §1 (Grip): `draw:hand@N` takes a random card of N's hand, then 1 from the
    deck; players with empty hands are not offered."""
    d = four(
        "grip",
        "lucky",
        phase="draw",
        s1={"hand": ["wagon"]},
        s3={"hand": ["duel", "bazaar"]},
        deck=["caravan", "saloon"],
    )
    g = load(d)
    assert g.pending.seat == 0 and g.pending.kind == "draw_source"
    assert g.pending.option_ids == ["draw:deck", "draw:hand@1", "draw:hand@3"]
    g.apply("draw:hand@1")
    assert hand_types(g, 0) == ["wagon", "caravan"]
    assert g.seats[1].hand == []
    assert CARD_TYPE[g.deck[-1]] == "saloon"
    assert g.pending.kind == "play"


def test_grip_default_deck_draw_takes_two() -> None:
    """RULES.md §1 (Grip): taking from a hand is optional; `draw:deck` draws 2 as usual."""
    g = load(four("grip", "lucky", phase="draw", s1={"hand": ["wagon"]}, deck=["caravan", "duel"]))
    g.apply("draw:deck")
    assert hand_types(g, 0) == ["caravan", "duel"] and hand_types(g, 1) == ["wagon"]


# --------------------------------------------------------------------------- Three Eyes
def test_three_eyes_looks_at_three_keeps_two_puts_one_back() -> None:
    """RULES.md §1 (Three Eyes) + §9: look at 3, `putback:<face>`, keep 2; the put-back card is
    on top and only his view shows it in `known_deck_top`."""
    g = load(
        four("three_eyes", "lucky", "red_suit", "grip", phase="draw",
             deck=["shot.4C", "wagon.9S", "caravan.3H", "duel.JS"])
    )  # fmt: skip
    assert g.pending.seat == 0 and g.pending.kind == "putback"
    assert g.pending.option_ids == ["putback:shot.4C", "putback:wagon.9S", "putback:caravan.3H"]
    assert build_view(g, 0).looking == ("shot.4C", "wagon.9S", "caravan.3H")
    assert build_view(g, 1).looking == ()
    g.apply("putback:wagon.9S")
    assert hand_faces(g, 0) == ["shot.4C", "caravan.3H"]
    assert CARD_FACE[g.deck[-1]] == "wagon.9S" and CARD_FACE[g.deck[-2]] == "duel.JS"
    assert build_view(g, 0).known_deck_top == ("wagon.9S",)
    assert build_view(g, 1).known_deck_top == ()
    assert g.pending.kind == "play"
    # the next player draws it: the knowledge ends with it
    g.apply("end")
    assert hand_faces(g, 1) == ["wagon.9S", "duel.JS"]
    assert build_view(g, 0).known_deck_top == ()


def test_three_eyes_putback_illegal_face() -> None:
    """RULES.md §1 (Three Eyes): only a looked-at card can be put back."""
    g = load(four("three_eyes", "lucky", phase="draw", deck=["shot.4C", "wagon.9S", "caravan.3H"]))
    with pytest.raises(IllegalAction):
        g.apply("putback:duel.JS")


# --------------------------------------------------------------------------- Vulture Jr.
def test_vulture_takes_discard_top_then_one_from_deck() -> None:
    """RULES.md §1 (Vulture Jr.): `draw:discard` takes the discard top, then 1 from the deck."""
    g = load(four("vulture_jr", "lucky", phase="draw", discard=["wagon.9S", "caravan.3H"],
                  deck=["duel.JS", "bazaar.QS"]))  # fmt: skip
    assert g.pending.option_ids == ["draw:deck", "draw:discard"]
    g.apply("draw:discard")
    assert hand_faces(g, 0) == ["caravan.3H", "duel.JS"]
    assert [CARD_FACE[c] for c in g.discard] == ["wagon.9S"]
    assert CARD_FACE[g.deck[-1]] == "bazaar.QS"


def test_vulture_no_discard_option_when_pile_empty() -> None:
    """RULES.md §1 (Vulture Jr.): there is no discard top to take from an empty pile."""
    g = load(four("vulture_jr", "lucky", phase="draw"))
    assert g.pending.option_ids == ["draw:deck"]


def test_vulture_draws_two_when_anyone_eliminated() -> None:
    """RULES.md §1 (Vulture Jr.) + Ruling R-9 step 4: when anyone is eliminated he draws 2."""
    g = load(four("red_suit", "lucky", "grip", "vulture_jr", s0={"hand": ["shot"]},
                  s1={"hp": 1}, deck=["wagon", "caravan"]))  # fmt: skip
    play(g, "play:shot@1", "take")
    assert not g.seats[1].alive
    assert hand_types(g, 3) == ["wagon", "caravan"]
    assert events_of(g, "draw", seat=3, why="vulture_jr")[0]["n"] == 2
