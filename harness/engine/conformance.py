"""Invariant checks for any game, shipped with the engine (like PettingZoo's ``api_test``).

:func:`check_invariants` raises :class:`AssertionError` with a readable message when a game state
breaks a rule of RULES.md; :func:`random_playout` plays a game with uniformly random choices,
checking the invariants after every decision.
"""

from __future__ import annotations

import random
from collections import Counter

from .cards import CARD_TYPE, N_CARDS
from .game import Game


def card_locations(game: Game) -> list[int]:
    cards = list(game.deck) + game.discard + game.resolving + game.looking
    for s in game.seats:
        cards += s.hand + s.in_play
        if s.weapon >= 0:
            cards.append(s.weapon)
    return cards


def check_invariants(game: Game) -> None:
    cards = card_locations(game)
    dup = [c for c, k in Counter(cards).items() if k > 1]
    assert len(cards) == N_CARDS and not dup, (
        f"{len(cards)} cards accounted for (expected {N_CARDS}); duplicated: {dup}"
    )
    for s in game.seats:
        assert 0 <= s.hp <= s.max_hp, f"seat {s.index}: ♥ {s.hp} outside 0..{s.max_hp}"
        assert s.alive == (s.hp > 0), f"seat {s.index}: alive={s.alive} at ♥ {s.hp}"
        if not s.alive:
            assert not s.hand and not s.in_play and s.weapon < 0, f"seat {s.index}: dead with cards"
        names = [CARD_TYPE[c] for c in s.in_play]
        assert len(names) == len(set(names)), f"seat {s.index}: two in-play cards share a name"
    if game.is_over:
        assert game.pending is None, "a decision is pending after the game ended"
        return
    d = game.pending
    assert d is not None, "no decision is pending and the game is not over"
    assert d.options, f"decision {d.kind} for seat {d.seat} has no options"
    assert game.seats[d.seat].alive, f"eliminated seat {d.seat} must decide {d.kind}"
    ids = d.option_ids
    assert len(ids) == len(set(ids)), f"duplicate options: {ids}"


def random_playout(
    n_seats: int, mode: str, seed: int, max_decisions: int = 50_000, check: bool = True
) -> Game:
    """Play a game with uniformly random choices from ``seed``; check invariants if asked."""
    game = Game.new(n_seats, mode, seed)
    rng = random.Random(seed ^ 0x5EED)
    k = 0
    while game.pending is not None:
        if check:
            check_invariants(game)
        game.apply(rng.choice(game.pending.options))
        k += 1
        if k > max_decisions:
            raise AssertionError(f"game did not end within {max_decisions} decisions")
    if check:
        check_invariants(game)
    return game
