"""RULES.md §9: re-dealing everything a seat cannot see leaves that seat's view identical.

Hidden from a seat: other players' hands, hidden roles, the deck order (except cards it put back
itself), cards another player is looking at, and future random outcomes.
"""

from __future__ import annotations

import copy
import random

import pytest

from harness.engine import Game, build_view, check_invariants
from harness.engine.roles import MODES


def redeal_hidden(game: Game, viewer: int, rng: random.Random) -> Game:
    g = copy.deepcopy(game)
    me = g.seats[viewer]
    # Cards: other hands + deck below the viewer's known top run (+ another's look) are pooled.
    known = len(build_view(g, viewer).known_deck_top)
    keep_top = g.deck[len(g.deck) - known :] if known else []
    deck_rest = g.deck[: len(g.deck) - known]
    others = [s for s in g.seats if s.index != viewer]
    looking_hidden = g.pending is not None and g.pending.seat != viewer and g.looking
    pool = list(deck_rest) + [c for s in others for c in s.hand]
    if looking_hidden:
        pool += g.looking
    rng.shuffle(pool)
    g.deck = pool[: len(deck_rest)] + keep_top
    pool = pool[len(deck_rest) :]
    for s in others:
        n = len(s.hand)
        s.hand, pool = pool[:n], pool[n:]
    if looking_hidden:
        g.looking, pool = pool[: len(g.looking)], pool[len(g.looking) :]
    assert not pool
    # Roles the viewer does not know are permuted among those seats.
    pair = set(me.marshal_pair or ())
    hidden = [
        s
        for s in others
        if s.alive and s.role != "marshal" and s.index not in me.known_roles and s.index not in pair
    ]
    roles = [s.role for s in hidden]
    rng.shuffle(roles)
    for s, r in zip(hidden, roles, strict=True):
        s.role = r
    if pair:  # the Marshal knows the pair as a set, not who is who
        a, b = sorted(pair)
        if g.seats[a].alive and g.seats[b].alive and rng.random() < 0.5:
            g.seats[a].role, g.seats[b].role = g.seats[b].role, g.seats[a].role
    g.rng = random.Random(rng.random())  # future random outcomes
    return g


@pytest.mark.parametrize("mode", MODES)
def test_redealing_hidden_information_leaves_the_view_identical(mode: str) -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(12):
        game = Game.new(7, mode, seed)
        step = 0
        while game.pending is not None:
            if step % 7 == 0:
                for viewer in range(game.n):
                    twin = redeal_hidden(game, viewer, rng)
                    check_invariants(twin)
                    assert build_view(twin, viewer) == build_view(game, viewer), (
                        f"seat {viewer} sees a difference after re-dealing (seed {seed})"
                    )
                    checked += 1
            game.apply(rng.choice(game.pending.options))
            step += 1
    assert checked > 100


def test_redeal_changes_hidden_state_so_the_check_has_teeth() -> None:
    """The re-deal must actually move hidden cards, or the no-leak test proves nothing."""
    game = Game.new(6, "classic", 3)
    twin = redeal_hidden(game, 0, random.Random(1))
    changed = [s.index for s in game.seats if s.hand != twin.seats[s.index].hand]
    assert changed and 0 not in changed
    assert build_view(game, 1) != build_view(twin, 1)


def test_other_seats_options_are_not_shown() -> None:
    """A pending decision's options (which reveal a hand) are shown only to the seat deciding."""
    game = Game.new(5, "classic", 2)
    d = game.pending
    assert d is not None
    for viewer in range(5):
        pv = build_view(game, viewer).pending
        assert pv is not None
        assert (pv.options is not None) == (viewer == d.seat)
