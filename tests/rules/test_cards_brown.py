"""Scenario tests for the other brown cards of RULES.md §1: Snatch, Knock Off, Duel, Raid,
Wagon, Caravan, Bazaar and Saloon (reach §4, responses §5)."""

from __future__ import annotations

import pytest

from harness.engine import IllegalAction
from harness.engine.cards import CARD_FACE

from .helpers import events_of, faces, load, play, pos, types
from .setups import hands, shot_targets


# -------------------------------------------------------------------------------------- Snatch
def test_snatch_only_at_distance_1():
    """RULES.md §4: Snatch needs distance ≤ 1."""
    g = load(hands(pos(), s0=["snatch"], s1=["shot"], s2=["shot"], s3=["shot"]))
    assert set(g.pending.option_ids) == {"play:snatch@1/hand", "play:snatch@3/hand", "end"}
    with pytest.raises(IllegalAction):
        g.apply("play:snatch@2/hand")


def test_snatch_ignores_weapon_range_and_marksmanship():
    """RULES.md §4: for Snatch, weapon range and Marksmanship do not apply."""
    d = hands(pos(), s0=["snatch"], s2=["shot"])
    d["seats"][0].update(weapon="long_rifle", upgrades=["marksmanship"])
    g = load(d)
    assert not [o for o in g.pending.option_ids if o.startswith("play:snatch@2")]


def test_snatch_horse_puts_target_out_of_reach():
    """RULES.md §4: a Horse makes its owner 1 farther, so a neighbour with a Horse is at distance 2
    and cannot be Snatched."""
    d = hands(pos(), s0=["snatch"], s1=["shot"])
    d["seats"][1]["in_play"] = ["horse"]
    g = load(d)
    assert not [o for o in g.pending.option_ids if o.startswith("play:snatch@1")]


def test_snatch_scope_brings_target_in_reach():
    """RULES.md §4: a Scope makes others 1 closer, so distance 2 becomes 1 for Snatch."""
    d = hands(pos(), s0=["snatch"], s2=["shot"])
    d["seats"][0]["in_play"] = ["scope"]
    g = load(d)
    assert "play:snatch@2/hand" in g.pending.option_ids


def test_snatch_in_play_card_goes_to_hand():
    """RULES.md §4: Snatch names an in-play card; it goes into your hand."""
    d = hands(pos(), s0=["snatch"])
    d["seats"][1].update(in_play=["cover", "jail"], weapon="rifle")
    g = load(d)
    opts = g.pending.option_ids
    assert {"play:snatch@1/jail", "play:snatch@1/cover", "play:snatch@1/rifle"} <= set(opts)
    assert "play:snatch@1/hand" not in opts  # empty hand
    play(g, "play:snatch@1/cover")
    assert types(g.seats[0].hand) == ["cover"]
    assert types(g.seats[1].in_play) == ["jail"]
    assert types(g.discard) == ["snatch"]


def test_snatch_and_knock_off_may_name_dynamite():
    """RULES.md §4: in-play cards include Jail and Dynamite."""
    d = hands(pos(), s0=["snatch", "knock_off"])
    d["seats"][1]["in_play"] = ["dynamite"]
    g = load(d)
    assert {"play:snatch@1/dynamite", "play:knock_off@1/dynamite"} <= set(g.pending.option_ids)
    play(g, "play:snatch@1/dynamite")
    assert types(g.seats[0].hand) == ["knock_off", "dynamite"]
    assert g.seats[1].in_play == []


def test_snatch_weapon_goes_to_hand():
    """RULES.md §4: Snatch may take the weapon; the victim is back to the Revolver."""
    d = hands(pos(), s0=["snatch"])
    d["seats"][1]["weapon"] = "rifle"
    g = load(d)
    play(g, "play:snatch@1/rifle")
    assert types(g.seats[0].hand) == ["rifle"]
    assert g.seats[1].weapon == -1
    assert g.seats[1].weapon_range == 1


