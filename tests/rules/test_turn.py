"""Scenario tests for a turn (RULES.md §3) and glory (§7; Ruling R-4, R-9)."""

from __future__ import annotations

import pytest

from harness.engine import Game, IllegalAction, build_view
from harness.engine.cards import CARD_FACE

from .helpers import events_of, load, play, pos, seat, types

# Characters without turn-flow abilities (no draw-phase choice, no extra draws).
PLAIN5 = ("lucky", "two_face", "eagle_eye", "double_barrel", "collector")


def table(roles: tuple[str, ...], chars: tuple[str, ...] = PLAIN5, **kw) -> dict:
    """A position with the given roles (everyone 4/4 ♥, empty hands); ``s<i>={...}`` overrides
    seat i; other keywords are top-level position fields."""
    seats = [seat(r, c) for r, c in zip(roles, chars, strict=False)]
    for i in range(len(seats)):
        seats[i].update(kw.pop(f"s{i}", {}))
    return pos(seats, **kw)


FOUR = ("marshal", "raider", "raider", "loner")
FIVE = ("marshal", "deputy", "raider", "raider", "loner")


def turn_seats(g: Game) -> list[int]:
    return [e["seat"] for e in events_of(g, "turn")]


# ------------------------------------------------------------------------- turn order
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_marshal_takes_first_turn(n: int) -> None:
    """RULES.md §2: the Marshal takes the first turn, in round 1."""
    for seed in range(10):
        g = Game.new(n, "classic", seed)
        first = events_of(g, "turn")[0]
        assert first == {"t": "turn", "seat": g.marshal, "round": 1}
        assert g.turn == g.marshal and g.pending.seat == g.marshal


def test_turn_order_skips_eliminated() -> None:
    """RULES.md §2: turns go by seat order, skipping eliminated players."""
    g = load(table(FIVE, s1={"hp": 0}, s2={"hp": 0}))
    g.apply("end")
    assert g.turn == 3 and g.pending.seat == 3
    g.apply("end")
    assert g.turn == 4
    g.apply("end")
    assert g.turn == 0
    assert turn_seats(g) == [3, 4, 0]


def test_round_counts_marshal_turns() -> None:
    """RULES.md §3: the round number counts the Marshal's turns (it goes up when his turn
    begins, not when seat 0's does)."""
    roles = ("raider", "loner", "marshal", "raider")
    g = load(table(roles, round=3, turn=0))
    g.apply("end")
    assert g.turn == 1 and g.round == 3
    g.apply("end")
    assert g.turn == 2 and g.round == 4
    assert events_of(g, "turn")[-1] == {"t": "turn", "seat": 2, "round": 4}
    g.apply("end")
    g.apply("end")
    assert g.turn == 0 and g.round == 4
    assert build_view(g, 1).round == 4


# ------------------------------------------------------------------------- High Noon
def test_high_noon_starts_at_round_8() -> None:
    """RULES.md §3: from the start of round 8 High Noon holds — unlimited Shots."""
    g = load(table(FOUR, round=7, turn=3, s0={"hand": ["shot", "shot", "shot"]}))
    assert build_view(g, 0).high_noon is False
    g.apply("end")
    assert g.round == 8 and g.turn == 0
    assert events_of(g, "high_noon") == [{"t": "high_noon", "round": 8}]
    assert build_view(g, 2).high_noon is True
    play(g, "play:shot@1", "take", "play:shot@1", "take")
    assert g.seats[1].hp == 2 and "play:shot@1" in g.pending.option_ids


def test_round_7_shot_limit_still_holds() -> None:
    """RULES.md §3 (control): before round 8 the one-Shot limit holds."""
    g = load(table(FOUR, round=7, s0={"hand": ["shot", "shot"]}))
    play(g, "play:shot@1", "take")
    assert not any(a.startswith("play:shot") for a in g.pending.option_ids)
    with pytest.raises(IllegalAction):
        g.apply("play:shot@1")


@pytest.mark.parametrize("character", ["lucky", "iron_brow"])
def test_high_noon_cover_never_triggers(character: str) -> None:
    """RULES.md §3: in High Noon Cover (card or built-in) never triggers — no coin at all."""
    g = load(table(FOUR, ("two_face", character, "eagle_eye", "collector"), round=8,
                   s0={"hand": ["shot"]}, s1={"in_play": ["cover"]}, coins=[True, True]))  # fmt: skip
    g.apply("play:shot@1")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"
    assert not events_of(g, "coin")
    assert list(g.coins) == [True, True]


