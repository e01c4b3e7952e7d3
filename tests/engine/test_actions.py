"""Action ids round-trip (ARCHITECTURE.md: canonical text ids, like python-chess's Move.uci())."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.engine import Action, Game, MalformedAction, parse_action


def test_every_option_in_random_games_round_trips() -> None:
    seen = set()
    for seed in range(30):
        game = Game.new(6, "classic", seed)
        rng = random.Random(seed)
        while game.pending is not None:
            for a in game.pending.options:
                assert parse_action(a.id) == a
                seen.add(a.verb)
            game.apply(rng.choice(game.pending.options))
    assert {"end", "play", "take", "discard", "dodge", "match", "upgrade"} <= seen


@given(
    verb=st.sampled_from(["play", "dodge", "match", "discard", "draw", "upgrade", "heal"]),
    arg=st.from_regex(r"[a-z_]{1,10}(\.[0-9JQKA]{1,2}[SHDC])?(\+[a-z_]{1,8})?", fullmatch=True),
    target=st.integers(min_value=-1, max_value=7),
    extra=st.sampled_from(["", "hand", "horse", "long_rifle"]),
)
def test_format_then_parse_is_identity(verb: str, arg: str, target: int, extra: str) -> None:
    a = Action(verb, arg, target, extra)
    assert parse_action(a.id) == a


@pytest.mark.parametrize("text", ["", "shoot", "play:", "play:shot@", "play:shot@12", "END", "x:y"])
def test_malformed_ids_are_rejected(text: str) -> None:
    with pytest.raises(MalformedAction):
        parse_action(text)


def test_options_are_in_a_deterministic_order() -> None:
    a = Game.new(5, "classic", 9)
    b = Game.new(5, "classic", 9)
    assert a.pending == b.pending
    assert a.pending is not None and a.pending.options[-1].id == "end"
