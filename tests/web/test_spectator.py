"""The spectator's public view (RULES.md §9 "Public"): re-dealing everything hidden leaves it
unchanged, and it agrees with every seat's own view on every public fact."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from harness.engine import Game, build_view
from harness.engine.roles import MODES
from harness.views.names import default_names
from harness.views.render_context import view_context
from harness.web.spectator import SPECTATOR, public_view


def positions(mode: str, seats: int, seed: int, every: int = 7) -> list[Game]:
    """Snapshots of one random game every ``every`` decisions."""
    rng = random.Random(seed)
    game = Game.new(seats, mode, seed)
    out = []
    k = 0
    while game.pending is not None:
        if k % every == 0:
            out.append(copy.deepcopy(game))
        options = game.pending.options
        game.apply(options[rng.randrange(len(options))])
        k += 1
    out.append(game)
    return out


def redeal_everything_hidden(game: Game, rng: random.Random) -> Game:
    g = copy.deepcopy(game)
    pool = list(g.deck) + [c for s in g.seats for c in s.hand] + list(g.looking)
    rng.shuffle(pool)
    g.deck, pool = pool[: len(g.deck)], pool[len(g.deck) :]
    for s in g.seats:
        s.hand, pool = pool[: len(s.hand)], pool[len(s.hand) :]
    g.looking = pool
    hidden = [s for s in g.seats if s.alive and s.role != "marshal"]
    roles = [s.role for s in hidden]
    rng.shuffle(roles)
    for s, r in zip(hidden, roles, strict=True):
        s.role = r
    g.rng = random.Random(rng.random())
    return g


@pytest.mark.parametrize("mode", MODES)
def test_redealing_hidden_information_leaves_the_public_view_identical(mode: str) -> None:
    rng = random.Random(5)
    for game in positions(mode, 6, 17):
        view = public_view(game)
        for _ in range(3):
            assert public_view(redeal_everything_hidden(game, rng)) == view


def test_the_public_view_agrees_with_each_seat_on_public_facts() -> None:
    for game in positions("double_agent", 7, 3, every=11):
        pub = public_view(game)
        assert (pub.viewer, pub.role, pub.hand, pub.known_roles) == (SPECTATOR, "", (), {})
        assert pub.pending is None or pub.pending.options is None
        for seat in range(game.n):
            own = build_view(game, seat)
            for a, b in zip(pub.seats, own.seats, strict=True):
                b_public = dataclasses.replace(
                    b, distance=None, role=b.role if b.seat != seat or a.role else None
                )
                assert a == b_public
            same = ("round", "high_noon", "turn", "phase", "deck_size", "discard_top",
                    "composition", "winning_side", "winners", "event_count")  # fmt: skip
            assert all(getattr(pub, f) == getattr(own, f) for f in same)


def test_the_public_view_renders_without_a_seat() -> None:
    game = positions("classic", 5, 9)[3]
    ctx = view_context(public_view(game), default_names(5), "ru")
    assert ctx["you"] is None and ctx["hand"] == [] and ctx["knowledge"] == []
    assert not any(s["you"] for s in ctx["seats"])
    assert ctx["decision"] is None or ctx["decision"]["options"] == []