def test_cover_triggers_before_high_noon() -> None:
    """RULES.md §5 (control): at round 7 the same Cover coin blocks the Shot."""
    g = load(table(FOUR, round=7, s0={"hand": ["shot"]}, s1={"in_play": ["cover"]}, coins=[True]))
    g.apply("play:shot@1")
    assert g.seats[1].hp == 4 and g.pending.seat == 0


def test_high_noon_healing_not_legal() -> None:
    """RULES.md §3 + Ruling R-4: in High Noon Flask (on your turn) and Saloon are not legal."""
    d = table(FOUR, round=8, s0={"hp": 2, "hand": ["flask", "saloon"]}, s1={"hp": 2})
    g = load(d)
    assert g.pending.option_ids == ["end"]
    for a in ("play:flask", "play:saloon"):
        with pytest.raises(IllegalAction):
            g.apply(a)
    d["round"] = 7
    assert load(d).pending.option_ids == ["play:flask", "play:saloon", "end"]


def test_high_noon_flask_response_not_legal() -> None:
    """RULES.md §3/§5 + Ruling R-4: the Flask response at 1 ♥ is not legal in High Noon."""
    d = table(FOUR, round=8, s0={"hand": ["shot"]}, s1={"hp": 1, "hand": ["flask"]})
    g = load(d)
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["take"]
    d["round"] = 7
    g = load(d)
    g.apply("play:shot@1")
    assert g.pending.option_ids == ["flask", "take"]


