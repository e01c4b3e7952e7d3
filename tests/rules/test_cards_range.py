"""Scenario tests for Horse, Scope and the weapons, and for distance and range (RULES.md §1, §4)."""

from __future__ import annotations

import pytest

from .helpers import load, play, pos, seat, types, weapon_type
from .setups import hands, shot_targets


def eight_seats(**seat0) -> dict:
    """8 seats; seat 0 is the Marshal, seat 4 sits opposite."""
    chars = ["red_suit", "grip", "three_eyes", "vulture_jr", "collector", "empty_hands",
             "scavenger", "bonesetter"]  # fmt: skip
    roles = ["marshal", "deputy", "raider", "raider", "loner", "deputy", "raider", "loner"]
    seats = [seat(r, c) for r, c in zip(roles, chars, strict=True)]
    seats[0].update(seat0)
    return pos(seats)


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
