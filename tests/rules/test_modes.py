"""Scenario tests for the role modes (RULES.md §1 "Roles, teams, modes", §2, and the
old_classic differences of §3, §5, §6, §7; Rulings R-2, R-3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from harness.engine import Game, build_view
from harness.engine.cards import CARD_FACE

from .helpers import events_of, load, play, pos, seat, types

ROLES = ("marshal", "deputy", "raider", "loner", "double_agent")
# RULES.md §1 composition tables: seats → (marshal, deputy, raider, loner, double agent)
CLASSIC = {
    4: (1, 0, 2, 1, 0),
    5: (1, 1, 2, 1, 0),
    6: (1, 1, 3, 1, 0),
    7: (1, 2, 3, 1, 0),
    8: (1, 2, 3, 2, 0),
}
DOUBLE_AGENT = {
    5: (1, 1, 1, 1, 1),
    6: (1, 1, 2, 1, 1),
    7: (1, 2, 2, 1, 1),
    8: (1, 2, 2, 2, 1),
}


def expected_roles(n: int, mode: str) -> Counter:
    table = DOUBLE_AGENT if mode == "double_agent" and n >= 5 else CLASSIC
    return Counter({r: k for r, k in zip(ROLES, table[n], strict=True) if k})


def four(mode: str = "classic", **kw) -> dict:
    """A 4-seat table: marshal (lucky, 6/6 ♥), raider (two_face), raider (eagle_eye), loner
    (mad_dog), all at full ♥ with empty hands; ``s0={...}``..``s3={...}`` override seats."""
    seats = [
        seat("marshal", "lucky", 6),
        seat("raider", "two_face"),
        seat("raider", "eagle_eye"),
        seat("loner", "mad_dog"),
    ]
    for i in range(4):
        seats[i].update(kw.pop(f"s{i}", {}))
    return pos(seats, mode=mode, **kw)


# ------------------------------------------------------------------------- compositions
@pytest.mark.parametrize("mode", ["classic", "partners", "old_classic", "double_agent"])
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_role_composition(n: int, mode: str) -> None:
    """RULES.md §1: compositions for 4–8 seats; double_agent (5+) turns one raider into the
    double agent; a 4-seat double_agent table plays classic; the view shows the composition."""
    want = expected_roles(n, mode)
    for seed in range(8):
        g = Game.new(n, mode, seed)
        assert Counter(s.role for s in g.seats) == want
        assert build_view(g, 0).composition == dict(want)
        assert g.seats[g.marshal].role == "marshal"


def test_double_agent_four_seats_plays_classic() -> None:
    """RULES.md §1: a 4-seat double_agent table plays classic — no double agent, no intel."""
    for seed in range(10):
        g = Game.new(4, "double_agent", seed)
        assert sorted(s.role for s in g.seats) == ["loner", "marshal", "raider", "raider"]
        assert all(s.marshal_pair is None and s.known_roles == {} for s in g.seats)


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_partners_below_8_plays_exactly_as_classic(n: int) -> None:
    """RULES.md §1: partners with fewer than 8 seats plays exactly as classic — same deal, same
    options at every decision, same result."""
    for seed in range(3):
        runs = []
        for mode in ("classic", "partners"):
            g = Game.new(n, mode, seed)
            rng = random.Random(seed)
            option_log = []
            while g.pending is not None:
                option_log.append(tuple(g.pending.option_ids))
                g.apply(rng.choice(g.pending.options))
            events = [{k: v for k, v in e.items() if k != "mode"} for e in g.events]
            runs.append((option_log, events, g.winning_side, g.winners))
        assert runs[0] == runs[1]
        assert runs[0][2] is not None


# --------------------------------------------------------------------- double_agent intel
@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_double_agent_marshal_pair_and_raider_team_knowledge(n: int) -> None:
    """RULES.md §2 + Ruling R-3: the Marshal's view has `marshal_pair` = one real deputy and the
    double agent; every raiders-team member knows every other; nobody else learns roles."""
    for seed in range(12):
        g = Game.new(n, "double_agent", seed)
        m = g.marshal
        pair = build_view(g, m).marshal_pair
        assert pair is not None
        assert sorted(g.seats[i].role for i in pair) == ["deputy", "double_agent"]
        team = {s.index for s in g.seats if s.role in ("raider", "double_agent")}
        for s in g.seats:
            v = build_view(g, s.index)
            if s.index != m:
                assert v.marshal_pair is None
            if s.index in team:
                assert v.known_roles == {j: g.seats[j].role for j in team - {s.index}}
            else:
                assert v.known_roles == {}
        # the intel is private: another seat sees the event without its secret
        intel = [e for e in build_view(g, (m + 1) % n).events if e["t"] == "intel"]
        assert all("deputy_or_agent" not in e for e in intel)


@pytest.mark.parametrize("mode", ["classic", "partners", "old_classic"])
def test_raiders_do_not_know_each_other_outside_double_agent(mode: str) -> None:
    """Ruling R-3: in all other modes raiders do not know each other; no `marshal_pair`."""
    for seed in range(5):
        g = Game.new(8, mode, seed)
        for s in g.seats:
            v = build_view(g, s.index)
            assert v.known_roles == {} and v.marshal_pair is None


# --------------------------------------------------------------------------- old_classic
def test_old_classic_no_high_noon() -> None:
    """RULES.md §3: old_classic has no High Noon — at round 9 the Shot limit still holds."""
    g = load(four("old_classic", round=9, s0={"hand": ["shot", "shot"]}))
    assert build_view(g, 0).high_noon is False
    play(g, "play:shot@1", "take")
    assert not any(a.startswith("play:shot") for a in g.pending.option_ids)
    # the same position in classic is High Noon: a second Shot is legal
    g = load(four("classic", round=9, s0={"hand": ["shot", "shot"]}))
    assert build_view(g, 0).high_noon is True
    play(g, "play:shot@1", "take")
    assert "play:shot@1" in g.pending.option_ids


def test_old_classic_round_8_starts_no_high_noon() -> None:
    """RULES.md §3: reaching round 8 in old_classic emits no High Noon."""
    g = load(four("old_classic", round=7, turn=3, s0={"hand": ["shot", "shot"]}))
    g.apply("end")
    assert g.round == 8 and g.turn == 0
    assert not events_of(g, "high_noon")
    assert build_view(g, 0).high_noon is False


def test_old_classic_cover_in_round_9_still_triggers() -> None:
    """RULES.md §3/§6: no High Noon in old_classic, so Cover still checks at round 9."""
    g = load(four("old_classic", round=9, s0={"hand": ["shot"]}, s1={"in_play": ["cover"]},
                  deck=["flask.6H"]))  # fmt: skip
    g.apply("play:shot@1")
    assert g.seats[1].hp == 4
    assert events_of(g, "miss", seat=1)[0]["how"] == "cover"


@pytest.mark.parametrize(("top", "blocked"), [("flask.6H", True), ("shot.3D", False)])
def test_old_classic_cover_reveals_a_card(top: str, blocked: bool) -> None:
    """RULES.md §6: old_classic Cover reveals a card (♥ = blocked) instead of a coin; forced
    coins are not used."""
    g = load(four("old_classic", s0={"hand": ["shot"]}, s1={"in_play": ["cover"]},
                  deck=[top], coins=[not blocked]))  # fmt: skip
    g.apply("play:shot@1")
    assert events_of(g, "check", seat=1) == [{"t": "check", "seat": 1, "for": "cover", "card": top}]
    assert not events_of(g, "coin")
    assert top in [CARD_FACE[c] for c in g.discard]
    if blocked:
        assert g.pending.seat == 0 and g.seats[1].hp == 4
    else:
        assert g.pending.seat == 1 and g.pending.kind == "respond_shot"


def test_classic_cover_is_a_coin() -> None:
    """RULES.md §6 (control): outside old_classic Cover is a coin and reveals no card."""
    g = load(four("classic", s0={"hand": ["shot"]}, s1={"in_play": ["cover"]},
                  deck=["flask.6H"], coins=[False]))  # fmt: skip
    g.apply("play:shot@1")
    assert len(events_of(g, "coin", seat=1)) == 1
    assert not events_of(g, "check")
    assert g.pending.seat == 1 and g.pending.kind == "respond_shot"


def test_old_classic_failed_jail_skips_whole_turn() -> None:
    """RULES.md §6: old_classic failed Jail skips the whole turn — no draw, no play."""
    g = load(four("old_classic", phase="start", turn=1,
                  s1={"in_play": ["jail"], "hand": ["shot"]}, deck=["shot.4C", "wagon", "caravan"]))  # fmt: skip
    assert events_of(g, "jail", seat=1)[0]["free"] is False
    assert types(g.seats[1].hand) == ["shot"]
    assert not events_of(g, "draw", seat=1)
    assert g.turn == 2 and g.pending.seat == 2
    assert types(g.seats[2].hand) == ["wagon", "caravan"]
    assert g.seats[1].in_play == []


def test_classic_failed_jail_draws_but_plays_nothing() -> None:
    """RULES.md §6 (control): in classic a failed Jail still draws, then goes to the discard
    step without a play decision."""
    g = load(four("classic", phase="start", turn=1,
                  s1={"in_play": ["jail"], "hand": ["shot"]}, deck=["shot.4C", "wagon", "caravan"]))  # fmt: skip
    assert types(g.seats[1].hand) == ["shot", "wagon", "caravan"]
    assert not [e for e in g.events if e["t"] == "play"]
    assert g.turn == 2


def test_old_classic_flask_not_legal_with_two_alive() -> None:
    """RULES.md §5: old_classic Flask heals nothing with 2 players alive, so it is not legal;
    in classic it is (at less than max ♥)."""
    for mode, legal in (("old_classic", False), ("classic", True)):
        g = load(four(mode, s0={"hp": 3, "hand": ["flask"]}, s2={"hp": 0}, s3={"hp": 0}))
        assert ("play:flask" in g.pending.option_ids) is legal, mode
    g = load(four("old_classic", s0={"hp": 3, "hand": ["flask"]}, s3={"hp": 0}))
    assert "play:flask" in g.pending.option_ids  # 3 alive


def test_old_classic_no_glory_raider_eliminator_draws_three() -> None:
    """RULES.md §7.8: old_classic has no glory stars; whoever eliminates a raider draws 3."""
    g = load(four("old_classic", s0={"hand": ["shot"]}, s1={"hp": 1},
                  deck=["wagon", "caravan", "duel", "bazaar"]))  # fmt: skip
    play(g, "play:shot@1", "take")
    assert not g.seats[1].alive
    assert g.seats[0].upgrades == []
    assert not events_of(g, "star")
    assert types(g.seats[0].hand) == ["wagon", "caravan", "duel"]
    assert g.pending.seat == 0 and g.pending.kind == "play"


def test_old_classic_eliminating_loner_draws_nothing() -> None:
    """RULES.md §7.8: the old_classic reward is for raiders only, and there is no ★."""
    g = load(four("old_classic", s0={"hand": ["shot", "shot"], "weapon": "rifle"}, s3={"hp": 1},
                  deck=["wagon", "caravan", "duel"]))  # fmt: skip
    play(g, "play:shot@3", "take")
    assert not g.seats[3].alive
    assert types(g.seats[0].hand) == ["shot"]
    assert g.pending.kind == "play" and g.seats[0].upgrades == []


def test_classic_glory_instead_of_reward() -> None:
    """RULES.md §7.7 (control): in classic the eliminator of a raider gets a ★, not 3 cards."""
    g = load(four("classic", s0={"hand": ["shot"]}, s1={"hp": 1}, deck=["wagon", "caravan"]))
    play(g, "play:shot@1", "take")
    assert g.pending.seat == 0 and g.pending.kind == "upgrade"
    assert g.seats[0].hand == []


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_old_classic_marshal_plus_one_and_no_hand_adjustment(n: int) -> None:
    """RULES.md §2 + Ruling R-2: old_classic Marshal +1 ♥ at every size; hand = ♥ for everyone;
    Stone Leopard has 4 ♥."""
    base = {"stone_leopard": 4, "collector": 3, "pass_shadow": 3, "bonesetter": 5}
    for seed in range(20):
        g = Game.new(n, "old_classic", seed)
        deals = {e["seat"]: e["n"] for e in events_of(g, "draw", why="deal")}
        for s in g.seats:
            want = base.get(s.character, 4) + (1 if s.role == "marshal" else 0)
            assert s.max_hp == want
            assert deals[s.index] == want


def test_double_agent_pair_order_and_deputy_are_random() -> None:
    """RULES.md §2: the two names come in random order, and with two Deputies the real one is
    chosen at random."""
    first_roles = set()
    chosen_rank = set()  # 0: the lower-seated Deputy, 1: the higher-seated one
    for seed in range(40):
        g = Game.new(8, "double_agent", seed)
        pair = g.seats[g.marshal].marshal_pair
        first_roles.add(g.seats[pair[0]].role)
        deputies = sorted(s.index for s in g.seats if s.role == "deputy")
        (dep,) = [i for i in pair if g.seats[i].role == "deputy"]
        chosen_rank.add(deputies.index(dep))
    assert first_roles == {"deputy", "double_agent"}
    assert chosen_rank == {0, 1}
