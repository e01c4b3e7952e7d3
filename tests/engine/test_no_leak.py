"""RULES.md §9: re-dealing everything a seat cannot see leaves that seat's view identical.

Hidden from a seat: other players' hands, hidden roles, the deck order (except cards it put back
itself), cards another player is looking at, and future random outcomes.  What the seat may know
comes from the independent account of ``tests/noleak/account.py`` (computed from the event log),
never from the view under test: a view that wrongly claimed to know the deck's top card would
otherwise keep that card in place and hide its own leak.  This test re-deals the present only; the
past events a view carries are checked by ``tests/noleak``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from harness.engine import Game, SeatView, build_view, check_invariants
from harness.engine.roles import MODES
from tests.noleak.account import Account
from tests.noleak.mutations import real_deck_top


def redeal_hidden(
    game: Game, viewer: int, rng: random.Random, account: Account | None = None
) -> Game:
    """A copy of ``game`` with everything ``viewer`` may not know dealt again."""
    account = Account.from_game(game) if account is None else account.update(game)
    g = copy.deepcopy(game)
    # Cards: other hands + deck below the viewer's known top run (+ another's look) are pooled.
    known = len(account.deck_top(viewer))
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
    roles_known = account.roles(viewer)
    pair = set(account.pair(viewer) or ())
    hidden = [s for s in others if s.index not in roles_known and s.index not in pair]
    roles = [s.role for s in hidden]
    rng.shuffle(roles)
    for s, r in zip(hidden, roles, strict=True):
        s.role = r
    if pair:  # the Marshal knows the pair as a set, not who is who
        a, b = sorted(pair)
        if a not in roles_known and b not in roles_known and rng.random() < 0.5:
            g.seats[a].role, g.seats[b].role = g.seats[b].role, g.seats[a].role
    g.rng = random.Random(rng.random())  # future random outcomes
    return g


def same_view_after_redeal(
    game: Game,
    viewer: int,
    rng: random.Random,
    account: Account,
    view: Callable[[Game, int], SeatView] = build_view,
) -> bool:
    twin = redeal_hidden(game, viewer, rng, account)
    check_invariants(twin)
    return view(twin, viewer) == view(game, viewer)


@pytest.mark.parametrize("mode", MODES)
def test_redealing_hidden_information_leaves_the_view_identical(mode: str) -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        game = Game.new(7, mode, seed)
        account = Account.from_game(game)
        step = 0
        while game.pending is not None:
            if step % 7 == 0:
                for viewer in range(game.n):
                    assert same_view_after_redeal(game, viewer, rng, account), (
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


def test_a_view_claiming_the_deck_top_is_caught() -> None:
    """The exemption comes from the account, so a view that reports the real top card of the deck
    to a seat that never put it there no longer keeps that card in place."""
    game = Game.new(6, "classic", 4)
    account = Account.from_game(game)
    rng = random.Random(2)
    assert all(same_view_after_redeal(game, v, rng, account) for v in range(6))
    caught = sum(
        not same_view_after_redeal(game, v, rng, account, view=real_deck_top) for v in range(6)
    )
    assert caught >= 5  # a re-deal can put the same card on top by chance
