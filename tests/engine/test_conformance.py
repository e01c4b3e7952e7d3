"""Random-play conformance over every seat count × mode (ISSUE: engine conformance suite).

Invariants checked after every decision by harness.engine.conformance.check_invariants: all 80 cards
accounted for exactly once, ♥ within 0..max, exactly one pending decision with distinct legal
options, eliminated players never decide, every game ends.
"""

from __future__ import annotations

import random

import pytest

from harness.engine import Game, check_invariants, random_playout
from harness.engine.roles import MODES

GAMES_PER_CELL = 25
LONGEST: dict[tuple[int, str], int] = {}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
def test_random_play_keeps_every_invariant(seats: int, mode: str) -> None:
    longest = 0
    sides = set()
    for seed in range(GAMES_PER_CELL):
        game = random_playout(seats, mode, seed * 7919 + seats)
        assert game.is_over
        assert game.winners, "a finished game names its winners"
        longest = max(longest, len(game.history))
        sides.add(game.winning_side)
    LONGEST[(seats, mode)] = longest
    print(f"\n{seats} seats {mode}: longest game {longest} decisions, sides seen {sorted(sides)}")
    assert longest > 0


def test_eliminated_players_never_act() -> None:
    for seed in range(40):
        game = Game.new(7, "classic", seed)
        rng = random.Random(seed)
        dead: set[int] = set()
        while game.pending is not None:
            assert game.pending.seat not in dead
            game.apply(rng.choice(game.pending.options))
            dead = {s.index for s in game.seats if not s.alive}


def test_every_option_is_applicable_and_illegal_ones_are_rejected() -> None:
    """Every listed option applies without error; a non-listed well-formed action raises and
    leaves the game unchanged."""
    from harness.engine import IllegalAction, dump_position

    rng = random.Random(5)
    for seed in range(15):
        game = Game.new(5, "classic", seed)
        while game.pending is not None:
            before = dump_position(game)
            with pytest.raises(IllegalAction):
                game.apply("play:caravan@3")  # never a legal id (Caravan has no target)
            assert dump_position(game) == before
            check_invariants(game)
            game.apply(rng.choice(game.pending.options))
