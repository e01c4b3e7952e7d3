"""Scenario tests for every card of RULES.md §1, distance and range (§4) and the deck rules (§3)."""

from __future__ import annotations

import pytest

from harness.engine import IllegalAction
from harness.engine.cards import CARD_FACE, CARD_TYPE

from .helpers import events_of, faces, load, play, pos, seat, types, unnamed_cards, weapon_type


def hands(d: dict, **by_seat: list[str]) -> dict:
    """Set hands: ``hands(d, s0=[...], s2=[...])``."""
    for k, v in by_seat.items():
        d["seats"][int(k[1:])]["hand"] = v
    return d


def shot_targets(game, card: str = "shot") -> set[int]:
    return {int(o.split("@")[1]) for o in game.pending.option_ids if o.startswith(f"play:{card}@")}


def eight_seats(**seat0) -> dict:
    """8 seats; seat 0 is the Marshal, seat 4 sits opposite."""
    chars = ["red_suit", "grip", "three_eyes", "vulture_jr", "collector", "empty_hands",
             "scavenger", "bonesetter"]  # fmt: skip
    roles = ["marshal", "deputy", "raider", "raider", "loner", "deputy", "raider", "loner"]
    seats = [seat(r, c) for r, c in zip(roles, chars, strict=True)]
    seats[0].update(seat0)
    return pos(seats)


# --------------------------------------------------------------------------------------- Shot
def test_shot_deals_one_damage_to_target():
    """RULES.md §1 shot: 1 damage to a player within weapon range."""
    g = load(hands(pos(), s0=["shot"]))
    play(g, "play:shot@1")
    assert (g.pending.seat, g.pending.kind, g.pending.option_ids) == (1, "respond_shot", ["take"])
    play(g, "take")
    assert g.seats[1].hp == 3
    assert events_of(g, "hit", seat=1, by=0, n=1)
    assert CARD_TYPE[g.discard[-1]] == "shot"
    assert (g.pending.seat, g.pending.kind) == (0, "play")


def test_shot_revolver_reaches_only_distance_1():
    """RULES.md §1/§4: no weapon = Revolver, range 1; the player at distance 2 is out of range."""
    g = load(hands(pos(), s0=["shot"]))
    assert shot_targets(g) == {1, 3}
    with pytest.raises(IllegalAction):
        g.apply("play:shot@2")


def test_shot_never_at_yourself():
    """RULES.md §4: Shot targets another living player, never yourself."""
    g = load(hands(pos(), s0=["shot"], s1=[]))
    assert "play:shot@0" not in g.pending.option_ids
    with pytest.raises(IllegalAction):
        g.apply("play:shot@0")


def test_shot_never_at_eliminated_player():
    """RULES.md §4: Shot targets another *living* player (distance counts only the living)."""
    d = hands(pos(), s0=["shot"])
    d["seats"][1]["hp"] = 0
    g = load(d)
    assert shot_targets(g) == {2, 3}


def test_shot_once_per_turn():
    """RULES.md §3.3: at most one Shot per turn."""
    g = load(hands(pos(), s0=["shot", "shot"]))
    play(g, "play:shot@1", "take")
    assert g.shots_used == 1
    assert not shot_targets(g)
    with pytest.raises(IllegalAction):
        g.apply("play:shot@3")


def test_shot_limit_counts_cancelled_shot():
    """RULES.md §3.3: a Shot that was cancelled by a Ricochet was still played (limit used)."""
    g = load(hands(pos(), s0=["shot", "shot"], s1=["ricochet"]))
    play(g, "play:shot@1", "dodge:ricochet")
    assert not shot_targets(g)


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ({"weapon": "volcanic"}, "Volcanic"),
        ({"character": "mad_dog"}, "Mad Dog"),
        ({"round": 8}, "High Noon"),
    ],
)
def test_shot_unlimited_with_volcanic_mad_dog_high_noon(setup, why):
    """RULES.md §3.3: unlimited Shots with Volcanic equipped, for Mad Dog, or in High Noon."""
    d = hands(pos(), s0=["shot", "shot", "shot"])
    if "round" in setup:
        d["round"] = setup["round"]
    else:
        d["seats"][0].update(setup)
    g = load(d)
    play(g, "play:shot@1", "take", "play:shot@1", "take", "play:shot@3", "take")
    assert (g.seats[1].hp, g.seats[3].hp) == (2, 3), why
    assert g.shots_used == 3


