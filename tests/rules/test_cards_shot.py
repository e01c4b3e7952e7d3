"""Scenario tests for the Shot and what answers it: Shot, Ricochet, Flask and Buckshot
(RULES.md §1, the Shot limit of §3.3, responses of §5)."""

from __future__ import annotations

import pytest

from harness.engine import IllegalAction
from harness.engine.cards import CARD_TYPE

from .helpers import events_of, load, play, pos, types
from .setups import hands, shot_targets


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
