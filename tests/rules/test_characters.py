"""Scenario tests for the 16 characters of RULES.md §1 and the ♥/hand setup of §2."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction, build_view
from harness.engine.cards import CARD_FACE, CARD_TYPE

from .helpers import events_of, load, play, pos, seat, types

# RULES.md §1 character table (♥; Old classic ♥ in the second entry where it differs).
CHARACTER_HP = {
    "stone_leopard": 3,
    "red_suit": 4,
    "two_face": 4,
    "collector": 3,
    "grip": 4,
    "iron_brow": 4,
    "three_eyes": 4,
    "lucky": 4,
    "pass_shadow": 3,
    "vulture_jr": 4,
    "eagle_eye": 4,
    "bonesetter": 5,
    "double_barrel": 4,
    "empty_hands": 4,
    "scavenger": 4,
    "mad_dog": 4,
}
OLD_CLASSIC_HP = {**CHARACTER_HP, "stone_leopard": 4}
# RULES.md §2: the Marshal's ♥ bonus and hand adjustment by seat count.
MARSHAL_BONUS = {4: 2, 5: 0, 6: 2, 7: 1, 8: 1}
MARSHAL_HAND = {4: 0, 5: 0, 6: 2, 7: 1, 8: -1}
MODES = ("classic", "partners", "double_agent", "old_classic")


def four(c0: str, c1: str, c2: str | None = None, c3: str | None = None, **kw) -> dict:
    """A 4-seat table (marshal, raider, raider, loner) with the given characters (seats 2 and 3
    default to unused plain ones); ``kw`` are per-seat overrides ``s0={...}`` .. ``s3={...}``
    plus top-level position fields.  Everyone is at full ♥ (Marshal +2)."""
    roles = ("marshal", "raider", "raider", "loner")
    spare = [c for c in ("grip", "three_eyes", "red_suit", "two_face") if c not in (c0, c1, c2, c3)]
    chars = (c0, c1, c2 or spare.pop(0), c3 or spare.pop(0))
    seats = []
    for i, (r, c) in enumerate(zip(roles, chars, strict=True)):
        s = seat(r, c, CHARACTER_HP[c] + (2 if r == "marshal" else 0))
        s.update(kw.pop(f"s{i}", {}))
        seats.append(s)
    return pos(seats, **kw)


def hand_types(game: Game, i: int) -> list[str]:
    return types(game.seats[i].hand)


def hand_faces(game: Game, i: int) -> list[str]:
    return [CARD_FACE[c] for c in game.seats[i].hand]


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


# ------------------------------------------------------------------------ Stone Leopard
@pytest.mark.parametrize(("hp", "drawn"), [(5, 1), (4, 1), (3, 2), (2, 2)])
def test_stone_leopard_draws_per_hit_two_if_low(hp: int, drawn: int) -> None:
    """RULES.md §1 (Stone Leopard): per hit taken draw 1; draw 2 instead if ♥ ≤ 2 after it."""
    d = four("stone_leopard", "lucky", turn=1, s0={"hp": hp, "max_hp": 5},
             s1={"hand": ["shot"]}, deck=["caravan", "wagon", "duel"])  # fmt: skip
    g = load(d)
    play(g, "play:shot@0", "take")
    assert g.seats[0].hp == hp - 1
    assert hand_types(g, 0) == ["caravan", "wagon"][:drawn]
    assert events_of(g, "draw", seat=0, why="stone_leopard")[0]["n"] == drawn


def test_stone_leopard_eliminated_draws_nothing() -> None:
    """RULES.md §7: a hit that eliminates him leaves nothing to draw for (the engine applies
    after-hit abilities to survivors only; see the Collector note)."""
    g = load(four("stone_leopard", "lucky", turn=1, s0={"hp": 1}, s1={"hand": ["shot"]}))
    play(g, "play:shot@0", "take")
    assert not events_of(g, "draw", why="stone_leopard")


@pytest.mark.parametrize(("hp", "drawn"), [(6, 1), (5, 2)])
def test_stone_leopard_draws_after_dynamite(hp: int, drawn: int) -> None:
    """RULES.md §1 (Stone Leopard): Dynamite is a hit too — one hit of 3 damage draws 1 card
    (2 if ♥ ≤ 2 after)."""
    d = four(
        "stone_leopard",
        "lucky",
        phase="start",
        s0={"hp": hp, "max_hp": 6, "in_play": ["dynamite"]},
        deck=["ricochet.5S", "caravan", "wagon", "duel", "bazaar"],
    )
    g = load(d)
    assert events_of(g, "hit", seat=0) == [{"t": "hit", "seat": 0, "by": -1, "n": 3, "hp": hp - 3}]
    # the blast draw happens first, then the normal 2-card draw phase
    assert hand_types(g, 0) == ["caravan", "wagon", "duel", "bazaar"][: drawn + 2]
    assert g.pending.seat == 0 and g.pending.kind == "play"


def test_stone_leopard_old_classic_has_4_hp() -> None:
    """RULES.md §1 (Stone Leopard ♥ 3, Old classic: 4) and §2 (old_classic Marshal +1)."""
    found = {"classic": set(), "old_classic": set()}
    for mode in found:
        for seed in range(60):
            g = Game.new(5, mode, seed)
            for s in g.seats:
                if s.character == "stone_leopard":
                    found[mode].add((s.role == "marshal", s.max_hp))
    assert found["classic"] == {(False, 3), (True, 3)}  # 5 seats: Marshal +0
    assert found["old_classic"] == {(False, 4), (True, 5)}


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


# ---------------------------------------------------------------------------- Two-Face
def test_two_face_dodges_shot_with_shot() -> None:
    """RULES.md §1 (Two-Face): a Shot may be played as a Ricochet (`dodge:shot`)."""
    g = load(four("lucky", "two_face", s0={"hand": ["shot"]}, s1={"hand": ["shot"]}))
    g.apply("play:shot@1")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    assert g.pending.option_ids == ["dodge:shot", "take"]
    g.apply("dodge:shot")
    assert g.seats[1].hp == 4 and g.seats[1].hand == []
    assert events_of(g, "miss", seat=1)[0]["how"] == "ricochet"


def test_non_two_face_cannot_dodge_with_shot() -> None:
    """RULES.md §1 (Two-Face) / §5: only Two-Face may answer a Shot with a Shot."""
    g = load(four("lucky", "red_suit", "two_face", s0={"hand": ["shot"]}, s1={"hand": ["shot"]}))
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["take"]
    with pytest.raises(IllegalAction):
        g.apply("dodge:shot")


def test_two_face_dodges_buckshot_with_shot() -> None:
    """RULES.md §5 (Buckshot): each target responds as to a Shot — Two-Face may use a Shot."""
    g = load(four("lucky", "two_face", s0={"hand": ["buckshot"]}, s1={"hand": ["shot"]}))
    g.apply("play:buckshot")
    assert g.pending.seat == 1 and g.pending.option_ids == ["dodge:shot", "take"]


def test_two_face_matches_raid_and_duel_with_ricochet() -> None:
    """RULES.md §5 (Raid, Duel): Two-Face may discard a Ricochet instead of a Shot."""
    g = load(four("lucky", "two_face", s0={"hand": ["raid"]}, s1={"hand": ["ricochet"]}))
    g.apply("play:raid")
    assert g.pending.seat == 1 and g.pending.kind == "respond_raid"
    assert g.pending.option_ids == ["match:ricochet", "take"]
    g.apply("match:ricochet")
    assert g.seats[1].hp == 4 and g.seats[1].hand == []

    g = load(four("lucky", "two_face", s0={"hand": ["duel", "shot"]}, s1={"hand": ["ricochet"]}))
    g.apply("play:duel@1")
    assert g.pending.seat == 1 and "match:ricochet" in g.pending.option_ids
    g.apply("match:ricochet")
    assert g.pending.seat == 0 and g.pending.kind == "respond_duel"


def test_two_face_ricochet_as_shot_uses_shot_limit() -> None:
    """RULES.md §1 (Two-Face) + §3.3: `play:ricochet@N` is a Shot and uses the one-Shot limit."""
    g = load(four("two_face", "lucky", s0={"hand": ["shot", "ricochet"]}))
    assert "play:ricochet@1" in g.pending.option_ids
    assert "play:ricochet@2" not in g.pending.option_ids  # distance 2 > Revolver range
    g.apply("play:ricochet@1")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    g.apply("take")
    assert g.seats[1].hp == 3
    assert g.shots_used == 1
    assert g.pending.option_ids == ["end"]  # the Shot in hand may no longer be played
    with pytest.raises(IllegalAction):
        g.apply("play:shot@1")


def test_two_face_shot_then_ricochet_blocked() -> None:
    """RULES.md §3.3: after a Shot, Two-Face's Ricochet-as-Shot is not legal either."""
    g = load(four("two_face", "lucky", s0={"hand": ["ricochet", "shot"]}))
    play(g, "play:shot@1", "take")
    assert not any(a.startswith("play:ricochet") for a in g.pending.option_ids)