def test_shot_limit_back_with_no_exception():
    """RULES.md §3.3: without Volcanic/Mad Dog/High Noon (round 7 is not High Noon) one Shot."""
    d = hands(pos(round=7), s0=["shot", "shot"])
    g = load(d)
    play(g, "play:shot@1", "take")
    assert not shot_targets(g)


# ----------------------------------------------------------------------------------- Ricochet
def test_ricochet_cancels_shot():
    """RULES.md §5: discarding a Ricochet cancels a Shot aimed at you."""
    g = load(hands(pos(), s0=["shot"], s1=["ricochet"]))
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["dodge:ricochet", "take"]
    play(g, "dodge:ricochet")
    assert g.seats[1].hp == 4
    assert g.seats[1].hand == []
    assert sorted(types(g.discard)) == ["ricochet", "shot"]
    assert events_of(g, "miss", seat=1, by=0, how="ricochet")


def test_ricochet_cancels_buckshot_hit():
    """RULES.md §1 ricochet / §5: a Ricochet cancels a Buckshot hit aimed at you."""
    g = load(hands(pos(), s0=["buckshot"], s1=["ricochet"]))
    play(g, "play:buckshot")
    assert (g.pending.seat, g.pending.option_ids) == (1, ["dodge:ricochet", "take"])
    play(g, "dodge:ricochet", "take", "take")
    assert [s.hp for s in g.seats] == [4, 4, 3, 3]


def test_ricochet_not_playable_on_own_turn():
    """RULES.md §1: Ricochet is a reaction only (except Two-Face); no play option for it."""
    g = load(hands(pos(), s0=["ricochet"]))
    assert g.pending.option_ids == ["end"]


# -------------------------------------------------------------------------------------- Flask
def test_flask_own_turn_heals_one():
    """RULES.md §5: Flask on your own turn: +1 ♥."""
    d = hands(pos(), s0=["flask"])
    d["seats"][0]["hp"] = 2
    g = load(d)
    play(g, "play:flask")
    assert g.seats[0].hp == 3
    assert CARD_TYPE[g.discard[-1]] == "flask"


def test_flask_own_turn_not_above_max():
    """RULES.md §5: Flask heals +1 ♥, not above max (3/4 → 4/4, then no longer legal)."""
    d = hands(pos(), s0=["flask", "flask"])
    d["seats"][0]["hp"] = 3
    g = load(d)
    play(g, "play:flask")
    assert (g.seats[0].hp, g.seats[0].max_hp) == (4, 4)
    assert "play:flask" not in g.pending.option_ids


def test_flask_not_legal_at_full_hp():
    """Ruling R-8: Flask is not legal at full ♥."""
    g = load(hands(pos(), s0=["flask"]))
    assert "play:flask" not in g.pending.option_ids
    with pytest.raises(IllegalAction):
        g.apply("play:flask")


def test_flask_response_at_one_hp_cancels_and_stays_at_one():
    """RULES.md §5: at exactly 1 ♥ with 3+ players alive, a Flask cancels a Shot; you stay at 1."""
    d = hands(pos(), s0=["shot"], s1=["flask"])
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["flask", "take"]
    play(g, "flask")
    assert g.seats[1].hp == 1
    assert g.seats[1].alive
    assert events_of(g, "miss", seat=1, how="flask")
    assert sorted(types(g.discard)) == ["flask", "shot"]


