"""The question kinds answer what RULES.md says, on hand-made positions (the shipped answers are
the engine's; these tests pin a few rulings each kind is about)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.engine import Game, load_position
from harness.quiz.kinds import KIND_BY_NAME


def seat(
    role: str, character: str, hp: int, max_hp: int | None = None, **kw: Any
) -> dict[str, Any]:
    return {"role": role, "character": character, "hp": hp, "max_hp": max_hp or hp, **kw}


def table(*seats: dict[str, Any], **kw: Any) -> Game:
    return load_position({"seats": list(seats), "turn": 0, "phase": "play", **kw})


def answer(kind: str, game: Game, asker: int, **params: Any) -> tuple[str, ...] | None:
    return KIND_BY_NAME[kind].answer(game, asker, params)


FOUR = (
    seat("marshal", "lucky", 4, hand=["shot", "duel"]),
    seat("raider", "iron_brow", 1),
    seat("raider", "pass_shadow", 3),
    seat("loner", "bonesetter", 2, 5),
)


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [
        (["ricochet.5S", "wagon.9S"], "explode"),  # ♠2–9 (RULES.md §6)
        (["ricochet.5S", "shot.AS"], "pass:Bill"),  # ♠A does not explode; one safe try is enough
        (["flask.7H", "cover.KS"], "pass:Bill"),
    ],
)
def test_dynamite_check(faces: list[str], outcome: str) -> None:
    """Lucky (seat 0) reveals two cards; Dynamite explodes only if both do (R-11)."""
    game = table(*FOUR)
    got = answer("check", game, 3, holder=0, card="dynamite", placed=True, revealed=faces)
    assert got == (outcome,)


@pytest.mark.parametrize(
    ("mode", "face", "outcome"),
    [
        ("classic", "flask.7H", "free"),
        ("classic", "shot.QD", "draw_no_play"),  # a red ♦ is not a ♥ (RULES.md §6)
        ("old_classic", "shot.QD", "skip"),
    ],
)
def test_jail_check(mode: str, face: str, outcome: str) -> None:
    game = table(*FOUR, mode=mode)
    got = answer("check", game, 0, holder=2, card="jail", placed=True, revealed=[face])
    assert got == (outcome,)


def test_cover_is_checked_unless_high_noon() -> None:
    """Iron Brow always has Cover (R-6); High Noon switches Cover off (RULES.md §3)."""
    assert answer("cover_check", table(*FOUR), 0, option="play:shot@1", target=1) == ("yes",)
    late = table(*FOUR, round=8)
    assert answer("cover_check", late, 0, option="play:shot@1", target=1) == ("no",)
    assert answer("cover_check", table(*FOUR), 0, option="play:duel@1", target=1) == ("no",)


def test_reach_counts_pass_shadow_and_scope() -> None:
    """Pass Shadow is 2 farther (R-6): at distance 2+2 a Revolver does not reach him."""
    game = table(*FOUR)
    assert answer("reach", game, 0, card="shot") == ("Bill", "Dora")
    assert answer("reach", game, 0, card="jail") == ("Bill", "Cole", "Dora")
    assert answer("reach", game, 1, card="jail") == ("Cole", "Dora")  # never the Marshal


def test_high_noon_allows_a_second_shot_and_forbids_healing() -> None:
    """R-4: no healing in High Noon; unlimited Shots from round 8 (RULES.md §3); R-8."""
    game = table(*FOUR)
    assert answer("high_noon", game, 3, target=0, round=7) == ("flask", "saloon", "heal")
    assert answer("high_noon", game, 3, target=0, round=8) == ("second_shot",)
    old = table(*FOUR, mode="old_classic")  # no High Noon in old_classic
    assert answer("high_noon", old, 3, target=0, round=9) == ("flask", "saloon", "heal")


def test_glory_penalty_and_last_bullet() -> None:
    """The Marshal eliminating the last Deputy pays the penalty and gains both stars (R-14)."""
    game = table(
        seat("marshal", "lucky", 4, hand=["shot"]),
        seat("deputy", "collector", 1),
        seat("raider", "grip", 4),
        seat("loner", "three_eyes", 4),
        seat("raider", "scavenger", 4),
    )
    got = answer("glory", game, 0, option="play:shot@1", blocked=False, victim=1, role="deputy")
    assert got == ("glory", "last_bullet", "penalty")
    got = answer("glory", game, 0, option="play:shot@1", blocked=False, victim=1, role="loner")
    assert got == ("glory",)


def test_upgrades() -> None:
    """Toughness +1 max and +1 ♥; Three Eyes with Instinct looks at 4 cards (R-12)."""
    game = table(*FOUR[:3], seat("loner", "three_eyes", 2, 4))
    assert answer("upgrade", game, 3, upgrade="toughness") == ("3/5",)
    assert answer("upgrade", game, 3, upgrade="instinct") == ("4",)
    assert answer("upgrade", game, 1, upgrade="marksmanship") == ("2",)


def test_what_if_the_marshal_falls() -> None:
    """RULES.md §8: the Marshal eliminated with a Raider alive → the Raiders win."""
    game = table(
        seat("raider", "mad_dog", 3, hand=["shot"]),
        seat("marshal", "lucky", 1),
        seat("loner", "grip", 2),
        seat("deputy", "three_eyes", 4),
        turn=0,
    )
    params = {"option": "play:shot@1", "blocked": False}
    assert KIND_BY_NAME["game_end"].answer(game, 0, params) == ("raiders",)
    assert KIND_BY_NAME["hp_after"].answer(game, 0, {**params, "target": 1}) == ("0",)
    assert KIND_BY_NAME["next_responder"].answer(game, 0, params) == ("Bill",)
