"""Scenario tests for the characters of RULES.md §1 who change shooting, answering, checks and
distance: Two-Face, Iron Brow, Lucky, Pass Shadow, Eagle Eye, Double Barrel and Mad Dog."""

from __future__ import annotations

import pytest

from harness.engine import IllegalAction, build_view

from .helpers import events_of, load, play, pos, seat, types
from .setups import four, hand_types


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
