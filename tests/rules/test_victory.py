"""Scenario tests for victory (RULES.md §8) and the end of the game (Ruling R-9 step 6)."""

from __future__ import annotations

import pytest

from harness.engine import GameOver, build_view

from .helpers import events_of, load, play, pos, seat

CHARS = ("lucky", "two_face", "eagle_eye", "double_barrel", "collector", "red_suit", "iron_brow",
         "pass_shadow")  # fmt: skip


def table(roles: tuple[str, ...], mode: str = "classic", **kw) -> dict:
    """Everyone 4/4 ♥ with empty hands; ``s<i>={...}`` overrides seat i (``hp=0``: eliminated)."""
    seats = [seat(r, c) for r, c in zip(roles, CHARS, strict=False)]
    for i in range(len(seats)):
        seats[i].update(kw.pop(f"s{i}", {}))
    return pos(seats, mode=mode, **kw)


def assert_over(g, side: str, winners: tuple[int, ...]) -> None:
    assert g.winning_side == side
    assert g.winners == winners
    assert g.pending is None
    assert events_of(g, "game_over") == [{"t": "game_over", "side": side, "winners": list(winners)}]
    with pytest.raises(GameOver):
        g.apply("end")


# ------------------------------------------------------------------ Marshal eliminated
def test_marshal_eliminated_raiders_win_including_eliminated() -> None:
    """RULES.md §8: Marshal eliminated → the raiders team wins, eliminated raiders too."""
    roles = ("marshal", "deputy", "raider", "raider", "loner")
    g = load(table(roles, turn=4, s0={"hp": 1}, s2={"hp": 0}, s4={"hand": ["shot"]}))
    play(g, "play:shot@0", "take")
    # a loner shot the Marshal, but with a raider alive the raiders team wins
    assert_over(g, "raiders", (2, 3))


def test_marshal_eliminated_double_agent_wins_with_raiders() -> None:
    """RULES.md §1/§8: the double agent is on the raiders team — he wins with them (and the
    eliminated raider wins too)."""
    roles = ("marshal", "deputy", "raider", "double_agent", "loner")
    g = load(table(roles, "double_agent", turn=1, s0={"hp": 1}, s2={"hp": 0},
                   s1={"hand": ["shot"]}))  # fmt: skip
    play(g, "play:shot@0", "take")
    assert_over(g, "raiders", (2, 3))


def test_marshal_eliminated_eliminated_double_agent_wins_too() -> None:
    """RULES.md §8: an eliminated double agent also wins when a raider brings the Marshal down."""
    roles = ("marshal", "deputy", "raider", "double_agent", "loner")
    g = load(table(roles, "double_agent", turn=2, s0={"hp": 1}, s3={"hp": 0},
                   s2={"hand": ["shot"], "weapon": "rifle"}))  # fmt: skip
    play(g, "play:shot@0", "take")
    assert_over(g, "raiders", (2, 3))


def test_marshal_eliminated_by_dynamite_raiders_win() -> None:
    """RULES.md §8: the Marshal's elimination by Dynamite (no eliminator) also ends the game."""
    g = load(table(("marshal", "raider", "raider", "loner"), phase="start",
                   s0={"hp": 3, "in_play": ["dynamite"]}, deck=["ricochet.5S"]))  # fmt: skip
    assert_over(g, "raiders", (1, 2))


def test_marshal_eliminated_lone_loner_wins() -> None:
    """RULES.md §8: Marshal eliminated with exactly one player alive, a loner → that loner wins."""
    roles = ("marshal", "deputy", "raider", "raider", "loner")
    g = load(table(roles, turn=4, s0={"hp": 1}, s1={"hp": 0}, s2={"hp": 0}, s3={"hp": 0},
                   s4={"hand": ["shot"]}))  # fmt: skip
    play(g, "play:shot@0", "take")
    assert_over(g, "loner", (4,))


def test_marshal_eliminated_last_alive_raider_raiders_win() -> None:
    """RULES.md §8 (control): exactly one player alive who is a raider → the raiders team."""
    roles = ("marshal", "deputy", "raider", "raider", "loner")
    g = load(table(roles, turn=2, s0={"hp": 1}, s1={"hp": 0}, s3={"hp": 0}, s4={"hp": 0},
                   s2={"hand": ["shot"], "weapon": "rifle"}))  # fmt: skip
    play(g, "play:shot@0", "take")
    assert_over(g, "raiders", (2, 3))


def test_partners_8_only_loners_alive_all_loners_win() -> None:
    """RULES.md §8: partners at 8 seats, every living player a loner when the Marshal falls →
    all loners win, eliminated loners too."""
    roles = ("marshal", "deputy", "raider", "raider", "deputy", "raider", "loner", "loner")
    dead = {f"s{i}": {"hp": 0} for i in (1, 2, 3, 4, 5)}
    g = load(table(roles, "partners", turn=7, s0={"hp": 1}, s7={"hand": ["shot"]}, **dead))
    play(g, "play:shot@0", "take")
    assert_over(g, "loners", (6, 7))


