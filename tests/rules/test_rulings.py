"""One or more scenario tests per ruling R-1 … R-9 of RULES.md."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction, PositionError, build_view, simplest_action
from harness.engine.cards import CARD_FACE, CARD_RANK, CARD_SUIT, CARD_TYPE

from .helpers import events_of, faces, load, play, pos, seat, types, weapon_type


def five_seats(*chars: str, **kw) -> dict:
    """5 seats: marshal, deputy, raider, raider, loner (characters given or plain)."""
    chars = chars or ("red_suit", "grip", "three_eyes", "empty_hands", "lucky")
    roles = ("marshal", "deputy", "raider", "raider", "loner")
    return pos([seat(r, c) for r, c in zip(roles, chars, strict=True)], **kw)


# ------------------------------------------------------------------------------------------
def test_r1_deck_suits_and_ranks():
    """Ruling R-1: 80 cards with exactly 21 ♥ and 12 ♠2–9 (full table in test_deck.py)."""
    assert len(CARD_TYPE) == 80
    assert CARD_SUIT.count("H") == 21
    assert sum(1 for s, r in zip(CARD_SUIT, CARD_RANK, strict=True) if s == "S" and r <= 9) == 12
    assert {"shot.2H", "shot.2S", "shot.3S"} <= set(CARD_FACE)


# ------------------------------------------------------------------------------------------
def _dealt(g: Game) -> dict[int, int]:
    return {e["seat"]: e["n"] for e in events_of(g, "draw", why="deal")}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("n", [6, 7, 8])
def test_r2_old_classic_no_marshal_hand_adjustment(n, seed):
    """Ruling R-2: old_classic has no hand adjustment (hand = ♥ for everyone, Marshal too)."""
    g = Game.new(n, "old_classic", seed)
    dealt = _dealt(g)
    assert dealt == {s.index: s.max_hp for s in g.seats}
    m = g.seats[g.marshal]
    assert dealt[g.marshal] == m.max_hp


@pytest.mark.parametrize(("n", "adjust"), [(4, 0), (5, 0), (6, 2), (7, 1), (8, -1)])
def test_r2_classic_marshal_hand_adjustment(n, adjust):
    """RULES.md §2 (contrast to Ruling R-2): outside old_classic the Marshal's starting hand is
    ♥ +2 (6 seats), +1 (7), −1 (8); everyone else gets hand = ♥."""
    g = Game.new(n, "classic", 5)
    dealt = _dealt(g)
    for s in g.seats:
        assert dealt[s.index] == s.max_hp + (adjust if s.index == g.marshal else 0)


# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_r3_double_agent_raiders_team_knows_each_other(n, seed):
    """Ruling R-3: in double_agent mode every member of the raiders team (raiders and the double
    agent) knows every other member's identity."""
    g = Game.new(n, "double_agent", seed)
    team = {s.index: s.role for s in g.seats if s.role in ("raider", "double_agent")}
    assert "double_agent" in team.values()
    for i in team:
        known = build_view(g, i).known_roles
        assert known == {j: r for j, r in team.items() if j != i}
    for s in g.seats:
        if s.index not in team:
            assert build_view(g, s.index).known_roles == {}


@pytest.mark.parametrize(("mode", "n"), [("classic", 6), ("partners", 8), ("old_classic", 7),
                                         ("double_agent", 4)])  # fmt: skip
def test_r3_raiders_do_not_know_each_other_in_other_modes(mode, n):
    """Ruling R-3: in all other modes raiders do not know each other (a 4-seat double_agent
    table plays classic)."""
    g = Game.new(n, mode, 3)
    raiders = [s.index for s in g.seats if s.role == "raider"]
    assert len(raiders) >= 2
    for i in raiders:
        assert build_view(g, i).known_roles == {}


def test_r3_marshal_told_deputy_and_double_agent():
    """RULES.md §2 / Ruling R-3 context: the Marshal is told one real Deputy and the double
    agent."""
    g = Game.new(7, "double_agent", 4)
    pair = build_view(g, g.marshal).marshal_pair
    assert pair is not None
    assert sorted(g.seats[i].role for i in pair) == ["deputy", "double_agent"]


