"""Scenario tests for ruling R-9 of RULES.md: what an elimination does, in order, and the
victory check of its step 6 (RULES §8)."""

from __future__ import annotations

import pytest

from harness.engine import IllegalAction, build_view

from .helpers import events_of, faces, load, play, pos, seat, types, weapon_type


def five_seats(*chars: str, **kw) -> dict:
    """5 seats: marshal, deputy, raider, raider, loner (characters given or plain)."""
    chars = chars or ("red_suit", "grip", "three_eyes", "empty_hands", "lucky")
    roles = ("marshal", "deputy", "raider", "raider", "loner")
    return pos([seat(r, c) for r, c in zip(roles, chars, strict=True)], **kw)


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