def test_partners_8_last_loner_alive_both_loners_win() -> None:
    """RULES.md §8: partners at 8 — only one loner alive still means "every living player is a
    loner", so the eliminated partner wins too."""
    roles = ("marshal", "deputy", "raider", "raider", "deputy", "raider", "loner", "loner")
    dead = {f"s{i}": {"hp": 0} for i in (1, 2, 3, 4, 5, 6)}
    g = load(table(roles, "partners", turn=7, s0={"hp": 1}, s7={"hand": ["shot"]}, **dead))
    play(g, "play:shot@0", "take")
    assert_over(g, "loners", (6, 7))


def test_classic_8_two_loners_alive_raiders_win() -> None:
    """RULES.md §8: outside partners, two living loners when the Marshal falls is neither
    "exactly one loner" nor a partners win → the raiders team wins (all of them eliminated)."""
    roles = ("marshal", "deputy", "raider", "raider", "deputy", "raider", "loner", "loner")
    dead = {f"s{i}": {"hp": 0} for i in (1, 2, 3, 4, 5)}
    g = load(table(roles, "classic", turn=7, s0={"hp": 1}, s7={"hand": ["shot"]}, **dead))
    play(g, "play:shot@0", "take")
    assert_over(g, "raiders", (2, 3, 5))


def test_classic_8_one_loner_alive_only_he_wins() -> None:
    """RULES.md §8: outside partners the lone surviving loner wins alone."""
    roles = ("marshal", "deputy", "raider", "raider", "deputy", "raider", "loner", "loner")
    dead = {f"s{i}": {"hp": 0} for i in (1, 2, 3, 4, 5, 6)}
    g = load(table(roles, "classic", turn=7, s0={"hp": 1}, s7={"hand": ["shot"]}, **dead))
    play(g, "play:shot@0", "take")
    assert_over(g, "loner", (7,))


# --------------------------------------------------------------------------- law wins
def test_law_wins_when_no_raider_agent_or_loner_alive() -> None:
    """RULES.md §8: Marshal alive and no living raider, double agent or loner → law wins,
    eliminated deputies too."""
    roles = ("marshal", "deputy", "raider", "deputy", "loner")
    g = load(table(roles, s1={"hp": 0}, s2={"hp": 0}, s3={"hp": 2}, s4={"hp": 1},
                   s0={"hand": ["shot"]}))  # fmt: skip
    play(g, "play:shot@4", "take")
    assert_over(g, "law", (0, 1, 3))


def test_law_not_yet_while_loner_alive() -> None:
    """RULES.md §8: a living loner keeps the game going after the last raider falls."""
    g = load(table(("marshal", "raider", "deputy", "loner"), s1={"hp": 1}, s0={"hand": ["shot"]}))
    play(g, "play:shot@1", "take")
    assert g.winning_side is None
    assert g.pending.kind == "upgrade"


def test_law_not_yet_while_double_agent_alive() -> None:
    """RULES.md §8: the double agent is not law — the game goes on while he lives."""
    roles = ("marshal", "raider", "deputy", "double_agent", "deputy")
    g = load(table(roles, "double_agent", s1={"hp": 1}, s0={"hand": ["shot"]}))
    play(g, "play:shot@1", "take")
    assert g.winning_side is None and g.pending is not None


# ------------------------------------------------------------------------ ends at once
def test_game_ends_at_once_no_glory_after_winning_elimination() -> None:
    """Ruling R-9.6: if the game is over nothing else happens — no ★ decision, nothing
    pending, and applying any action raises GameOver; the view shows the result."""
    roles = ("marshal", "raider", "raider", "loner")
    g = load(table(roles, s1={"hp": 1, "upgrades": ["toughness"]}, s2={"hp": 0}, s3={"hp": 0},
                   s0={"hand": ["shot"]}))  # fmt: skip
    play(g, "play:shot@1", "take")
    assert_over(g, "law", (0,))
    assert not events_of(g, "star") and g.seats[0].upgrades == []
    v = build_view(g, 1)
    assert v.pending is None and v.winning_side == "law" and v.winners == (0,)
    with pytest.raises(GameOver):
        g.apply("upgrade:marksmanship")


def test_buckshot_stops_at_winning_elimination() -> None:
    """Ruling R-9.6: the game ends at once, even in the middle of a Buckshot — the later
    targets are never asked."""
    roles = ("raider", "marshal", "deputy", "loner")
    g = load(table(roles, s1={"hp": 1}, s0={"hand": ["buckshot"]}))
    play(g, "play:buckshot", "take")
    assert_over(g, "raiders", (0,))
    assert g.seats[2].hp == 4 and g.seats[3].hp == 4