# ------------------------------------------------------------------------------------------
def test_r4_high_noon_flask_not_legal_on_own_turn():
    """Ruling R-4: in High Noon healing-only cards are not legal — Flask on your own turn."""
    d = pos(round=8)
    d["seats"][0].update(hp=2, hand=["flask", "shot"])
    g = load(d)
    assert g.high_noon
    assert "play:flask" not in g.pending.option_ids
    with pytest.raises(IllegalAction):
        g.apply("play:flask")
    d["round"] = 7
    assert "play:flask" in load(d).pending.option_ids


def test_r4_high_noon_flask_response_not_legal():
    """Ruling R-4 / RULES.md §5: the Flask response at 1 ♥ is not legal in High Noon."""
    d = pos(round=8)
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1].update(hp=1, hand=["flask"])
    g = load(d)
    play(g, "play:shot@1")
    assert g.pending.option_ids == ["take"]


def test_r4_high_noon_saloon_not_legal():
    """Ruling R-4: Saloon is not legal in High Noon."""
    d = pos(round=8)
    d["seats"][0].update(hp=2, hand=["saloon"])
    g = load(d)
    assert g.pending.option_ids == ["end"]
    d["round"] = 7
    assert "play:saloon" in load(d).pending.option_ids


def test_r4_high_noon_bonesetter_heal_not_legal():
    """Ruling R-4: Bonesetter's heal is not legal in High Noon (play phase and response)."""
    d = pos(round=8)
    d["seats"][0].update(character="bonesetter", hp=2, max_hp=5, hand=["duel", "wagon"])
    d["seats"][1]["hand"] = ["shot"]
    g = load(d)
    assert not [o for o in g.pending.option_ids if o.startswith("heal:")]
    d["round"] = 7
    assert "heal:duel+wagon" in load(d).pending.option_ids
    d["round"] = 8
    d["turn"] = 1
    g = load(d)
    play(g, "play:shot@0")
    assert g.pending.option_ids == ["take"]


def test_r4_high_noon_cover_never_triggers():
    """RULES.md §3 High Noon: Cover (card or built-in) never triggers."""
    d = pos(round=8, coins=[True])
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1].update(character="iron_brow", in_play=["cover"])
    g = load(d)
    play(g, "play:shot@1")
    assert (g.pending.seat, g.pending.kind) == (1, "respond_shot")
    assert not events_of(g, "coin")


def test_r4_high_noon_toughness_still_works():
    """Ruling R-4: Toughness raises max and current ♥ and still works in High Noon."""
    d = pos(round=8)
    d["seats"][0].update(hp=2, hand=["shot"])
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    assert (g.pending.seat, g.pending.kind) == (0, "upgrade")
    play(g, "upgrade:toughness")
    assert (g.seats[0].hp, g.seats[0].max_hp) == (3, 5)


def test_r4_high_noon_starts_with_round_8():
    """RULES.md §3: round = the Marshal's turns; High Noon from the start of round 8."""
    d = pos(round=7, turn=3)
    g = load(d)
    assert not g.high_noon
    play(g, "end")
    assert g.round == 8
    assert g.high_noon
    assert events_of(g, "high_noon", round=8)


def test_r4_old_classic_has_no_high_noon():
    """RULES.md §3: old_classic has no High Noon (Flask stays legal in round 9)."""
    d = pos(mode="old_classic", round=9)
    d["seats"][0].update(hp=2, hand=["flask"])
    g = load(d)
    assert not g.high_noon
    assert "play:flask" in g.pending.option_ids


# ------------------------------------------------------------------------------------------
def _simplest(g):
    a = simplest_action(g)
    assert a in g.pending.options
    return a.id


def test_r5_play_phase_ends_turn():
    """Ruling R-5: play phase → end turn."""
    d = pos()
    d["seats"][0]["hand"] = ["shot", "wagon"]
    assert _simplest(load(d)) == "end"


@pytest.mark.parametrize(("card", "kind"), [("shot", "respond_shot"), ("raid", "respond_raid"),
                                            ("duel", "respond_duel")])  # fmt: skip
def test_r5_any_response_takes_the_hit(card, kind):
    """Ruling R-5: any response → take the hit / do not discard (lose the ♥)."""
    d = pos()
    d["seats"][0]["hand"] = [card]
    d["seats"][1]["hand"] = ["shot", "ricochet", "flask"]
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, f"play:{card}" + ("" if card == "raid" else "@1"))
    assert (g.pending.seat, g.pending.kind) == (1, kind)
    assert len(g.pending.options) >= 2
    assert _simplest(g) == "take"


