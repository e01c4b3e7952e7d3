"""Scenario tests for the blue cards with checks: Jail, Cover and Dynamite (RULES.md §1, §6)."""

from __future__ import annotations

import pytest

from harness.engine import IllegalAction

from .helpers import events_of, faces, load, play, pos, types
from .setups import _checks_pos, hands


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