def test_flask_response_not_at_two_hp():
    """RULES.md §5: the Flask response is only legal at exactly 1 ♥."""
    d = hands(pos(), s0=["shot"], s1=["flask"])
    d["seats"][1]["hp"] = 2
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["take"]


def test_flask_response_not_with_two_alive():
    """RULES.md §5: the Flask response needs 3 or more players alive."""
    d = hands(pos(), s0=["shot"], s1=["flask"])
    d["seats"][1]["hp"] = 1
    d["seats"][2]["hp"] = 0
    d["seats"][3]["hp"] = 0
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["take"]
    with pytest.raises(IllegalAction):
        g.apply("flask")


def test_flask_response_against_buckshot():
    """RULES.md §5: Buckshot is answered as a Shot, Flask at 1 ♥ included."""
    d = hands(pos(), s0=["buckshot"], s2=["flask"])
    d["seats"][2]["hp"] = 1
    g = load(d)
    play(g, "play:buckshot", "take")
    assert (g.pending.seat, g.pending.option_ids) == (2, ["flask", "take"])
    play(g, "flask", "take")
    assert [s.hp for s in g.seats] == [4, 3, 1, 3]


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


# ------------------------------------------------------------------------------------ Buckshot
def test_buckshot_hits_every_other_player_in_turn_order():
    """RULES.md §5: Buckshot — every other player, in turn order from the attacker, responds."""
    g = load(hands(pos(turn=1), s1=["buckshot"]))
    play(g, "play:buckshot")
    order = []
    while g.pending.kind == "respond_shot":
        order.append(g.pending.seat)
        play(g, "take")
    assert order == [2, 3, 0]
    assert [s.hp for s in g.seats] == [3, 4, 3, 3]
    assert all(e["by"] == 1 for e in events_of(g, "hit"))


def test_buckshot_cover_check_per_hit():
    """RULES.md §5: Buckshot is answered as a Shot: a Cover check cancels that one hit."""
    d = hands(pos(coins=[True]), s0=["buckshot"])
    d["seats"][2]["in_play"] = ["cover"]
    g = load(d)
    play(g, "play:buckshot", "take")  # seat 1
    assert g.pending.seat == 3  # seat 2 covered automatically
    play(g, "take")
    assert [s.hp for s in g.seats] == [4, 3, 4, 3]
    assert events_of(g, "miss", seat=2, how="cover")


def test_buckshot_does_not_use_the_shot():
    """RULES.md §3.3/§5: Buckshot ignores the Shot limit: a Shot stays legal after it, and
    Buckshot stays legal after a Shot."""
    g = load(hands(pos(), s0=["buckshot", "shot"]))
    play(g, "play:buckshot", "take", "take", "take")
    assert g.shots_used == 0
    assert shot_targets(g) == {1, 3}
    g2 = load(hands(pos(), s0=["buckshot", "shot"]))
    play(g2, "play:shot@1", "take")
    assert "play:buckshot" in g2.pending.option_ids


def test_buckshot_is_not_a_shot_for_double_barrel():
    """RULES.md §5: Buckshot is not a Shot for Double Barrel: one Ricochet cancels it at
    distance 1."""
    d = hands(pos(), s0=["buckshot"], s1=["ricochet"])
    d["seats"][0]["character"] = "double_barrel"
    g = load(d)
    play(g, "play:buckshot")
    assert (g.pending.seat, g.pending.option_ids) == (1, ["dodge:ricochet", "take"])
    play(g, "dodge:ricochet")
    assert g.seats[1].hp == 4


# ---------------------------------------------------------------------------------------- Jail
def test_jail_never_on_marshal():
    """RULES.md §1 jail / §6: the Marshal can never be jailed."""
    g = load(hands(pos(turn=1), s1=["jail"]))
    assert {o for o in g.pending.option_ids if o.startswith("play:jail")} == {
        "play:jail@2",
        "play:jail@3",
    }
    with pytest.raises(IllegalAction):
        g.apply("play:jail@0")


