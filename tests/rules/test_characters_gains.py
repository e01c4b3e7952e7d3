"""Scenario tests for the characters of RULES.md §1 who gain cards or ♥ outside the draw phase:
Stone Leopard, Collector, Bonesetter, Empty Hands and Scavenger."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction

from .helpers import events_of, load, play, pos, seat, types
from .setups import four, hand_faces, hand_types


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
