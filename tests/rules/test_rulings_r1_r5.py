"""Scenario tests for rulings R-1 … R-5 of RULES.md: the deck, the Marshal's hand adjustment,
who knows whom in double_agent, High Noon, and the simplest move."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction, build_view, simplest_action
from harness.engine.cards import CARD_FACE, CARD_RANK, CARD_SUIT, CARD_TYPE

from .helpers import events_of, faces, load, play, pos, seat


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