def test_snatch_random_hand_card_goes_to_hand():
    """RULES.md §4: Snatch may take a random card from the target's hand."""
    g = load(hands(pos(), s0=["snatch"], s1=["duel.JS"]))
    play(g, "play:snatch@1/hand")
    assert faces(g.seats[0].hand) == ["duel.JS"]
    assert g.seats[1].hand == []


def test_snatch_builtin_equipment_cannot_be_taken():
    """RULES.md §4: built-in equipment is not a card (Iron Brow's Cover cannot be Snatched)."""
    d = hands(pos(), s0=["snatch"])
    d["seats"][1]["character"] = "iron_brow"
    g = load(d)
    assert g.pending.option_ids == ["end"]


# ----------------------------------------------------------------------------------- Knock Off
def test_knock_off_reaches_any_distance():
    """RULES.md §4: Knock Off reaches anyone (not yourself)."""
    g = load(hands(pos(), s0=["knock_off", "shot"], s1=["shot"], s2=["shot"], s3=["shot"]))
    ko = {o for o in g.pending.option_ids if o.startswith("play:knock_off")}
    assert ko == {"play:knock_off@1/hand", "play:knock_off@2/hand", "play:knock_off@3/hand"}


def test_knock_off_discards_in_play_card():
    """RULES.md §4: Knock Off discards the named in-play card."""
    d = hands(pos(), s0=["knock_off"])
    d["seats"][2]["in_play"] = ["horse"]
    g = load(d)
    play(g, "play:knock_off@2/horse")
    assert g.seats[2].in_play == []
    assert g.seats[0].hand == []
    assert types(g.discard) == ["horse", "knock_off"]


def test_knock_off_discards_random_hand_card():
    """RULES.md §4: Knock Off with "hand" discards a random card of the target's hand."""
    g = load(hands(pos(), s0=["knock_off"], s2=["caravan.3H"]))
    play(g, "play:knock_off@2/hand")
    assert g.seats[2].hand == []
    assert "caravan.3H" in faces(g.discard)
    assert g.seats[0].hand == []


def test_knock_off_weapon():
    """RULES.md §4: Knock Off may name the weapon; it is discarded."""
    d = hands(pos(), s0=["knock_off"])
    d["seats"][2]["weapon"] = "carbine"
    g = load(d)
    play(g, "play:knock_off@2/carbine")
    assert g.seats[2].weapon == -1
    assert "carbine" in types(g.discard)


# ---------------------------------------------------------------------------------------- Duel
def test_duel_target_answers_first():
    """RULES.md §5: in a Duel the target discards a Shot first."""
    g = load(hands(pos(), s0=["duel", "shot"], s2=["shot"]))
    play(g, "play:duel@2")
    assert (g.pending.seat, g.pending.kind) == (2, "respond_duel")
    assert g.pending.option_ids == ["match:shot", "take"]


def test_duel_alternates_and_target_loses():
    """RULES.md §5: Duel alternates target, challenger, …; the first who will not loses 1 ♥,
    dealt by the other duelist."""
    g = load(hands(pos(), s0=["duel", "shot"], s2=["shot", "shot"]))
    play(g, "play:duel@2", "match:shot")
    assert (g.pending.seat, g.pending.kind) == (0, "respond_duel")
    play(g, "match:shot")
    assert (g.pending.seat, g.pending.option_ids) == (2, ["match:shot", "take"])
    play(g, "take")
    assert (g.seats[0].hp, g.seats[2].hp) == (4, 3)
    assert events_of(g, "hit", seat=2, by=0)
    assert types(g.discard) == ["shot", "shot", "duel"]


def test_duel_challenger_loses():
    """RULES.md §5: the challenger who cannot discard a Shot loses 1 ♥, dealt by the target."""
    g = load(hands(pos(), s0=["duel"], s2=["shot"]))
    play(g, "play:duel@2", "match:shot")
    assert (g.pending.seat, g.pending.option_ids) == (0, ["take"])
    play(g, "take")
    assert (g.seats[0].hp, g.seats[2].hp) == (3, 4)
    assert events_of(g, "hit", seat=0, by=2)