def test_r5_double_barrel_response_takes_the_hit():
    """Ruling R-5: also a two-Ricochet response decision defaults to taking the hit."""
    d = pos()
    d["seats"][0].update(character="double_barrel", hand=["shot"])
    d["seats"][1]["hand"] = ["ricochet", "ricochet"]
    g = load(d)
    play(g, "play:shot@1")
    assert _simplest(g) == "take"


def test_r5_forced_discard_most_recently_received():
    """Ruling R-5: forced discard → discard the most recently received cards."""
    d = pos()
    d["seats"][0].update(hp=1, hand=["wagon.9S", "shot.AS", "duel.JS", "shot.KH"])
    g = load(d)
    play(g, "end")
    discarded = []
    while g.pending.seat == 0 and g.pending.kind == "discard":
        a = _simplest(g)
        discarded.append(a)
        play(g, a)
    assert discarded == ["discard:shot", "discard:duel", "discard:shot"]
    assert faces(g.seats[0].hand) == ["wagon.9S"]
    assert faces(g.discard) == ["shot.KH", "duel.JS", "shot.AS"]


def test_r5_draw_source_default_deck_draw():
    """Ruling R-5: draw-phase choices → the default deck draw (Grip, Vulture Jr.)."""
    seats = [seat("marshal", "grip", hand=[]), seat("raider", "vulture_jr", hand=["shot"]),
             seat("raider", "red_suit", hand=["shot"]), seat("loner", "lucky", hand=["shot"])]  # fmt: skip
    g = load(pos(seats, phase="start", discard=["duel"]))
    assert (g.pending.seat, g.pending.kind) == (0, "draw_source")
    assert len(g.pending.options) == 4
    assert _simplest(g) == "draw:deck"
    g = load(pos(seats, phase="start", turn=1, discard=["duel"]))
    assert g.pending.option_ids == ["draw:deck", "draw:discard"]
    assert _simplest(g) == "draw:deck"


def test_r5_putback_keeps_the_default_deck_draw():
    """Ruling R-5: draw-phase choices → the default deck draw: Three Eyes keeps the 2 cards a
    plain draw would have given and puts the 3rd back."""
    seats = [seat("marshal", "three_eyes"), seat("raider", "grip"), seat("raider", "red_suit"),
             seat("loner", "lucky")]  # fmt: skip
    g = load(pos(seats, phase="start", deck=["duel.JS", "jail.4H", "horse.8H"]))
    assert (g.pending.seat, g.pending.kind) == (0, "putback")
    a = _simplest(g)
    assert a == "putback:horse.8H"
    play(g, a)
    assert faces(g.seats[0].hand) == ["duel.JS", "jail.4H"]
    assert CARD_FACE[g.deck[-1]] == "horse.8H"


def test_r5_upgrade_first_in_canonical_order():
    """Ruling R-5: upgrade choice → the first option in canonical order (marksmanship)."""
    d = pos()
    d["seats"][0].update(hand=["shot"], upgrades=["instinct"])
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    assert g.pending.kind == "upgrade"
    assert g.pending.option_ids == ["upgrade:marksmanship", "upgrade:toughness"]
    assert _simplest(g) == "upgrade:marksmanship"


def test_r5_other_choice_first_legal_option():
    """Ruling R-5: any other choice (the bounty) → the first legal option."""
    d = pos()
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1].update(hp=1, upgrades=["toughness", "marksmanship"])
    g = load(d)
    play(g, "play:shot@1", "take", "upgrade:instinct")
    assert g.pending.kind == "bounty"
    assert g.pending.option_ids == ["bounty:marksmanship", "bounty:toughness"]
    assert _simplest(g) == "bounty:marksmanship"


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


# ------------------------------------------------------------------------------------------
def test_r9_role_revealed_to_all():
    """Ruling R-9.1: on elimination the role is revealed to all."""
    d = pos()
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1]["hp"] = 1
    g = load(d)
    assert build_view(g, 3).seats[1].role is None
    play(g, "play:shot@1", "take")
    assert events_of(g, "eliminated", seat=1, role="raider")
    for viewer in range(4):
        assert build_view(g, viewer).seats[1].role == "raider"
    assert not g.seats[1].alive


def test_r9_eliminator_is_last_damage_source_shot():
    """Ruling R-9.2: the eliminator is the source of the last damage (the shooter)."""
    d = pos(turn=2)
    d["seats"][2]["hand"] = ["shot"]
    d["seats"][3]["hp"] = 1
    g = load(d)
    play(g, "play:shot@3", "take")
    assert events_of(g, "eliminated", seat=3, by=2)
    assert (g.pending.seat, g.pending.kind) == (2, "upgrade")


