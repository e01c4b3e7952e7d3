"""Chance as a measurement sees it: copy a game, and re-draw the part of its future no seat knows.

A shuffled deck is the same distribution as drawing each card uniformly from the cards not yet
seen, so the future of a game is fixed only by what some seat knows: the cards put back on the
deck (Three Eyes, Instinct: ``known_top``) and any forced coin of a position.  Everything else —
the order of the other deck cards, later reshuffles, Cover coins, random picks from a hand — is
chance.  :func:`resample_future` re-draws exactly that part from a new generator, so a copy played
on from the same state is one sample of the game's chance given everything that has happened.

Nothing here changes how a game plays: :func:`clone` copies, :func:`resample_future` only touches
the copy it is given.
"""

from __future__ import annotations

import random

from .game import Game
from .state import Seat


def _copy_seat(s: Seat) -> Seat:
    c = Seat.__new__(Seat)
    c.index, c.role, c.character = s.index, s.role, s.character
    c.hp, c.max_hp, c.weapon, c.alive = s.hp, s.max_hp, s.weapon, s.alive
    c.hand, c.in_play, c.upgrades = list(s.hand), list(s.in_play), list(s.upgrades)
    c.known_roles, c.marshal_pair = dict(s.known_roles), s.marshal_pair
    c.known_top = list(s.known_top)
    return c


def clone(game: Game, events: bool = True) -> Game:
    """An independent copy of ``game`` (same state, same generator state, same pending decision).
    ``events=False`` starts the copy with an empty event log (for measurements that only read
    the state); the event dicts are shared, never mutated after they are emitted."""
    g = Game.__new__(Game)
    g.n, g.mode, g.seed = game.n, game.mode, game.seed
    g.rng = random.Random.__new__(random.Random)  # not seeded: setstate gives it all its state
    g.rng.setstate(game.rng.getstate())
    g.seats = [_copy_seat(s) for s in game.seats]
    g.marshal, g.round, g.turn, g.phase = game.marshal, game.round, game.turn, game.phase
    g.shots_used = game.shots_used
    g.deck, g.discard = list(game.deck), list(game.discard)
    g.resolving, g.looking = list(game.resolving), list(game.looking)
    g.coins = game.coins.copy()
    g.events = list(game.events) if events else []
    g.stack = list(game.stack)
    g.pending, g.pending_frame = game.pending, game.pending_frame
    g.winning_side, g.winners = game.winning_side, game.winners
    g.history = list(game.history)
    return g


def unseen_positions(game: Game) -> list[int]:
    """Indices into ``game.deck`` of the cards no seat knows the place of (all but put-backs)."""
    known = {c for s in game.seats for c in s.known_top}
    if not known:
        return list(range(len(game.deck)))
    return [i for i, c in enumerate(game.deck) if c not in known]


def resample_future(game: Game, rng: random.Random) -> None:
    """Re-draw the unknown future of ``game`` in place from ``rng``: the deck cards no seat knows
    are put in a new uniformly random order (put-back cards keep their places) and the game's
    generator (reshuffles, coins, random picks) is re-seeded.  Forced coins of a position stay."""
    deck = game.deck
    free = unseen_positions(game)
    cards = [deck[i] for i in free]
    rng.shuffle(cards)
    for i, c in zip(free, cards, strict=True):
        deck[i] = c
    game.rng = random.Random(rng.getrandbits(64))
