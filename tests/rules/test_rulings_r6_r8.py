"""Scenario tests for rulings R-6 … R-8 of RULES.md: built-in equipment, the Ricochets against
Double Barrel, and when Flask is legal."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction, PositionError

from .helpers import events_of, load, play, pos, seat, types


# ------------------------------------------------------------------------------------------
def test_r6_iron_brow_plus_cover_card_one_check():
    """Ruling R-6: Iron Brow with a Cover card still gets one Cover check, not two."""
    d = pos(coins=[False, True])
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1].update(character="iron_brow", in_play=["cover"])
    g = load(d)
    play(g, "play:shot@1")
    assert len(events_of(g, "coin", seat=1)) == 1
    assert (g.pending.seat, g.pending.kind) == (1, "respond_shot")
    play(g, "take")
    assert g.seats[1].hp == 3


def test_r6_iron_brow_builtin_cover_checks_without_card():
    """Ruling R-6: built-in equipment counts as having that card in play (Iron Brow's Cover)."""
    d = pos(coins=[True])
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1]["character"] = "iron_brow"
    g = load(d)
    play(g, "play:shot@1")
    assert events_of(g, "miss", seat=1, how="cover")
    assert g.seats[1].hp == 4


def test_r6_eagle_eye_plus_scope_minus_one():
    """Ruling R-6: Eagle Eye + Scope: still −1, not −2."""
    seats = [seat("marshal", "eagle_eye", in_play=["scope"]), seat("raider", "grip"),
             seat("raider", "red_suit"), seat("loner", "lucky"), seat("deputy", "three_eyes"),
             seat("raider", "vulture_jr")]  # fmt: skip
    g = load(pos(seats))
    assert g.distance(0, 3) == 2  # 3 steps − 1
    assert g.distance(0, 2) == 1


def test_r6_pass_shadow_plus_horse_still_two():
    """Ruling R-6: Pass Shadow + Horse: still +2, not +3."""
    d = pos()
    d["seats"][1].update(character="pass_shadow", in_play=["horse"])
    g = load(d)
    assert g.distance(0, 1) == 3
    assert g.distance(2, 1) == 3
    assert g.distance(3, 1) == 4


@pytest.mark.parametrize(("character", "card"), [("iron_brow", "cover"), ("eagle_eye", "scope"),
                                                 ("pass_shadow", "horse"), ("mad_dog", "scope")])  # fmt: skip
def test_r6_may_still_play_the_card(character, card):
    """Ruling R-6: a player with built-in equipment may still play such a card."""
    d = pos()
    d["seats"][0].update(character=character, hand=[card])
    g = load(d)
    assert f"play:{card}" in g.pending.option_ids
    play(g, f"play:{card}")
    assert types(g.seats[0].in_play) == [card]


@pytest.mark.parametrize("card", ["cover", "horse"])
def test_r6_never_two_cards_of_a_name_in_play(card):
    """Ruling R-6: a player never has two cards of the same name in play."""
    d = pos()
    d["seats"][0].update(hand=[card], in_play=[card])
    g = load(d)
    assert f"play:{card}" not in g.pending.option_ids
    with pytest.raises(IllegalAction):
        g.apply(f"play:{card}")


def test_r6_position_rejects_two_cards_of_a_name_in_play():
    """Ruling R-6: a position with two cards of the same name in play is invalid."""
    d = pos()
    d["seats"][0]["in_play"] = ["horse", "horse"]
    with pytest.raises(PositionError):
        load(d)


# ------------------------------------------------------------------------------------------
def _db(target_hand: list[str], target_hp: int = 4, **kw) -> Game:
    d = pos(**kw)
    d["seats"][0].update(character="double_barrel", hand=["shot"])
    d["seats"][1].update(hand=target_hand, hp=target_hp)
    return load(d)


def test_r7_double_barrel_one_ricochet_not_enough():
    """Ruling R-7 / RULES.md §5: Double Barrel's Shot at distance 1 needs two cancellations."""
    g = _db(["ricochet"])
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["take"]
    with pytest.raises(IllegalAction):
        g.apply("dodge:ricochet")