def test_r9_eliminator_duel_is_other_duelist():
    """Ruling R-9.2: in a Duel the eliminator is the other duelist (the challenger may be the one
    eliminated, by the target)."""
    d = pos(turn=1)
    d["seats"][1].update(hp=1, hand=["duel"])
    d["seats"][3]["hand"] = ["shot"]
    g = load(d)
    play(g, "play:duel@3", "match:shot", "take")
    assert events_of(g, "eliminated", seat=1, by=3)
    assert (g.pending.seat, g.pending.kind) == (3, "upgrade")
    play(g, "upgrade:toughness")
    assert g.seats[3].upgrades == ["toughness"]


def test_r9_eliminator_dynamite_is_nobody():
    """Ruling R-9.2: Dynamite eliminates from nobody: no glory is gained."""
    seats = [seat("marshal", "red_suit"), seat("raider", "grip"),
             seat("raider", "empty_hands", hp=2, in_play=["dynamite"]), seat("loner", "lucky")]  # fmt: skip
    g = load(pos(seats, turn=2, phase="start", deck=["shot.2S", "horse.8H", "scope.AS"]))
    assert events_of(g, "eliminated", seat=2, by=-1)
    assert not events_of(g, "star")
    assert g.pending.kind != "upgrade"
    assert all(s.upgrades == [] for s in g.seats)


def test_r9_scavenger_takes_hand_and_in_play():
    """Ruling R-9.3: a living Scavenger takes the victim's hand and in-play cards."""
    d = pos()
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][0]["weapon"] = "sawed_off"
    d["seats"][1].update(hp=1, hand=["duel.JS"], in_play=["horse.8H"], weapon="rifle")
    d["seats"][3]["character"] = "scavenger"
    g = load(d)
    play(g, "play:shot@1", "take")
    assert sorted(faces(g.seats[3].hand)) == ["duel.JS", "horse.8H", "rifle.KC"]
    assert g.discard == []  # the Shot is still resolving while the glory choice is pending
    play(g, "upgrade:marksmanship")
    assert types(g.discard) == ["shot"]
    assert (g.seats[1].hand, g.seats[1].in_play, g.seats[1].weapon) == ([], [], -1)


def test_r9_without_scavenger_cards_are_discarded():
    """Ruling R-9.3: without a living Scavenger the victim's cards go to the discard pile."""
    d = pos()
    d["seats"][0]["hand"] = ["shot.8C"]
    d["seats"][0]["weapon"] = "sawed_off"
    d["seats"][1].update(hp=1, hand=["duel.JS"], in_play=["horse.8H"], weapon="rifle")
    g = load(d)
    play(g, "play:shot@1", "take")
    assert sorted(faces(g.discard)) == ["duel.JS", "horse.8H", "rifle.KC"]
    play(g, "upgrade:marksmanship")
    assert sorted(faces(g.discard)) == ["duel.JS", "horse.8H", "rifle.KC", "shot.8C"]
    assert (g.seats[0].hand, g.seats[1].hand) == ([], [])


def test_r9_vulture_jr_draws_two():
    """Ruling R-9.4: a living Vulture Jr. draws 2 when anyone is eliminated."""
    d = pos(deck=["duel.JS", "jail.4H", "horse.8H"])
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1]["hp"] = 1
    d["seats"][3]["character"] = "vulture_jr"
    g = load(d)
    play(g, "play:shot@1", "take")
    assert faces(g.seats[3].hand) == ["duel.JS", "jail.4H"]


def test_r9_order_reveal_scavenger_vulture_then_glory():
    """Ruling R-9: role revealed (1), Scavenger (3), Vulture Jr. (4), then glory (7)."""
    d = five_seats("vulture_jr", "grip", "scavenger", "three_eyes", "lucky", turn=2)
    d["seats"][2]["hand"] = ["shot"]
    d["seats"][3].update(hp=1, hand=["duel"])
    g = load(d)
    play(g, "play:shot@3", "take")
    seq = [e["t"] for e in g.events if e["t"] in ("eliminated", "scavenge", "draw", "star")]
    assert seq == ["eliminated", "scavenge", "draw"]
    assert events_of(g, "draw", seat=0, why="vulture_jr")
    assert (g.pending.seat, g.pending.kind) == (2, "upgrade")
    play(g, "upgrade:marksmanship")
    assert events_of(g, "star", seat=2, upgrade="marksmanship", why="glory")