def test_duel_any_distance_and_does_not_use_the_shot():
    """RULES.md §3.3/§4: Duel reaches anyone and does not use the Shot."""
    g = load(hands(pos(), s0=["duel", "shot"]))
    assert {"play:duel@1", "play:duel@2", "play:duel@3"} <= set(g.pending.option_ids)
    play(g, "play:duel@2", "take")
    assert g.shots_used == 0
    assert shot_targets(g) == {1, 3}


# ---------------------------------------------------------------------------------------- Raid
def test_raid_every_other_player_in_turn_order():
    """RULES.md §5: Raid — every other player, in turn order, discards a Shot or loses 1 ♥."""
    d = hands(pos(turn=2), s1=["shot"], s2=["raid"], s3=["shot"])
    g = load(d)
    play(g, "play:raid")
    order = []
    for answer in ("match:shot", "take", "take"):
        order.append(g.pending.seat)
        assert g.pending.kind == "respond_raid"
        play(g, answer)
    assert order == [3, 0, 1]
    assert [s.hp for s in g.seats] == [3, 3, 4, 4]
    assert types(g.discard) == ["shot", "raid"]


def test_raid_cover_and_flask_do_not_apply():
    """RULES.md §5: against a Raid, Cover and Flask do not apply (nor a Ricochet)."""
    d = hands(pos(coins=[True, True, True]), s0=["raid"], s1=["flask", "ricochet"])
    d["seats"][1].update(hp=1, in_play=["cover"])
    g = load(d)
    play(g, "play:raid")
    assert (g.pending.seat, g.pending.option_ids) == (1, ["take"])
    assert not events_of(g, "coin")
    play(g, "take")
    assert not g.seats[1].alive


# ---------------------------------------------------------------------- Wagon, Caravan, Bazaar
def test_wagon_draws_two():
    """RULES.md §1 wagon: draw 2."""
    g = load(hands(pos(deck=["duel.JS", "jail.4H", "horse.8H"]), s0=["wagon"]))
    play(g, "play:wagon")
    assert faces(g.seats[0].hand) == ["duel.JS", "jail.4H"]
    assert CARD_FACE[g.deck[-1]] == "horse.8H"
    assert types(g.discard) == ["wagon"]


def test_caravan_draws_three():
    """RULES.md §1 caravan: draw 3."""
    g = load(hands(pos(deck=["duel.JS", "jail.4H", "horse.8H", "scope.AS"]), s0=["caravan"]))
    play(g, "play:caravan")
    assert faces(g.seats[0].hand) == ["duel.JS", "jail.4H", "horse.8H"]
    assert CARD_FACE[g.deck[-1]] == "scope.AS"
    assert types(g.discard) == ["caravan"]


def test_bazaar_every_living_player_in_turn_order_from_you():
    """RULES.md §1 bazaar: every living player draws 1, in turn order starting with you."""
    d = hands(pos(turn=2, deck=["duel.JS", "jail.4H", "horse.8H", "scope.AS"]), s2=["bazaar"])
    d["seats"][0]["hp"] = 0  # eliminated: skipped
    d["seats"][0]["role"] = "raider"
    d["seats"][3]["role"] = "marshal"
    g = load(d)
    play(g, "play:bazaar")
    assert faces(g.seats[2].hand) == ["duel.JS"]
    assert faces(g.seats[3].hand) == ["jail.4H"]
    assert faces(g.seats[1].hand) == ["horse.8H"]
    assert g.seats[0].hand == []
    assert CARD_FACE[g.deck[-1]] == "scope.AS"


# -------------------------------------------------------------------------------------- Saloon
def test_saloon_every_living_player_heals_one():
    """RULES.md §1 saloon: every living player heals 1 ♥ (not above max)."""
    d = hands(pos(), s0=["saloon"])
    for i, hp in enumerate([2, 4, 1, 3]):
        d["seats"][i]["hp"] = hp
    g = load(d)
    play(g, "play:saloon")
    assert [s.hp for s in g.seats] == [3, 4, 2, 4]
    assert types(g.discard) == ["saloon"]