def test_r7_both_ricochets_in_one_decision():
    """Ruling R-7: the required Ricochets are discarded together as one decision."""
    g = _db(["ricochet", "ricochet"])
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["dodge:ricochet+ricochet", "take"]
    play(g, "dodge:ricochet+ricochet")
    assert g.seats[1].hp == 4
    assert g.seats[1].hand == []
    assert types(g.discard) == ["ricochet", "ricochet", "shot"]
    assert (g.pending.seat, g.pending.kind) == (0, "play")


def test_r7_cover_success_counts_as_one():
    """Ruling R-7 / RULES.md §5: a successful Cover check counts as one cancellation; one
    Ricochet then suffices."""
    d = pos(coins=[True])
    d["seats"][0].update(character="double_barrel", hand=["shot"])
    d["seats"][1].update(hand=["ricochet"], in_play=["cover"])
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["dodge:ricochet", "take"]
    play(g, "dodge:ricochet")
    assert g.seats[1].hp == 4


def test_r7_cover_failure_still_needs_two():
    """Ruling R-7: after a failed Cover check both Ricochets are still needed."""
    d = pos(coins=[False])
    d["seats"][0].update(character="double_barrel", hand=["shot"])
    d["seats"][1].update(hand=["ricochet"], in_play=["cover"])
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["take"]


def test_r7_flask_cancels_alone():
    """Ruling R-7: a Flask response (when legal) cancels Double Barrel's hit on its own."""
    g = _db(["flask", "ricochet"], target_hp=1)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["flask", "take"]
    play(g, "flask")
    assert g.seats[1].hp == 1
    assert types(g.seats[1].hand) == ["ricochet"]


def test_r7_only_at_distance_1():
    """RULES.md §5: at distance 2 Double Barrel's Shot needs a single Ricochet."""
    d = pos()
    d["seats"][0].update(character="double_barrel", hand=["shot"], weapon="sawed_off")
    d["seats"][2]["hand"] = ["ricochet"]
    g = load(d)
    play(g, "play:shot@2")
    assert g.pending.option_ids == ["dodge:ricochet", "take"]


def test_r7_two_face_may_use_shots():
    """RULES.md §5: Two-Face may use Shots as the Ricochets against Double Barrel."""
    d = pos()
    d["seats"][0].update(character="double_barrel", hand=["shot"])
    d["seats"][1].update(character="two_face", hand=["ricochet", "shot"])
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["dodge:ricochet+shot", "take"]


# ------------------------------------------------------------------------------------------
def test_r8_flask_not_legal_at_full_hp():
    """Ruling R-8: Flask on your own turn is not legal at full ♥."""
    d = pos()
    d["seats"][0]["hand"] = ["flask"]
    g = load(d)
    assert g.pending.option_ids == ["end"]
    with pytest.raises(IllegalAction):
        g.apply("play:flask")


def test_r8_flask_legal_below_max_after_toughness():
    """Ruling R-8: "full" is the current max ♥ (Toughness raises it)."""
    d = pos()
    d["seats"][0].update(hp=4, max_hp=5, hand=["flask"], upgrades=["toughness"])
    g = load(d)
    assert "play:flask" in g.pending.option_ids
    play(g, "play:flask")
    assert g.seats[0].hp == 5
    assert "play:flask" not in g.pending.option_ids


def test_r8_old_classic_flask_not_legal_with_two_alive():
    """RULES.md §5: old_classic — Flask heals nothing with 2 players alive, so it is not legal."""
    d = pos(mode="old_classic")
    d["seats"][0].update(hp=2, hand=["flask"])
    d["seats"][2]["hp"] = 0
    d["seats"][3]["hp"] = 0
    g = load(d)
    assert "play:flask" not in g.pending.option_ids
    d["seats"][3]["hp"] = 4
    assert "play:flask" in load(d).pending.option_ids