def test_r9_marshal_kills_deputy_penalty():
    """Ruling R-9.5: if the Marshal eliminated a Deputy, the Marshal discards his hand, in-play
    cards and weapon."""
    d = five_seats()
    d["seats"][0].update(hand=["shot", "duel", "wagon"], in_play=["horse"], weapon="rifle")
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    m = g.seats[0]
    assert (m.hand, m.in_play, m.weapon) == ([], [], -1)
    assert events_of(g, "penalty", seat=0)
    assert {"duel", "wagon", "horse", "rifle"} <= set(types(g.discard))
    # the game goes on: glory for the eliminator, then Last Bullet for the Marshal (engine
    # behaviour; RULES.md does not exclude a Marshal who eliminated the last Deputy himself)
    assert (g.pending.seat, g.pending.kind) == (0, "upgrade")
    play(g, "upgrade:marksmanship")
    assert (g.pending.seat, g.pending.kind) == (0, "upgrade")
    play(g, "upgrade:toughness")
    whys = [e["why"] for e in events_of(g, "star", seat=0)]
    assert whys == ["glory", "last_bullet"]
    assert g.seats[0].upgrades == ["marksmanship", "toughness"]


def test_r9_no_penalty_when_marshal_kills_raider():
    """Ruling R-9.5: the penalty is only for eliminating a Deputy."""
    d = five_seats()
    d["seats"][0].update(hand=["shot", "duel"], weapon="rifle")
    d["seats"][2]["hp"] = 1
    g = load(d)
    play(g, "play:shot@2", "take")
    assert not events_of(g, "penalty")
    assert types(g.seats[0].hand) == ["duel"]
    assert weapon_type(g, 0) == "rifle"


def test_r9_order_scavenger_then_penalty_then_victory_no_glory():
    """Ruling R-9 order: Scavenger (3) before the penalty (5), victory (6) before glory (7): the
    Marshal (Scavenger) eliminates the last Deputy with nobody else alive — he takes the cards,
    loses them to the penalty, the law wins and nothing else happens."""
    d = five_seats("scavenger", "grip", "three_eyes", "empty_hands", "lucky")
    d["seats"][0].update(hand=["shot"], weapon="sawed_off")
    d["seats"][1].update(hp=1, hand=["duel.JS"], in_play=["horse.8H"])
    for i in (2, 3, 4):
        d["seats"][i]["hp"] = 0
    g = load(d)
    play(g, "play:shot@1", "take")
    seq = [e["t"] for e in g.events if e["t"] in ("eliminated", "scavenge", "penalty",
                                                  "game_over", "star")]  # fmt: skip
    assert seq == ["eliminated", "scavenge", "penalty", "game_over"]
    assert {"duel.JS", "horse.8H"} <= set(faces(g.discard))
    assert g.seats[0].hand == []
    assert g.winning_side == "law"
    assert set(g.winners) == {0, 1}
    assert g.pending is None
    assert g.seats[0].upgrades == []


def test_r9_victory_checked_before_glory():
    """Ruling R-9.6: if the game is over, nothing else happens (no glory decision)."""
    d = pos()
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1]["hp"] = 1
    d["seats"][2]["hp"] = 0
    d["seats"][3]["hp"] = 0
    g = load(d)
    play(g, "play:shot@1", "take")
    assert g.winning_side == "law"
    assert g.winners == (0,)
    assert g.pending is None
    assert not events_of(g, "star")


def test_r9_glory_star_and_upgrade_choice():
    """Ruling R-9.7: the eliminator gains a ★ and chooses an upgrade at once (marksmanship,
    toughness, instinct)."""
    d = pos()
    d["seats"][0]["hand"] = ["shot", "shot"]
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    assert g.pending.seat == 0
    assert g.pending.option_ids == ["upgrade:marksmanship", "upgrade:toughness",
                                    "upgrade:instinct"]  # fmt: skip
    play(g, "upgrade:marksmanship")
    assert g.seats[0].upgrades == ["marksmanship"]
    assert g.seats[0].stars == 1
    assert g.seats[0].weapon_range == 2
    assert (g.pending.seat, g.pending.kind) == (0, "play")