def test_jail_any_distance_on_another_player():
    """RULES.md §4: Jail reaches anyone (never yourself); it goes in front of the target."""
    g = load(hands(pos(), s0=["jail"]))
    assert {o for o in g.pending.option_ids if o.startswith("play:jail")} == {
        "play:jail@1",
        "play:jail@2",
        "play:jail@3",
    }
    play(g, "play:jail@2")
    assert types(g.seats[2].in_play) == ["jail"]
    assert g.seats[0].in_play == []


def _checks_pos(in_play: list[str], deck: list[str], hand: list[str] | None = None, **kw) -> dict:
    """Seat 3 (Empty Hands, no draw-phase choice) starts its turn with ``in_play``."""
    seats = [
        seat("marshal", "red_suit"),
        seat("raider", "grip"),
        seat("raider", "three_eyes"),
        seat("loner", "empty_hands", hand=["duel", "duel", "duel", "raid"] if hand is None else hand,
             in_play=in_play),
    ]  # fmt: skip
    return pos(seats, turn=3, phase="start", deck=deck, **kw)


def test_jail_heart_frees_and_is_discarded():
    """RULES.md §6: Jail check ♥ → free, play normally; Jail is discarded."""
    g = load(_checks_pos(["jail"], ["shot.QH", "horse.8H", "scope.AS"]))
    assert events_of(g, "check", seat=3, card="shot.QH")
    assert events_of(g, "jail", seat=3, free=True)
    assert g.seats[3].in_play == []
    assert types(g.discard) == ["shot", "jail"]
    assert (g.pending.seat, g.pending.kind) == (3, "play")
    assert faces(g.seats[3].hand)[-2:] == ["horse.8H", "scope.AS"]


def test_jail_not_heart_draws_but_no_play_and_is_discarded():
    """RULES.md §6: Jail check not ♥ → draw as usual but play nothing — straight to the
    discard step; Jail is discarded."""
    g = load(_checks_pos(["jail"], ["shot.QD", "horse.8H", "scope.AS"]))
    assert events_of(g, "jail", seat=3, free=False)
    assert faces(g.seats[3].hand)[-2:] == ["horse.8H", "scope.AS"]
    assert (g.pending.seat, g.pending.kind) == (3, "discard")
    assert g.seats[3].in_play == []
    assert "jail" in types(g.discard)
    assert not events_of(g, "play")


def test_jail_not_heart_without_discard_passes_turn():
    """RULES.md §6: a jailed player with no excess cards ends the turn without playing."""
    g = load(_checks_pos(["jail"], ["shot.QD", "horse.8H", "scope.AS"], hand=["duel"]))
    assert len(g.seats[3].hand) == 3
    assert events_of(g, "end_turn", seat=3)
    assert g.turn == 0


def test_jail_old_classic_failure_skips_whole_turn():
    """RULES.md §6: old_classic — failing the Jail check skips the whole turn (no draw, no
    play); Jail is discarded."""
    d = _checks_pos(["jail"], ["shot.QD", "horse.8H", "scope.AS"], mode="old_classic")
    g = load(d)
    assert events_of(g, "jail", seat=3, free=False)
    assert types(g.seats[3].hand) == ["duel", "duel", "duel", "raid"]
    assert not events_of(g, "draw", seat=3)
    assert events_of(g, "end_turn", seat=3)
    assert "jail" in types(g.discard)
    assert g.turn == 0


def test_jail_not_twice_on_the_same_player():
    """Ruling R-6 / RULES.md §4: a player never has two cards of the same name in play, so a
    jailed player cannot be jailed again."""
    d = hands(pos(), s0=["jail"])
    d["seats"][2]["in_play"] = ["jail"]
    g = load(d)
    assert "play:jail@2" not in g.pending.option_ids


