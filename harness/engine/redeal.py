"""Worlds a seat cannot tell from the true game: what it cannot see, dealt again.

A seat sees (RULES.md §9) its own hand, role and intel, every public zone (in-play cards,
weapons, the discard pile, the cards being resolved or shown), every seat's ♥, character and hand
size, the roles of the Marshal and of eliminated players, and the cards it put back on the deck
itself.  Everything else — the other hands, the deck's other cards and their order, the roles it
has not learned, the other seats' intel — is hidden from it.

:class:`Redeal` fixes what the seat sees and draws the rest again:

* roles: one assignment chosen uniformly from :func:`role_worlds` (every permutation of the
  hidden roles among the seats whose role the seat does not know that agrees with its intel);
  the other seats' intel (double_agent mode, RULES.md §2 and Ruling R-3) is rewritten to match;
* cards: the cards in the hidden places (other hands, the deck but for the seat's own put-backs
  still on top) are pooled in a canonical order and dealt into those same places in a uniformly
  random order; every seat's put-backs still on top follow their deck places;
* the future: the world's generator is re-seeded from the caller's generator.

A world depends only on what the seat sees and on the generator: two games the seat cannot tell
apart give the same worlds for the same generator (tests/analysis/test_moves_noleak.py).  The
world keeps no event log and no action history (either may name a hidden card) and its pending decision is the seat's
own, with the same options.  Known limit: a card the seat saw go into another hand (a Bazaar
pick, a card it gave) is dealt again with the others, so a world may use less than the seat knows,
never more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import permutations

from .chance import clone
from .game import Game


def unknown_seats(game: Game, seat: int) -> list[int]:
    """Living seats other than ``seat`` whose role ``seat`` does not know (RULES.md §9)."""
    me = game.seats[seat]
    return [
        s.index
        for s in game.seats
        if s.alive and s.index != seat and s.role != "marshal" and s.index not in me.known_roles
    ]


def role_worlds(
    game: Game, seat: int, fixed: Mapping[int, str] | None = None
) -> list[dict[int, str]]:
    """Every assignment of roles to the seats whose roles ``seat`` does not know that agrees with
    what it knows (the composition, revealed roles, its own intel; double_agent mode: the pair the
    Marshal was told is one Deputy and the Double Agent) and with ``fixed``."""
    unknown = unknown_seats(game, seat)
    pool = sorted(game.seats[j].role for j in unknown)
    pair = game.seats[seat].marshal_pair
    worlds = []
    for roles in sorted(set(permutations(pool))):
        world = dict(zip(unknown, roles, strict=True))
        if fixed and any(world.get(j, game.seats[j].role) != r for j, r in fixed.items()):
            continue
        if pair is not None:
            got = {world.get(j, game.seats[j].role) for j in pair}
            if got != {"deputy", "double_agent"}:
                continue
        worlds.append(world)
    return worlds


def top_run(deck: list[int], known: list[int]) -> list[int]:
    """Deck indices, bottom to top, of the unbroken run of cards at the top of ``deck`` that are
    in ``known`` (a seat's put-backs still on top: the view's ``known_deck_top``)."""
    kset = set(known)
    i = len(deck)
    while i > 0 and deck[i - 1] in kset:
        i -= 1
    return list(range(i, len(deck)))


def hidden_places(game: Game, seat: int) -> list[tuple[int, int]]:
    """The places whose card ``seat`` cannot see, in a fixed order: ``(j, k)`` is the ``k``-th
    card of seat ``j``'s hand, ``(-1, i)`` the deck's ``i``-th card (all but its put-backs still
    on top)."""
    places = [(s.index, k) for s in game.seats if s.index != seat for k in range(len(s.hand))]
    mine = set(top_run(game.deck, game.seats[seat].known_top))
    places += [(-1, i) for i in range(len(game.deck)) if i not in mine]
    return places


class Redeal:
    """Worlds of ``game`` as ``seat`` sees it (see the module docstring); the role worlds are
    listed once, each :meth:`world` is one draw."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.roles = role_worlds(game, seat)
        self.places = hidden_places(game, seat)
        self.pool = sorted(self._card(p) for p in self.places)

    def _card(self, place: tuple[int, int]) -> int:
        j, k = place
        return self.game.deck[k] if j < 0 else self.game.seats[j].hand[k]

    def world(self, rng: random.Random) -> Game:
        """One world: a copy of the game with the hidden roles, cards and future drawn again."""
        g = clone(self.game, events=False)
        g.history = []  # a put-back's action names its card
        roles = self.roles[rng.randrange(len(self.roles))] if self.roles else {}
        for j, role in roles.items():
            g.seats[j].role = role
        _rewrite_intel(g, self.seat, rng)
        # put-backs still on top follow their deck places (older ones are forgotten)
        runs = [top_run(g.deck, s.known_top) for s in g.seats]
        cards = list(self.pool)
        rng.shuffle(cards)
        hands = [list(s.hand) for s in g.seats]
        for (j, k), c in zip(self.places, cards, strict=True):
            if j < 0:
                g.deck[k] = c
            else:
                hands[j][k] = c
        for s, hand in zip(g.seats, hands, strict=True):
            s.hand = hand
        for s, run in zip(g.seats, runs, strict=True):
            s.known_top = [g.deck[i] for i in run]
        g.rng = random.Random(rng.getrandbits(64))
        return g


def _rewrite_intel(game: Game, seat: int, rng: random.Random) -> None:
    """The other seats' intel for the world's roles: in double_agent mode the raiders team knows
    each other and the Marshal knows a pair of one Deputy and the Double Agent (RULES.md §2,
    Ruling R-3); nobody else knows any role."""
    seats = game.seats
    for s in seats:
        if s.index != seat:
            s.known_roles = {}
            if s.index != game.marshal:
                s.marshal_pair = None
    if game.mode != "double_agent" or game.n < 5:
        return
    team = [s.index for s in seats if s.role in ("raider", "double_agent")]
    for i in team:
        if i != seat:
            seats[i].known_roles = {j: seats[j].role for j in team if j != i}
    m = game.marshal
    if m != seat and seats[m].marshal_pair is not None:
        deputies = [s.index for s in seats if s.role == "deputy"]
        agent = next(s.index for s in seats if s.role == "double_agent")
        pair = [rng.choice(deputies), agent]
        rng.shuffle(pair)
        seats[m].marshal_pair = (pair[0], pair[1])


__all__ = ["Redeal", "hidden_places", "role_worlds", "top_run", "unknown_seats"]