def test_non_two_face_cannot_play_ricochet() -> None:
    """RULES.md §1 (Ricochet is a reaction): only Two-Face may play it as a Shot."""
    g = load(four("lucky", "red_suit", s0={"hand": ["ricochet"]}))
    assert g.pending.option_ids == ["end"]


# ---------------------------------------------------------------------------- Collector
def test_collector_takes_card_from_shooter() -> None:
    """RULES.md §1 (Collector) / §7: damaged by a player → takes a random card of his hand."""
    g = load(four("lucky", "collector", s0={"hand": ["shot", "wagon", "caravan"]}))
    play(g, "play:shot@1", "take")
    assert g.seats[1].hp == 2
    assert len(g.seats[1].hand) == 1 and hand_types(g, 1)[0] in ("wagon", "caravan")
    assert len(g.seats[0].hand) == 1
    assert sorted(hand_types(g, 0) + hand_types(g, 1)) == ["caravan", "wagon"]
    assert events_of(g, "collect", seat=1, **{"from": 0})


def test_collector_eliminated_takes_nothing() -> None:
    """RULES.md §7 lists "After a hit: … Collector takes …" before "At 0 ♥ the player is
    eliminated"; whether an eliminated Collector still takes is not spelled out. The engine
    (like the original game) applies after-hit abilities only to a survivor."""
    g = load(four("lucky", "collector", s0={"hand": ["shot", "wagon"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take")
    assert not g.seats[1].alive
    assert hand_types(g, 0) == ["wagon"]
    assert not events_of(g, "collect")


def test_collector_damaged_in_duel_takes_from_other_duelist() -> None:
    """RULES.md §7: the Duel's damage comes from the other duelist, so Collector takes from him."""
    g = load(four("collector", "lucky", s0={"hand": ["duel"]}, s1={"hand": ["shot", "wagon"]}))
    play(g, "play:duel@1", "match:shot")
    assert g.pending.seat == 0 and g.pending.kind == "respond_duel"
    g.apply("take")
    assert g.seats[0].hp == 4
    assert hand_types(g, 0) == ["wagon"] and g.seats[1].hand == []


def test_collector_not_from_dynamite() -> None:
    """RULES.md §1 (Collector) / §7: Dynamite has no source, so nothing is taken."""
    d = four(
        "collector",
        "lucky",
        phase="start",
        s0={"in_play": ["dynamite"]},
        s1={"hand": ["wagon", "caravan"]},
        s2={"hand": ["duel"]},
        s3={"hand": ["bazaar"]},
        deck=["ricochet.5S", "shot.4C", "shot.5C"],
    )
    g = load(d)
    assert g.seats[0].hp == 2
    assert not events_of(g, "collect")
    assert hand_faces(g, 0) == ["shot.4C", "shot.5C"]
    assert [len(g.seats[i].hand) for i in (1, 2, 3)] == [2, 1, 1]


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


# ---------------------------------------------------------------------------- Iron Brow
def test_iron_brow_has_builtin_cover() -> None:
    """RULES.md §1 (Iron Brow): always has Cover — a successful coin cancels the Shot."""
    g = load(four("lucky", "iron_brow", s0={"hand": ["shot"]}, coins=[True]))
    g.apply("play:shot@1")
    assert g.seats[1].hp == 4
    assert events_of(g, "miss", seat=1)[0]["how"] == "cover"
    assert g.pending.seat == 0 and g.pending.kind == "play"


def test_iron_brow_failed_cover_lets_him_respond() -> None:
    """RULES.md §5: a failed Cover check leaves the usual responses."""
    g = load(four("lucky", "iron_brow", s0={"hand": ["shot"]}, coins=[False]))
    g.apply("play:shot@1")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    assert len(events_of(g, "coin", seat=1)) == 1


def test_iron_brow_cover_card_adds_no_second_check() -> None:
    """RULES.md §1 (Iron Brow) + Ruling R-6: a Cover card adds no second check."""
    g = load(
        four(
            "lucky",
            "iron_brow",
            s0={"hand": ["shot"]},
            s1={"in_play": ["cover"]},
            coins=[False, True],
        )
    )
    g.apply("play:shot@1")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    assert len(events_of(g, "coin", seat=1)) == 1
    assert list(g.coins) == [True]


def test_iron_brow_may_still_play_cover() -> None:
    """Ruling R-6: a player may still play a card his built-in already gives."""
    g = load(four("iron_brow", "lucky", s0={"hand": ["cover"]}))
    assert "play:cover" in g.pending.option_ids


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


# -------------------------------------------------------------------------------- Lucky
def test_lucky_jail_second_try_frees() -> None:
    """RULES.md §6 (Lucky): two tries at the Jail check; one ♥ is enough."""
    d = four("red_suit", "lucky", "grip", phase="start", turn=1,
             s1={"in_play": ["jail"]}, deck=["shot.4C", "shot.QH", "wagon", "caravan"])  # fmt: skip
    g = load(d)
    assert [e["card"] for e in events_of(g, "check", seat=1)] == ["shot.4C", "shot.QH"]
    assert events_of(g, "jail", seat=1)[0]["free"] is True
    assert g.pending.seat == 1 and g.pending.kind == "play"
    assert hand_types(g, 1) == ["wagon", "caravan"]


def test_lucky_jail_both_fail() -> None:
    """RULES.md §6: both tries fail → draw but play nothing; the turn passes on."""
    d = four("red_suit", "lucky", "grip", phase="start", turn=1,
             s1={"in_play": ["jail"]}, deck=["shot.4C", "shot.5C", "wagon", "caravan"])  # fmt: skip
    g = load(d)
    assert events_of(g, "jail", seat=1)[0]["free"] is False
    assert hand_types(g, 1) == ["wagon", "caravan"]
    assert g.turn == 2 and g.pending.seat == 2


def test_non_lucky_jail_single_try() -> None:
    """RULES.md §6: without Lucky only one card is revealed (control for the Lucky test)."""
    d = four("lucky", "red_suit", "grip", phase="start", turn=1,
             s1={"in_play": ["jail"]}, deck=["shot.4C", "shot.QH", "wagon", "caravan"])  # fmt: skip
    g = load(d)
    assert len(events_of(g, "check", seat=1)) == 1
    assert events_of(g, "jail", seat=1)[0]["free"] is False


def test_lucky_dynamite_one_safe_try_is_enough() -> None:
    """RULES.md §6 (Lucky): two tries at the Dynamite check; one safe card avoids the blast."""
    d = four("lucky", "red_suit", phase="start", s0={"in_play": ["dynamite"]},
             deck=["ricochet.5S", "shot.4C"])  # fmt: skip
    g = load(d)
    assert g.seats[0].hp == 6
    assert types(g.seats[1].in_play) == ["dynamite"]

    d["deck"] = ["ricochet.5S", "ricochet.6S"]
    g = load(d)
    assert g.seats[0].hp == 3
    assert g.seats[1].in_play == []


@pytest.mark.parametrize(("coins", "blocked"), [([False, True], True), ([False, False], False)])
def test_lucky_cover_two_tries(coins: list[bool], blocked: bool) -> None:
    """RULES.md §5/§6 (Lucky): the Cover check is tried twice (75 %)."""
    g = load(
        four("red_suit", "lucky", s0={"hand": ["shot"]}, s1={"in_play": ["cover"]}, coins=coins)
    )
    g.apply("play:shot@1")
    assert len(events_of(g, "coin", seat=1)) == 2
    if blocked:
        assert g.pending.seat == 0 and g.seats[1].hp == 4
    else:
        assert g.pending.seat == 1 and g.pending.kind == "respond_shot"


# -------------------------------------------------------------------------- Pass Shadow
def test_pass_shadow_seen_two_farther_horse_does_not_stack() -> None:
    """RULES.md §1/§4 (Pass Shadow) + Ruling R-6: others see him 2 farther; a Horse adds nothing."""
    g = load(four("red_suit", "pass_shadow", s0={"hand": ["shot"], "weapon": "sawed_off"}))
    assert g.distance(0, 1) == 3 and g.distance(1, 0) == 1
    assert build_view(g, 0).seats[1].distance == 3
    assert "play:shot@1" not in g.pending.option_ids  # range 2 < 3
    g = load(four("red_suit", "pass_shadow", s0={"hand": ["shot"], "weapon": "rifle"},
                  s1={"in_play": ["horse"]}))  # fmt: skip
    assert g.distance(0, 1) == 3
    assert "play:shot@1" in g.pending.option_ids  # range 3


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


# ---------------------------------------------------------------------------- Eagle Eye
def test_eagle_eye_builtin_scope() -> None:
    """RULES.md §1/§4 (Eagle Eye): built-in Scope — a player at distance 2 is within Revolver
    range."""
    g = load(four("eagle_eye", "lucky", s0={"hand": ["shot"]}))
    assert g.distance(0, 2) == 1
    assert "play:shot@2" in g.pending.option_ids
    g = load(four("red_suit", "lucky", "eagle_eye", s0={"hand": ["shot"]}))
    assert g.distance(0, 2) == 2
    assert "play:shot@2" not in g.pending.option_ids


def test_eagle_eye_scope_card_does_not_stack() -> None:
    """Ruling R-6: Eagle Eye + Scope is still −1 (6 seats: distance 3 → 2, not 1)."""
    roles = ("marshal", "raider", "raider", "raider", "deputy", "loner")
    chars = ("eagle_eye", "lucky", "red_suit", "grip", "three_eyes", "two_face")
    seats = [seat(r, c) for r, c in zip(roles, chars, strict=True)]
    seats[0]["in_play"] = ["scope"]
    g = load(pos(seats))
    assert g.distance(0, 3) == 2
    assert g.distance(0, 1) == 1


# --------------------------------------------------------------------------- Bonesetter
def test_bonesetter_heal_in_play_phase() -> None:
    """RULES.md §1/§5 (Bonesetter): `heal:a+b` discards 2 cards for +1 ♥ in his play phase."""
    g = load(
        four("bonesetter", "lucky", s0={"hp": 3, "max_hp": 7, "hand": ["shot", "wagon", "duel"]})
    )
    heals = [a for a in g.pending.option_ids if a.startswith("heal:")]
    assert heals == ["heal:shot+duel", "heal:shot+wagon", "heal:duel+wagon"]
    g.apply("heal:shot+wagon")
    assert g.seats[0].hp == 4
    assert hand_types(g, 0) == ["duel"]
    assert sorted(types(g.discard)) == ["shot", "wagon"]
    assert g.pending.kind == "play"


def test_bonesetter_no_heal_at_max_or_with_one_card() -> None:
    """RULES.md §5 (Bonesetter): not above max; needs 2 cards to discard."""
    g = load(four("bonesetter", "lucky", s0={"hp": 7, "max_hp": 7, "hand": ["shot", "wagon"]}))
    assert not any(a.startswith("heal:") for a in g.pending.option_ids)
    with pytest.raises(IllegalAction):
        g.apply("heal:shot+wagon")
    g = load(four("bonesetter", "lucky", s0={"hp": 3, "max_hp": 7, "hand": ["wagon"]}))
    assert not any(a.startswith("heal:") for a in g.pending.option_ids)


def test_bonesetter_no_heal_in_high_noon() -> None:
    """RULES.md §3 (High Noon) + Ruling R-4: Bonesetter's heal is not legal in High Noon."""
    d = four("bonesetter", "lucky", round=8, s0={"hp": 3, "max_hp": 7, "hand": ["shot", "wagon"]})
    g = load(d)
    assert not any(a.startswith("heal:") for a in g.pending.option_ids)
    d["round"] = 7
    assert "heal:shot+wagon" in load(d).pending.option_ids


def test_bonesetter_heal_while_responding_to_shot() -> None:
    """RULES.md §5 (Bonesetter): at a response decision he may heal first, then answer again."""
    g = load(four("lucky", "bonesetter", s0={"hand": ["shot"]},
                  s1={"hp": 1, "max_hp": 5, "hand": ["wagon", "duel"]}))  # fmt: skip
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["heal:duel+wagon", "take"]
    g.apply("heal:duel+wagon")
    assert g.seats[1].hp == 2
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    g.apply("take")
    assert g.seats[1].hp == 1 and g.seats[1].alive


def test_bonesetter_heal_in_raid_and_duel_responses() -> None:
    """RULES.md §5 (Bonesetter): every response decision, Raid and Duel included."""
    g = load(four("lucky", "bonesetter", s0={"hand": ["raid"]},
                  s1={"hp": 2, "max_hp": 5, "hand": ["wagon", "duel"]}))  # fmt: skip
    g.apply("play:raid")
    assert g.pending.seat == 1 and "heal:duel+wagon" in g.pending.option_ids
    g = load(four("lucky", "bonesetter", s0={"hand": ["duel"]},
                  s1={"hp": 2, "max_hp": 5, "hand": ["wagon", "caravan"]}))  # fmt: skip
    g.apply("play:duel@1")
    assert g.pending.seat == 1 and "heal:wagon+caravan" in g.pending.option_ids


def test_bonesetter_heal_in_discard_phase() -> None:
    """RULES.md §5 (Bonesetter): his discard phase is one of his decisions."""
    g = load(four("bonesetter", "lucky", s0={"hp": 1, "max_hp": 7,
                                             "hand": ["wagon", "duel", "caravan"]}))  # fmt: skip
    g.apply("end")
    assert g.pending.seat == 0 and g.pending.kind == "discard"
    assert "heal:duel+wagon" in g.pending.option_ids
    g.apply("heal:duel+wagon")
    assert g.seats[0].hp == 2
    assert hand_types(g, 0) == ["caravan"]
    assert g.turn == 1  # 1 card ≤ 2 ♥: no more discarding


# ------------------------------------------------------------------------ Double Barrel
def test_double_barrel_distance_1_needs_two_ricochets() -> None:
    """RULES.md §5 (Double Barrel) + Ruling R-7: at distance 1 his Shot needs 2 Ricochets,
    discarded together as one decision."""
    g = load(four("double_barrel", "lucky", s0={"hand": ["shot"]}, s1={"hand": ["ricochet"]}))
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["take"]
    g = load(four("double_barrel", "lucky", s0={"hand": ["shot"]},
                  s1={"hand": ["ricochet", "ricochet"]}))  # fmt: skip
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["dodge:ricochet+ricochet", "take"]
    g.apply("dodge:ricochet+ricochet")
    assert g.seats[1].hp == 4 and g.seats[1].hand == []
    assert types(g.discard).count("ricochet") == 2


def test_double_barrel_distance_2_needs_one_ricochet() -> None:
    """RULES.md §5 (Double Barrel): only at distance 1 does his Shot need 2 Ricochets."""
    g = load(four("double_barrel", "lucky", "red_suit",
                  s0={"hand": ["shot"], "weapon": "sawed_off"}, s2={"hand": ["ricochet"]}))  # fmt: skip
    g.apply("play:shot@2")
    assert g.pending.seat == 2 and g.pending.option_ids == ["dodge:ricochet", "take"]


def test_double_barrel_buckshot_needs_one_ricochet() -> None:
    """RULES.md §5: Buckshot is not a Shot for Double Barrel — one Ricochet cancels it."""
    g = load(four("double_barrel", "lucky", s0={"hand": ["buckshot"]}, s1={"hand": ["ricochet"]}))
    g.apply("play:buckshot")
    assert g.pending.seat == 1 and g.pending.option_ids == ["dodge:ricochet", "take"]


def test_double_barrel_cover_counts_as_one() -> None:
    """RULES.md §5 (Double Barrel): a successful Cover check counts as one cancellation."""
    g = load(four("double_barrel", "lucky", s0={"hand": ["shot"]},
                  s1={"hand": ["ricochet"], "in_play": ["cover"]}, coins=[True]))  # fmt: skip
    g.apply("play:shot@1")
    assert g.pending.seat == 1 and g.pending.option_ids == ["dodge:ricochet", "take"]


def test_double_barrel_two_face_and_flask() -> None:
    """RULES.md §5 + Ruling R-7: Two-Face may use Shots as Ricochets; a Flask (1 ♥, 3+ alive)
    cancels the hit on its own."""
    g = load(four("double_barrel", "two_face", s0={"hand": ["shot"]},
                  s1={"hand": ["ricochet", "shot"]}))  # fmt: skip
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["dodge:ricochet+shot", "take"]
    g = load(four("double_barrel", "lucky", s0={"hand": ["shot"]},
                  s1={"hp": 1, "hand": ["ricochet", "flask"]}))  # fmt: skip
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["flask", "take"]
    g.apply("flask")
    assert g.seats[1].hp == 1 and hand_types(g, 1) == ["ricochet"]


# -------------------------------------------------------------------------- Empty Hands
def test_empty_hands_draws_when_last_card_played() -> None:
    """RULES.md §1 (Empty Hands): when his hand becomes empty he draws 1 at once."""
    g = load(four("empty_hands", "lucky", s0={"hand": ["horse"]}, deck=["wagon.9S", "duel"]))
    g.apply("play:horse")
    assert hand_faces(g, 0) == ["wagon.9S"]
    assert events_of(g, "draw", seat=0, why="empty_hands")[0]["n"] == 1


def test_empty_hands_draws_at_once_before_shot_resolves() -> None:
    """RULES.md §1 (Empty Hands): "at once" — before the target of his last card answers."""
    g = load(four("empty_hands", "lucky", s0={"hand": ["shot"]}, deck=["wagon.9S"]))
    g.apply("play:shot@1")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    assert hand_faces(g, 0) == ["wagon.9S"]


def test_empty_hands_draws_after_dodge_and_after_snatch() -> None:
    """RULES.md §1 (Empty Hands): any way the hand becomes empty — a Ricochet, a Snatch."""
    g = load(four("lucky", "empty_hands", s0={"hand": ["shot"]}, s1={"hand": ["ricochet"]},
                  deck=["wagon.9S"]))  # fmt: skip
    play(g, "play:shot@1", "dodge:ricochet")
    assert hand_faces(g, 1) == ["wagon.9S"]
    g = load(four("lucky", "empty_hands", s0={"hand": ["snatch"]}, s1={"hand": ["duel"]},
                  deck=["wagon.9S"]))  # fmt: skip
    g.apply("play:snatch@1/hand")
    assert hand_types(g, 0) == ["duel"]
    assert hand_faces(g, 1) == ["wagon.9S"]


def test_empty_hands_no_draw_while_cards_remain() -> None:
    """RULES.md §1 (Empty Hands): only an empty hand triggers the draw."""
    g = load(four("empty_hands", "lucky", s0={"hand": ["horse", "duel"]}, deck=["wagon.9S"]))
    g.apply("play:horse")
    assert hand_types(g, 0) == ["duel"]
    assert not events_of(g, "draw", seat=0, why="empty_hands")


def test_empty_hands_marshal_penalty_empties_hand() -> None:
    """RULES.md §1 (Empty Hands) + Ruling R-9 step 5: the penalty discard empties the Marshal's
    hand; as Empty Hands he draws 1 at once."""
    roles = ("marshal", "deputy", "raider", "loner", "raider")
    chars = ("empty_hands", "lucky", "red_suit", "grip", "three_eyes")
    seats = [seat(r, c) for r, c in zip(roles, chars, strict=True)]
    seats[0]["hand"] = ["shot", "wagon"]
    seats[1]["hp"] = 1
    g = load(pos(seats, deck=["caravan.3H", "duel.JS"]))
    play(g, "play:shot@1", "take")
    assert not g.seats[1].alive
    assert events_of(g, "penalty", seat=0)
    assert hand_faces(g, 0) == ["caravan.3H"]


# ---------------------------------------------------------------------------- Scavenger
def test_scavenger_takes_hand_and_in_play_of_eliminated() -> None:
    """RULES.md §1 (Scavenger) + Ruling R-9 step 3: a living Scavenger takes the victim's hand
    and in-play cards (weapon included); nothing goes to the discard pile."""
    g = load(four("red_suit", "lucky", "grip", "scavenger", s0={"hand": ["shot"], "weapon": "rifle"},
                  s1={"hp": 1, "hand": ["wagon", "caravan"], "in_play": ["horse"],
                      "weapon": "carbine"}))  # fmt: skip
    play(g, "play:shot@1", "take")
    assert not g.seats[1].alive
    assert sorted(hand_types(g, 3)) == ["caravan", "carbine", "horse", "wagon"]
    assert g.seats[1].hand == [] and g.seats[1].in_play == [] and g.seats[1].weapon == -1
    assert not {"wagon", "caravan", "horse", "carbine"} & set(types(g.discard))


def test_without_scavenger_victim_cards_are_discarded() -> None:
    """Ruling R-9 step 3 (control): with no Scavenger the victim's cards go to the discard."""
    g = load(four("red_suit", "lucky", "grip", "three_eyes", s0={"hand": ["shot"], "weapon": "rifle"},
                  s1={"hp": 1, "hand": ["wagon"], "in_play": ["horse"]}))  # fmt: skip
    play(g, "play:shot@1", "take")
    assert {"horse", "wagon"} <= set(types(g.discard))


# ------------------------------------------------------------------------------ Mad Dog
def test_mad_dog_unlimited_shots() -> None:
    """RULES.md §1/§3.3 (Mad Dog): unlimited Shots per turn."""
    g = load(four("mad_dog", "lucky", s0={"hand": ["shot", "shot", "shot"]}))
    play(g, "play:shot@1", "take", "play:shot@1", "take")
    assert g.seats[1].hp == 2
    assert "play:shot@1" in g.pending.option_ids


def test_shot_limit_control_without_mad_dog() -> None:
    """RULES.md §3.3 (control): a player without Mad Dog/Volcanic plays one Shot per turn."""
    g = load(four("red_suit", "lucky", s0={"hand": ["shot", "shot"]}))
    play(g, "play:shot@1", "take")
    assert not any(a.startswith("play:shot") for a in g.pending.option_ids)


def test_mad_dog_builtin_scope() -> None:
    """RULES.md §1 (Mad Dog): built-in Scope — distance 2 becomes 1."""
    g = load(four("mad_dog", "lucky", s0={"hand": ["shot"]}))
    assert g.distance(0, 2) == 1
    assert "play:shot@2" in g.pending.option_ids