def test_high_noon_toughness_still_works() -> None:
    """RULES.md §3: Toughness raises max and current ♥ even in High Noon."""
    g = load(table(FOUR, round=9, s0={"hp": 3, "hand": ["shot"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take", "upgrade:toughness")
    assert (g.seats[0].hp, g.seats[0].max_hp) == (4, 5)


# -------------------------------------------------------------------------- hand limit
def test_hand_limit_discard_to_current_hp() -> None:
    """RULES.md §3.4: after ending the turn, discard down to current ♥ (not max), one
    `discard:<type>` decision per card, the player choosing which."""
    g = load(table(FOUR, s0={"hp": 2, "max_hp": 6, "hand": ["wagon", "duel", "shot", "duel"]}))
    g.apply("end")
    assert g.pending.seat == 0 and g.pending.kind == "discard"
    assert g.pending.option_ids == ["discard:shot", "discard:duel", "discard:wagon"]
    g.apply("discard:duel")
    assert g.pending.kind == "discard" and g.turn == 0
    with pytest.raises(IllegalAction):
        g.apply("discard:caravan")
    g.apply("discard:shot")
    assert types(g.seats[0].hand) == ["wagon", "duel"]
    assert sorted(types(g.discard)) == ["duel", "shot"]
    assert g.turn == 1 and g.pending.seat == 1


def test_no_discard_when_hand_within_hp() -> None:
    """RULES.md §3.4: no discard when hand ≤ current ♥."""
    g = load(table(FOUR, s0={"hp": 3, "hand": ["wagon", "duel", "shot"]}))
    g.apply("end")
    assert g.turn == 1 and len(g.seats[0].hand) == 3


# ------------------------------------------------------------------------------ checks
def test_checks_dynamite_before_jail() -> None:
    """RULES.md §3.1/§6: Dynamite is checked first, then Jail (the first revealed card, a ♥,
    goes to the Dynamite check, so the Jail check fails on the ♣)."""
    g = load(table(FOUR, phase="start", turn=1, s1={"in_play": ["jail", "dynamite"]},
                   deck=["shot.KH", "shot.4C", "wagon", "caravan"]))  # fmt: skip
    checks = events_of(g, "check", seat=1)
    assert [(e["for"], e["card"]) for e in checks] == [("dynamite", "shot.KH"), ("jail", "shot.4C")]
    assert events_of(g, "jail", seat=1)[0]["free"] is False
    assert events_of(g, "dynamite", seat=1) == [
        {"t": "dynamite", "seat": 1, "blast": False, "to_seat": 2}
    ]
    assert g.seats[1].in_play == [] and g.seats[1].hp == 4
    assert g.turn == 2  # jailed: drew, played nothing


def test_marshal_can_never_be_jailed() -> None:
    """RULES.md §6: the Marshal can never be jailed."""
    g = load(table(FOUR, turn=1, s1={"hand": ["jail"]}))
    assert g.pending.option_ids == ["play:jail@2", "play:jail@3", "end"]


# ------------------------------------------------------------------------------- glory
def test_glory_eliminator_gains_star_and_chooses() -> None:
    """RULES.md §7.7: the eliminator gains a ★ and chooses an upgrade at once."""
    g = load(table(FOUR, s0={"hand": ["shot"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take")
    assert g.pending.seat == 0 and g.pending.kind == "upgrade"
    assert g.pending.option_ids == ["upgrade:marksmanship", "upgrade:toughness", "upgrade:instinct"]
    assert build_view(g, 2).pending.context == {"seat": 0, "why": "glory"}
    g.apply("upgrade:marksmanship")
    assert g.seats[0].upgrades == ["marksmanship"]
    assert g.pending.seat == 0 and g.pending.kind == "play"


def test_marksmanship_adds_one_range() -> None:
    """RULES.md §4/§7: Marksmanship +1 range — a Revolver reaches distance 2."""
    d = table(FOUR, s0={"hand": ["shot"]})
    assert "play:shot@2" not in load(d).pending.option_ids
    d["seats"][0]["upgrades"] = ["marksmanship"]
    g = load(d)
    assert g.seats[0].weapon_range == 2
    assert "play:shot@2" in g.pending.option_ids
    assert build_view(g, 1).seats[0].weapon_range == 2


def test_toughness_adds_max_and_current_hp() -> None:
    """RULES.md §7: Toughness +1 max ♥ and +1 ♥."""
    g = load(table(FOUR, s0={"hp": 2, "hand": ["shot"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take", "upgrade:toughness")
    assert (g.seats[0].hp, g.seats[0].max_hp) == (3, 5)


def test_instinct_draw_looks_at_one_extra_and_puts_one_back() -> None:
    """RULES.md §7: Instinct — deck draws look at one extra card (3 for 2) and put one back on
    top; the put-back card shows in the seat's `known_deck_top`."""
    g = load(table(FOUR, phase="draw", s0={"upgrades": ["instinct"]},
                   deck=["wagon.9S", "duel.JS", "caravan.3H", "bazaar.QS"]))  # fmt: skip
    assert g.pending.kind == "putback"
    assert g.pending.option_ids == ["putback:wagon.9S", "putback:duel.JS", "putback:caravan.3H"]
    g.apply("putback:caravan.3H")
    assert [CARD_FACE[c] for c in g.seats[0].hand] == ["wagon.9S", "duel.JS"]
    assert CARD_FACE[g.deck[-1]] == "caravan.3H"
    assert build_view(g, 0).known_deck_top == ("caravan.3H",)
    assert build_view(g, 1).known_deck_top == ()


def test_instinct_cannot_be_chosen_twice() -> None:
    """RULES.md §7: Instinct once per player, never twice."""
    g = load(table(FOUR, s0={"hand": ["shot"], "upgrades": ["instinct"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take")
    assert g.pending.option_ids == ["upgrade:marksmanship", "upgrade:toughness"]
    with pytest.raises(IllegalAction):
        g.apply("upgrade:instinct")


def test_no_glory_for_dynamite_elimination() -> None:
    """RULES.md §7 / Ruling R-9.2: a Dynamite elimination has no eliminator, so no ★."""
    g = load(table(FIVE, phase="start", turn=2, s2={"hp": 3, "in_play": ["dynamite"]},
                   deck=["ricochet.5S"]))  # fmt: skip
    assert not g.seats[2].alive
    assert events_of(g, "eliminated", seat=2)[0]["by"] == -1
    assert not events_of(g, "star")
    assert g.turn == 3 and g.pending.kind == "play"


def test_bounty_take_one_star_and_draw_per_star() -> None:
    """RULES.md §7 (Bounty): eliminating a player with stars — after his own ★, the eliminator
    takes one of the victim's stars with its upgrade (`bounty:<upgrade>`) and draws 1 card per
    star the victim had."""
    g = load(table(FOUR, s0={"hp": 3, "hand": ["shot"]},
                   s1={"hp": 1, "max_hp": 5, "upgrades": ["marksmanship", "toughness"]},
                   deck=["wagon", "caravan", "duel"]))  # fmt: skip
    play(g, "play:shot@1", "take")
    assert g.pending.kind == "upgrade"
    g.apply("upgrade:instinct")
    assert g.pending.seat == 0 and g.pending.kind == "bounty"
    assert g.pending.option_ids == ["bounty:marksmanship", "bounty:toughness"]
    g.apply("bounty:toughness")
    s = g.seats[0]
    assert s.upgrades == ["instinct", "toughness"]
    assert (s.hp, s.max_hp) == (4, 5)
    assert types(s.hand) == ["wagon", "caravan"]
    assert g.pending.kind == "play"


def test_no_bounty_without_victim_stars() -> None:
    """RULES.md §7 (Bounty): no stars on the victim → no bounty decision, no extra cards."""
    g = load(table(FOUR, s0={"hand": ["shot"]}, s1={"hp": 1}, deck=["wagon"]))
    play(g, "play:shot@1", "take", "upgrade:toughness")
    assert g.pending.kind == "play" and g.seats[0].hand == []


def test_last_bullet_marshal_gains_star() -> None:
    """RULES.md §7 (Last Bullet): the last living Deputy is eliminated → after the
    eliminator's ★ the Marshal gains a ★ and chooses."""
    g = load(table(FIVE, turn=2, s2={"hand": ["shot"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take")
    assert (g.pending.seat, g.pending.kind) == (2, "upgrade")
    g.apply("upgrade:marksmanship")
    assert (g.pending.seat, g.pending.kind) == (0, "upgrade")
    assert build_view(g, 0).pending.context == {"seat": 0, "why": "last_bullet"}
    g.apply("upgrade:toughness")
    assert g.seats[0].upgrades == ["toughness"] and g.seats[0].max_hp == 5
    assert (g.pending.seat, g.pending.kind) == (2, "play")


def test_no_last_bullet_while_a_deputy_lives() -> None:
    """RULES.md §7 (Last Bullet, control): with another Deputy alive there is no Marshal ★."""
    roles = ("marshal", "deputy", "raider", "deputy", "loner")
    g = load(table(roles, turn=2, s2={"hand": ["shot"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take", "upgrade:marksmanship")
    assert (g.pending.seat, g.pending.kind) == (2, "play")
    assert g.seats[0].upgrades == []


def test_penalty_marshal_eliminates_deputy() -> None:
    """Ruling R-9.5: the Marshal eliminates a Deputy → discards hand, in-play cards and weapon."""
    roles = ("marshal", "deputy", "raider", "deputy", "loner")
    g = load(table(roles, s0={"hand": ["shot", "wagon", "duel"], "in_play": ["horse", "scope"],
                              "weapon": "rifle"}, s1={"hp": 1}))  # fmt: skip
    play(g, "play:shot@1", "take")
    m = g.seats[0]
    assert m.hand == [] and m.in_play == [] and m.weapon == -1
    assert {"wagon", "duel", "horse", "scope", "rifle"} <= set(types(g.discard))
    assert events_of(g, "penalty", seat=0)
    assert g.pending.seat == 0 and g.pending.kind == "upgrade"  # glory still follows


def test_no_penalty_for_eliminating_raider() -> None:
    """Ruling R-9.5 (control): eliminating a raider costs the Marshal nothing."""
    roles = ("marshal", "deputy", "raider", "loner", "raider")
    g = load(table(roles, s0={"hand": ["shot", "wagon"], "weapon": "rifle"}, s4={"hp": 1}))
    play(g, "play:shot@4", "take")
    assert types(g.seats[0].hand) == ["wagon"] and g.seats[0].weapon >= 0
    assert not events_of(g, "penalty")


def test_marshal_eliminates_last_deputy_penalty_glory_and_last_bullet() -> None:
    """Ruling R-9 steps 5 and 7: the Marshal eliminating the last Deputy pays the penalty, then
    gains his glory ★ and the Last Bullet ★ (RULES.md does not exclude the Marshal as the
    eliminator; the engine gives both)."""
    roles = ("marshal", "deputy", "raider", "loner", "raider")
    g = load(table(roles, s0={"hand": ["shot", "wagon"]}, s1={"hp": 1}))
    play(g, "play:shot@1", "take")
    assert g.seats[0].hand == []
    assert build_view(g, 0).pending.context == {"seat": 0, "why": "glory"}
    g.apply("upgrade:toughness")
    assert build_view(g, 0).pending.context == {"seat": 0, "why": "last_bullet"}
    g.apply("upgrade:marksmanship")
    assert g.seats[0].upgrades == ["toughness", "marksmanship"]
    assert g.pending.kind == "play"


def test_bounty_instinct_star_when_eliminator_has_instinct() -> None:
    """RULES.md §7 (Bounty vs "instinct never twice") is silent on a victim whose only ★ is
    Instinct when the eliminator already has it; the engine still moves the ★ (its only
    option is `bounty:instinct`) and draws 1 card for it."""
    g = load(table(FOUR, s0={"hand": ["shot"], "upgrades": ["instinct"]},
                   s1={"hp": 1, "upgrades": ["instinct"]}, deck=["wagon"]))  # fmt: skip
    play(g, "play:shot@1", "take", "upgrade:toughness")
    assert g.pending.option_ids == ["bounty:instinct"]
    g.apply("bounty:instinct")
    assert g.seats[0].stars == 3
    assert types(g.seats[0].hand) == ["wagon"]