# --------------------------------------------------------------------------------------- Cover
def test_cover_success_cancels_shot():
    """RULES.md §6: Cover — a fair 50/50 coin; success cancels the hit (no response asked)."""
    d = hands(pos(coins=[True]), s0=["shot"])
    d["seats"][1]["in_play"] = ["cover"]
    g = load(d)
    play(g, "play:shot@1")
    assert g.seats[1].hp == 4
    assert events_of(g, "coin", seat=1, ok=True)
    assert events_of(g, "miss", seat=1, by=0, how="cover")
    assert (g.pending.seat, g.pending.kind) == (0, "play")


def test_cover_failure_then_respond():
    """RULES.md §5: a failed Cover check leaves the usual response."""
    d = hands(pos(coins=[False]), s0=["shot"], s1=["ricochet"])
    d["seats"][1]["in_play"] = ["cover"]
    g = load(d)
    play(g, "play:shot@1")
    assert events_of(g, "coin", seat=1, ok=False)
    assert (g.pending.seat, g.pending.option_ids) == (1, ["dodge:ricochet", "take"])


def test_cover_one_check_per_hit():
    """RULES.md §1 cover: one 50/50 check against each hit — a failed check is not retried."""
    d = hands(pos(coins=[False, True]), s0=["shot"])
    d["seats"][1]["in_play"] = ["cover"]
    g = load(d)
    play(g, "play:shot@1")
    assert len(events_of(g, "coin")) == 1
    play(g, "take")
    assert g.seats[1].hp == 3
    assert list(g.coins) == [True]


def test_cover_old_classic_reveals_a_card_heart_blocks():
    """RULES.md §6: old_classic Cover reveals a card; ♥ = success."""
    d = hands(pos(mode="old_classic", deck=["shot.KH", "shot.KD"]), s0=["shot", "shot"])
    d["seats"][1]["in_play"] = ["cover"]
    d["seats"][1]["character"] = "grip"
    d["seats"][0]["weapon"] = "volcanic"
    g = load(d)
    play(g, "play:shot@1")
    assert events_of(g, "check", seat=1, card="shot.KH", **{"for": "cover"})
    assert g.seats[1].hp == 4
    play(g, "play:shot@1")
    assert events_of(g, "check", seat=1, card="shot.KD")
    assert (g.pending.seat, g.pending.kind) == (1, "respond_shot")


# ---------------------------------------------------------------------------- Horse and Scope
def test_horse_others_see_you_one_farther():
    """RULES.md §4: +1 if the target has a Horse."""
    d = hands(pos(), s0=["shot"])
    d["seats"][1]["in_play"] = ["horse"]
    g = load(d)
    assert g.distance(0, 1) == 2
    assert g.distance(1, 0) == 1
    assert shot_targets(g) == {3}


def test_horse_is_played_in_front_of_yourself():
    """RULES.md §1 horse: a blue card played in front of yourself; a second one cannot be."""
    g = load(hands(pos(), s0=["horse", "horse"]))
    play(g, "play:horse")
    assert types(g.seats[0].in_play) == ["horse"]
    assert "play:horse" not in g.pending.option_ids


def test_scope_you_see_others_one_closer_never_below_one():
    """RULES.md §4: −1 if the viewer has a Scope; never below 1."""
    d = hands(pos(), s0=["shot"])
    d["seats"][0]["in_play"] = ["scope"]
    g = load(d)
    assert [g.distance(0, j) for j in (1, 2, 3)] == [1, 1, 1]
    assert g.distance(2, 0) == 2
    assert shot_targets(g) == {1, 2, 3}


# ------------------------------------------------------------------------------------ Dynamite
def test_dynamite_played_in_front_of_yourself():
    """RULES.md §1 dynamite: in front of yourself."""
    g = load(hands(pos(), s0=["dynamite"]))
    assert "play:dynamite" in g.pending.option_ids
    play(g, "play:dynamite")
    assert types(g.seats[0].in_play) == ["dynamite"]