def test_r9_glory_toughness_raises_max_and_current():
    """Ruling R-9.7: toughness = +1 max ♥ and +1 ♥."""
    d = pos()
    d["seats"][0].update(hp=3, hand=["shot"])
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take", "upgrade:toughness")
    assert (g.seats[0].hp, g.seats[0].max_hp) == (4, 5)


def test_r9_instinct_once_per_player():
    """Ruling R-9.7: instinct once per player, never twice."""
    d = pos()
    d["seats"][0].update(hand=["shot"], upgrades=["instinct"])
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    assert "upgrade:instinct" not in g.pending.option_ids
    with pytest.raises(IllegalAction):
        g.apply("upgrade:instinct")


def test_r9_bounty_take_a_star_and_draw_per_star():
    """Ruling R-9.7 Bounty: if the victim had stars, the eliminator also takes one of them with
    its upgrade (his choice) and draws 1 card per star the victim had."""
    d = pos(deck=["duel.JS", "jail.4H", "horse.8H"])
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1].update(hp=1, max_hp=5, upgrades=["toughness", "marksmanship"])
    d["seats"][3]["character"] = "lucky"  # no Vulture Jr. drawing first
    g = load(d)
    play(g, "play:shot@1", "take", "upgrade:instinct")
    assert (g.pending.seat, g.pending.kind) == (0, "bounty")
    assert g.pending.option_ids == ["bounty:marksmanship", "bounty:toughness"]
    play(g, "bounty:toughness")
    assert g.seats[0].upgrades == ["instinct", "toughness"]
    assert (g.seats[0].hp, g.seats[0].max_hp) == (5, 5)
    assert g.seats[1].upgrades == ["marksmanship"]
    assert faces(g.seats[0].hand) == ["duel.JS", "jail.4H"]


def test_r9_last_bullet():
    """Ruling R-9.7 Last Bullet: when the last living Deputy is eliminated, the Marshal gains a
    ★ and chooses an upgrade (after the eliminator's glory)."""
    d = five_seats(turn=2)
    d["seats"][2].update(hand=["shot"], weapon="sawed_off")
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    assert (g.pending.seat, g.pending.kind) == (2, "upgrade")
    play(g, "upgrade:marksmanship")
    assert (g.pending.seat, g.pending.kind) == (0, "upgrade")
    play(g, "upgrade:toughness")
    assert events_of(g, "star", seat=0, upgrade="toughness", why="last_bullet")
    assert (g.seats[0].hp, g.seats[0].max_hp) == (5, 5)
    assert (g.pending.seat, g.pending.kind) == (2, "play")


def test_r9_no_last_bullet_while_a_deputy_lives():
    """Ruling R-9.7: Last Bullet only for the *last* living Deputy."""
    roles = ["marshal", "deputy", "raider", "raider", "loner", "deputy", "raider"]
    chars = ["red_suit", "grip", "three_eyes", "empty_hands", "lucky", "collector", "eagle_eye"]
    d = pos([seat(r, c) for r, c in zip(roles, chars, strict=True)], turn=2)
    d["seats"][2]["hand"] = ["shot"]
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take", "upgrade:marksmanship")
    assert (g.pending.seat, g.pending.kind) == (2, "play")
    assert g.seats[0].upgrades == []


def test_r9_old_classic_raider_eliminator_draws_three():
    """Ruling R-9.8: old_classic — whoever eliminates a raider draws 3 cards (no glory)."""
    d = pos(mode="old_classic", deck=["duel.JS", "jail.4H", "horse.8H", "scope.AS"])
    d["seats"][3]["character"] = "lucky"  # no Vulture Jr. drawing first
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][1]["hp"] = 1
    g = load(d)
    play(g, "play:shot@1", "take")
    assert faces(g.seats[0].hand) == ["duel.JS", "jail.4H", "horse.8H"]
    assert (g.pending.seat, g.pending.kind) == (0, "play")
    assert not events_of(g, "star")


def test_r9_old_classic_loner_eliminator_draws_nothing():
    """Ruling R-9.8: old_classic — the 3-card reward is only for eliminating a raider."""
    d = pos(mode="old_classic")
    d["seats"][0]["hand"] = ["shot"]
    d["seats"][3]["hp"] = 1
    g = load(d)
    play(g, "play:shot@3", "take")
    assert g.seats[0].hand == []
    assert (g.pending.seat, g.pending.kind) == (0, "play")


def test_r9_bounty_instinct_already_held_star_still_moves():
    """Ruling R-9.7 Bounty + "instinct … once per player, never twice": when the victim's only ★
    is Instinct and the eliminator already has Instinct, the engine still moves the ★ (documented
    in options.py) and the eliminator draws 1 card.  RULES.md is ambiguous here."""
    d = pos(deck=["duel.JS", "jail.4H"])
    d["seats"][0].update(hand=["shot"], upgrades=["instinct"])
    d["seats"][1].update(hp=1, upgrades=["instinct"])
    d["seats"][3]["character"] = "lucky"
    g = load(d)
    play(g, "play:shot@1", "take", "upgrade:toughness")
    assert g.pending.option_ids == ["bounty:instinct"]
    play(g, "bounty:instinct")
    assert g.seats[0].stars == 3
    assert g.seats[1].upgrades == []
    assert faces(g.seats[0].hand) == ["duel.JS"]


# ------------------------------------------------------------------- victory (RULES §8)
def _eight(roles: list[str]) -> dict:
    chars = ["red_suit", "grip", "three_eyes", "lucky", "collector", "empty_hands",
             "eagle_eye", "bonesetter"]  # fmt: skip
    return pos([seat(r, c) for r, c in zip(roles, chars, strict=True)])


EIGHT = ["marshal", "deputy", "raider", "raider", "loner", "deputy", "raider", "loner"]


def test_r9_victory_marshal_eliminated_raiders_win_including_eliminated():
    """RULES.md §8: Marshal eliminated (not only loners left) → the raiders team wins, eliminated
    raiders and the double agent too."""
    roles = ["marshal", "raider", "raider", "double_agent", "loner"]
    d = five_seats(turn=1)
    for i, r in enumerate(roles):
        d["seats"][i]["role"] = r
    d["seats"][2]["hp"] = 0  # an eliminated raider
    d["seats"][0]["hp"] = 1
    d["seats"][1]["hand"] = ["shot"]
    g = load(d)
    play(g, "play:shot@0", "take")
    assert g.winning_side == "raiders"
    assert set(g.winners) == {1, 2, 3}
    assert g.pending is None


def test_r9_victory_last_player_alive_is_loner():
    """RULES.md §8: Marshal eliminated and exactly one player alive, a loner → that loner wins."""
    d = pos(turn=3)
    d["seats"][0]["hp"] = 1
    d["seats"][1]["hp"] = 0
    d["seats"][2]["hp"] = 0
    d["seats"][3]["hand"] = ["shot"]
    g = load(d)
    play(g, "play:shot@0", "take")
    assert g.winners == (3,)
    assert g.winning_side in ("loner", "loners")


def test_r9_victory_partners_all_living_are_loners():
    """RULES.md §8: partners mode, Marshal eliminated and every living player a loner → all
    loners win (eliminated loners too)."""
    d = _eight(EIGHT)
    d["mode"] = "partners"
    d["turn"] = 7
    for i in (1, 2, 3, 4, 5, 6):
        d["seats"][i]["hp"] = 0
    d["seats"][0]["hp"] = 1
    d["seats"][7]["hand"] = ["shot"]
    g = load(d)
    play(g, "play:shot@0", "take")
    assert g.winning_side == "loners"
    assert set(g.winners) == {4, 7}


def test_r9_victory_classic_two_loners_left_raiders_win():
    """RULES.md §8: outside partners, Marshal eliminated with two loners alive → raiders win."""
    d = _eight(EIGHT)
    d["turn"] = 7
    for i in (1, 2, 3, 5, 6):
        d["seats"][i]["hp"] = 0
    d["seats"][0]["hp"] = 1
    d["seats"][7]["hand"] = ["shot"]
    g = load(d)
    play(g, "play:shot@0", "take")
    assert g.winning_side == "raiders"
    assert set(g.winners) == {2, 3, 6}


def test_r9_victory_law_wins_including_eliminated_deputies():
    """RULES.md §8: Marshal alive and no living raider, double agent or loner → law wins
    (eliminated deputies too)."""
    d = _eight(EIGHT)
    for i in (1, 2, 3, 6, 7):
        d["seats"][i]["hp"] = 0
    d["seats"][0].update(hand=["shot"], weapon="carbine")
    d["seats"][4]["hp"] = 1
    g = load(d)
    play(g, "play:shot@4", "take")
    assert g.winning_side == "law"
    assert set(g.winners) == {0, 1, 5}