def test_dynamite_checked_before_jail():
    """RULES.md §3.1/§6: Dynamite is checked first, then Jail."""
    g = load(_checks_pos(["jail", "dynamite"], ["shot.KH", "shot.5D", "horse.8H", "scope.AS"]))
    checks = [(e["for"], e["card"]) for e in events_of(g, "check")]
    assert checks == [("dynamite", "shot.KH"), ("jail", "shot.5D")]
    assert events_of(g, "jail", seat=3, free=False)
    assert types(g.seats[0].in_play) == ["dynamite"]


@pytest.mark.parametrize("card", ["shot.2S", "ricochet.5S", "wagon.9S", "long_rifle.8S"])
def test_dynamite_spades_2_to_9_explodes(card):
    """RULES.md §6: Dynamite ♠2–9 → 3 damage to its holder (from nobody); it is discarded."""
    g = load(_checks_pos(["dynamite"], [card, "horse.8H", "scope.AS"]))
    assert g.seats[3].hp == 1
    assert events_of(g, "hit", seat=3, by=-1, n=3)
    assert "dynamite" in types(g.discard)
    assert all("dynamite" not in types(s.in_play) for s in g.seats)


@pytest.mark.parametrize("card", ["jail.10S", "shot.AS", "cover.QS", "shot.5D", "shot.4C"])
def test_dynamite_otherwise_passes_to_next_living_player(card):
    """RULES.md §6: not ♠2–9 → Dynamite moves in front of the next living player."""
    d = _checks_pos(["dynamite"], [card, "horse.8H", "scope.AS"])
    d["seats"][0]["hp"] = 0  # the next seat (0) is eliminated: it goes to seat 1
    d["seats"][0]["role"] = "raider"
    d["seats"][1]["role"] = "marshal"
    g = load(d)
    assert g.seats[3].hp == 4
    assert types(g.seats[1].in_play) == ["dynamite"]
    assert g.seats[3].in_play == []
    assert events_of(g, "dynamite", seat=3, blast=False, to_seat=1)


def test_dynamite_explosion_can_eliminate_from_nobody():
    """RULES.md §6/§7: Dynamite's 3 damage has no source; at 0 ♥ the holder is eliminated."""
    d = _checks_pos(["dynamite"], ["shot.2S", "horse.8H"])
    d["seats"][3]["hp"] = 3
    g = load(d)
    assert not g.seats[3].alive
    assert events_of(g, "eliminated", seat=3, by=-1)


# ------------------------------------------------------------------------------------- Weapons
@pytest.mark.parametrize(
    ("weapon", "reach"),
    [
        (None, {1, 7}),
        ("volcanic", {1, 7}),
        ("sawed_off", {1, 2, 6, 7}),
        ("rifle", {1, 2, 3, 5, 6, 7}),
        ("carbine", {1, 2, 3, 5, 6, 7}),
        ("long_rifle", {1, 2, 3, 4, 5, 6, 7}),
    ],
)
def test_weapon_range(weapon, reach):
    """RULES.md §1/§4: Revolver 1, Volcanic 1, Sawed-Off 2, Rifle 3, Carbine 4, Long Rifle 5.
    (8 seats; seat 4 sits opposite at 4 and has a Horse: 5.)"""
    d = eight_seats(hand=["shot"], weapon=weapon)
    d["seats"][4]["in_play"] = ["horse"]
    g = load(d)
    assert [g.distance(0, j) for j in range(1, 8)] == [1, 2, 3, 5, 3, 2, 1]
    assert shot_targets(g) == reach
    assert g.seats[0].weapon_range == {None: 1, "volcanic": 1, "sawed_off": 2, "rifle": 3,
                                       "carbine": 4, "long_rifle": 5}[weapon]  # fmt: skip


def test_carbine_reaches_distance_4():
    """RULES.md §1: Carbine range 4 (the opposite seat at distance 4 of 8)."""
    g = load(eight_seats(hand=["shot"], weapon="carbine"))
    assert g.distance(0, 4) == 4
    assert 4 in shot_targets(g)
    g2 = load(eight_seats(hand=["shot"], weapon="rifle"))
    assert 4 not in shot_targets(g2)


@pytest.mark.parametrize("new", ["volcanic", "sawed_off", "rifle", "carbine", "long_rifle"])
def test_weapon_replaces_old_which_goes_to_discard(new):
    """RULES.md §4: one weapon per player; a new one replaces the old (old goes to discard)."""
    old = "sawed_off" if new != "sawed_off" else "rifle"
    d = hands(pos(), s0=[new])
    d["seats"][0]["weapon"] = old
    g = load(d)
    play(g, f"play:{new}")
    assert weapon_type(g, 0) == new
    assert types(g.discard) == [old]
    assert g.seats[0].hand == []


def test_first_weapon_replaces_revolver():
    """RULES.md §1: no weapon = Revolver (not a card); equipping puts nothing in the discard."""
    g = load(hands(pos(), s0=["rifle"]))
    assert g.seats[0].weapon_range == 1
    play(g, "play:rifle")
    assert weapon_type(g, 0) == "rifle"
    assert g.discard == []
    assert g.seats[0].weapon_range == 3


# ------------------------------------------------------------------------ §4 distance / range
def test_distance_counts_only_living_players():
    """RULES.md §4: fewest steps around the circle, counting only living players."""
    seats = [seat("marshal", "red_suit"), seat("raider", "grip", hp=0),
             seat("raider", "three_eyes"), seat("loner", "vulture_jr"),
             seat("deputy", "empty_hands")]  # fmt: skip
    g = load(pos(seats))
    assert g.distance(0, 2) == 1
    assert g.distance(0, 3) == 2
    assert g.distance(0, 4) == 1
    assert g.distance(2, 4) == 2


def test_distance_is_fewest_steps_either_way():
    """RULES.md §4: neighbours are at 1, both ways around the circle."""
    g = load(eight_seats())
    assert [g.distance(0, j) for j in range(1, 8)] == [1, 2, 3, 4, 3, 2, 1]
    assert g.distance(3, 6) == 3


def test_marksmanship_adds_to_shot_range():
    """RULES.md §4: Shot reaches if distance ≤ weapon range + Marksmanship stars."""
    d = hands(pos(), s0=["shot"])
    d["seats"][0]["upgrades"] = ["marksmanship"]
    g = load(d)
    assert shot_targets(g) == {1, 2, 3}


def test_shot_range_with_horse_and_scope_combined():
    """RULES.md §4: Horse +1 and Scope −1 cancel: the neighbour with a Horse is back in range."""
    d = hands(pos(), s0=["shot"])
    d["seats"][0]["in_play"] = ["scope"]
    d["seats"][1]["in_play"] = ["horse"]
    g = load(d)
    assert g.distance(0, 1) == 1
    assert 1 in shot_targets(g)


# ------------------------------------------------------------------------------ §3 deck rules
def _park_rest(d: dict, where: int = 2) -> dict:
    d["seats"][where]["hand"] = list(d["seats"][where].get("hand", [])) + unnamed_cards(d)
    return d


def test_deck_reshuffles_discard_pile_when_empty():
    """RULES.md §3 Deck: when a card must be drawn and the deck is empty, the discard pile is
    shuffled into a new deck."""
    d = hands(pos(deck=[], discard=["duel.JS", "jail.4H", "horse.8H"]), s0=["wagon"])
    d = _park_rest(d)
    g = load(d)
    assert g.deck == []
    play(g, "play:wagon")
    assert events_of(g, "shuffle", n=3)
    assert len(g.seats[0].hand) == 2
    assert set(faces(g.seats[0].hand)) <= {"duel.JS", "jail.4H", "horse.8H"}
    assert len(g.deck) == 1
    assert types(g.discard) == ["wagon"]


@pytest.mark.parametrize(("card", "n"), [("wagon", 2), ("caravan", 3), ("bazaar", 1)])
def test_draw_cards_never_draw_themselves_back(card, n):
    """RULES.md §3 Deck: a Wagon/Bazaar/Caravan being resolved is not in the discard pile yet,
    so it can never draw itself back."""
    d = hands(pos(deck=[], discard=["duel.JS"]), s0=[card])
    d = _park_rest(d)
    g = load(d)
    play(g, f"play:{card}")
    assert faces(g.seats[0].hand) == ["duel.JS"]
    assert types(g.discard) == [card]
    assert g.deck == []


def test_both_empty_nothing_is_drawn():
    """RULES.md §3 Deck: if deck and discard are both empty, nothing is drawn."""
    d = _park_rest(hands(pos(deck=[], discard=[]), s0=["caravan"]))
    g = load(d)
    play(g, "play:caravan")
    assert g.seats[0].hand == []
    assert not events_of(g, "draw", seat=0)
    assert types(g.discard) == ["caravan"]


def test_both_empty_dynamite_passes_without_exploding():
    """RULES.md §3 Deck: both empty → Dynamite passes on without exploding."""
    d = _checks_pos(["dynamite"], [])
    d["discard"] = []
    d = _park_rest(d)
    g = load(d)
    assert not events_of(g, "check")
    assert g.seats[3].hp == 4
    assert types(g.seats[0].in_play) == ["dynamite"]
    assert events_of(g, "dynamite", seat=3, blast=False, to_seat=0)


def test_both_empty_jail_releases():
    """RULES.md §3 Deck: both empty → Jail releases the player (and is discarded)."""
    d = _checks_pos(["jail"], [])
    d = _park_rest(d)
    g = load(d)
    assert not events_of(g, "check")
    assert events_of(g, "jail", seat=3, free=True)
    assert (g.pending.seat, g.pending.kind) == (3, "play")
    assert g.seats[3].in_play == []
    # the Jail went to the discard pile, which the empty deck then reshuffled for the draw
    assert events_of(g, "shuffle", n=1)
    assert types(g.seats[3].hand)[-1] == "jail"


def test_both_empty_cover_does_not_block_old_classic():
    """RULES.md §3 Deck: both empty → Cover (old_classic: a revealed card) does not block."""
    d = hands(pos(mode="old_classic", deck=[], discard=[]), s0=["shot"])
    d["seats"][1]["in_play"] = ["cover"]
    d = _park_rest(d)
    g = load(d)
    play(g, "play:shot@1")
    assert not events_of(g, "check")
    assert (g.pending.seat, g.pending.kind) == (1, "respond_shot")
    play(g, "take")
    assert g.seats[1].hp == 3


# ------------------------------------------------------------------------ §3 turn structure
def test_draw_phase_draws_two_from_deck():
    """RULES.md §3.2: the draw phase draws 2 cards from the deck."""
    g = load(_checks_pos([], ["horse.8H", "scope.AS", "duel.JS"], hand=[]))
    assert faces(g.seats[3].hand) == ["horse.8H", "scope.AS"]
    assert (g.pending.seat, g.pending.kind) == (3, "play")


def test_end_turn_discard_down_to_hp():
    """RULES.md §3.4: after ending the turn, a hand above current ♥ is discarded down to ♥, the
    player choosing which."""
    d = hands(pos(), s0=["shot", "duel", "wagon"])
    d["seats"][0]["hp"] = 1
    g = load(d)
    play(g, "end")
    assert (g.pending.seat, g.pending.kind) == (0, "discard")
    assert set(g.pending.option_ids) == {"discard:shot", "discard:duel", "discard:wagon"}
    play(g, "discard:shot", "discard:wagon")
    assert types(g.seats[0].hand) == ["duel"]
    assert g.turn == 1
